import { runJob } from '#shared/jobs';
import { once } from '#shared/once';
import { parseInput } from '#shared/parse-input';
import { getContainer } from '#shared/platform/current';

// dueAt is Scheduler's <aws.scheduler.scheduled-time>, filled in by every schedule's input; it is
// optional so a job invoked by hand still runs (without a lag). Built with zod on the first job, not
// at cold start.
const jobSchema = once(async () => {
  const z = await import('zod');
  return z.object({
    job: z.string().min(1),
    id: z.string().default(''),
    dueAt: z.string().optional(),
  });
});

/** Target of every EventBridge Scheduler schedule (one-time `at()` jobs and the `rate()` heartbeat). */
export const handler = async (event: unknown) => {
  const container = await getContainer();
  return runJob(container, parseInput(await jobSchema(), event));
};
