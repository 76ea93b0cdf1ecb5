import { recordHeartbeat } from '#shared/domain/health/health';
import type { ScheduledJob } from '#shared/domain/ports';
import { EXPIRY_JOB } from '#shared/domain/transactions/create';
import { type ExpirySweepDeps, sweepPixExpiries } from '#shared/domain/transactions/expiry-sweep';
import { expirePix } from '#shared/domain/transactions/notifications';
import { logger } from '#shared/logger';
import type { Container as Deps } from '#shared/platform/container';

export type JobHandler = (deps: Deps, job: ScheduledJob) => Promise<unknown>;

const expiryDeps = (deps: Deps): ExpirySweepDeps => ({
  transactions: deps.repos.transactions,
  clock: deps.clock,
  ids: deps.ids,
  payments: deps.payments,
  onExpiryError: (error, id) => logger.error('could not expire a pix charge', { error, id }),
});

/**
 * Scheduled work, dispatched by name to its use cases with their narrow deps. Later issues add
 * due-date, expiry and issuance jobs here. The heartbeat also sweeps expiries a schedule missed.
 */
export const jobHandlers: Record<string, JobHandler> = {
  heartbeat: async (deps) => ({
    ...(await recordHeartbeat({ health: deps.repos.health, clock: deps.clock })),
    sweep: await sweepPixExpiries(expiryDeps(deps)),
  }),
  [EXPIRY_JOB]: (deps, job) => expirePix(expiryDeps(deps), job.id),
};

export const HEARTBEAT_JOB: ScheduledJob = { job: 'heartbeat', id: 'rate' };

export async function runJob(deps: Deps, job: ScheduledJob): Promise<unknown> {
  const handler = jobHandlers[job.job];
  if (!handler) {
    // An unknown job can never succeed: log it and return so the scheduler does not retry it 185 times.
    logger.error('unknown job', { job: job.job, id: job.id });
    return { skipped: true };
  }
  return handler(deps, job);
}
