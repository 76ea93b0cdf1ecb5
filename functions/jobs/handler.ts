import * as z from 'zod';
import { runJob } from '#shared/jobs';
import { getContainer } from '#shared/platform/current';
import { parseInput } from '#shared/validation';

// dueAt is Scheduler's <aws.scheduler.scheduled-time>, filled in by every schedule's input; it is
// optional so a job invoked by hand still runs (without a lag).
const jobSchema = z.object({
  job: z.string().min(1),
  id: z.string().default(''),
  dueAt: z.string().optional(),
});

/** Target of every EventBridge Scheduler schedule (one-time `at()` jobs and the `rate()` heartbeat). */
export const handler = async (event: unknown) => runJob(await getContainer(), parseInput(jobSchema, event));
