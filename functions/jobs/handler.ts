import { runJob } from '#shared/jobs';
import { once } from '#shared/once';
import { parseInput } from '#shared/parse-input';
import { getContainer } from '#shared/platform/current';

// The input schema loads with the jobs' use cases on the first job (shared/job-input.ts).
const useCases = once(() => import('#shared/job-use-cases'));

/** Target of every EventBridge Scheduler schedule (one-time `at()` jobs and the `rate()` heartbeat). */
export const handler = async (event: unknown) => {
  const container = await getContainer();
  return runJob(container, parseInput((await useCases()).jobInputSchema, event));
};
