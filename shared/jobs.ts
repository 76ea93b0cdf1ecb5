import { recordHeartbeat } from '#shared/domain/health/health';
import type { ScheduledJob } from '#shared/domain/ports';
import { EXPIRY_JOB } from '#shared/domain/transactions/create';
import { expirePix } from '#shared/domain/transactions/notifications';
import { logger } from '#shared/logger';
import type { Container as Deps } from '#shared/platform/container';

export type JobHandler = (deps: Deps, job: ScheduledJob) => Promise<unknown>;

/** Scheduled work, dispatched by name. Later issues add due-date, expiry and issuance jobs here. */
export const jobHandlers: Record<string, JobHandler> = {
  heartbeat: async (deps) => {
    const beat = await recordHeartbeat({ health: deps.repos.health, clock: deps.clock });
    return { ...beat, sweep: await sweepPixExpiries(deps) };
  },
  [EXPIRY_JOB]: (deps, job) =>
    expirePix(
      { transactions: deps.repos.transactions, clock: deps.clock, ids: deps.ids, payments: deps.payments },
      job.id,
    ),
};

/** How far back the heartbeat looks for expiries a schedule missed. */
const SWEEP_HOURS = 6;

/** The backstop of the one-time expiry schedules: any pix still pending past its expiry is expired. */
async function sweepPixExpiries(deps: Deps) {
  const due = await deps.repos.transactions.duePixExpiries(deps.clock.now(), SWEEP_HOURS);
  let expired = 0;
  for (const id of due) {
    try {
      await expirePix(
        { transactions: deps.repos.transactions, clock: deps.clock, ids: deps.ids, payments: deps.payments },
        id,
      );
      expired += 1;
    } catch (error) {
      logger.error('could not expire a pix charge', { error, id });
    }
  }
  return { due: due.length, expired };
}

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
