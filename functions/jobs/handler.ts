import { once } from '#shared/once';
import { getContainer } from '#shared/platform/current';

// The jobs, their use cases and the input schema load with the first job (docs/decisions.md, "Cold start").
const jobs = once(() => import('./run'));

/** Target of every EventBridge Scheduler schedule (one-time `at()` jobs and the `rate()` heartbeat). */
export const handler = async (event: unknown) => {
  const [container, { runScheduledJob }] = await Promise.all([getContainer(), jobs()]);
  return runScheduledJob(container, event);
};
