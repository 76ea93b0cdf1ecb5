import { SESSION_EXPIRY_JOB } from '#shared/domain/checkout/session';
import { expireSessionJob, sweepSessionExpiries } from '#shared/domain/checkout/sessions';
import { recordHeartbeat } from '#shared/domain/health/health';
import { runPlanDueJob, sweepDuePlans } from '#shared/domain/installment-plans/due';
import { INSTALLMENT_PLAN_DUE_JOB } from '#shared/domain/installment-plans/plan';
import { runExpiryStep, sweepExpirySteps } from '#shared/domain/payment-methods/expiry-steps';
import { PAYMENT_METHOD_EXPIRY_JOB } from '#shared/domain/payment-methods/schedule';
import type { ScheduledJob } from '#shared/domain/ports';
import { SCHEDULED_CHARGE_DUE_JOB } from '#shared/domain/scheduled-charges/charge';
import { runChargeDueJob, sweepDueCharges } from '#shared/domain/scheduled-charges/due';
import { runDueJob, sweepDueSubscriptions } from '#shared/domain/subscriptions/due';
import { SUBSCRIPTION_DUE_JOB } from '#shared/domain/subscriptions/subscription';
import { EXPIRY_JOB } from '#shared/domain/transactions/expiry-job';
import { sweepPixExpiries } from '#shared/domain/transactions/expiry-sweep';
import { receiveVerifiedNotification } from '#shared/domain/transactions/follow-ups';
import { expirePix, notificationOfStatus } from '#shared/domain/transactions/notifications';
import { logger } from '#shared/logger';
import type { Container } from '#shared/platform/container';
import { notificationDeps } from '#shared/platform/notification-deps';

export type JobHandler = (container: Container, job: ScheduledJob) => Promise<unknown>;

// A job's change is saved before its next schedule, mail or cancellation: those failures are
// logged and left to the heartbeat's sweep.
const expiryDeps = ({ deps }: Container) => ({
  ...deps,
  onExpiryError: (error: unknown, id: string) => logger.error('could not expire a pix charge', { error, id }),
});

const cardExpiryDeps = ({ deps }: Container) => ({
  ...deps,
  onScheduleError: (error: unknown) => logger.error('could not schedule a saved card expiry step', { error }),
  onDueError: (error: unknown, id: string) =>
    logger.error('could not run a saved card expiry step', { error, id }),
});

// An expired session with a price cancels the subscriptions its unpaid pix started.
const sessionDeps = ({ deps }: Container) => ({
  ...deps,
  onScheduleError: (error: unknown) => logger.error('could not schedule a subscription job', { error }),
  onExpiryError: (error: unknown, id: string) =>
    logger.error('could not expire a checkout session', { error, id }),
});

const subscriptionDeps = ({ deps }: Container) => ({
  ...deps,
  onScheduleError: (error: unknown) => logger.error('could not schedule a subscription due job', { error }),
  onDueError: (error: unknown, id: string) =>
    logger.error('could not run a subscription due job', { error, id }),
  // What the provider reports of a debit whose notification never came goes through the same
  // transition and follow-ups as that notification (functions/provider-connections).
  settleDebit: (t: Parameters<typeof notificationOfStatus>[0], status: 'paid' | 'failed' | 'canceled') =>
    receiveVerifiedNotification(
      notificationDeps(deps, logger),
      notificationOfStatus(t, status, deps.clock.now()),
    ),
});

const scheduledChargeDeps = ({ deps }: Container) => ({
  ...deps,
  onScheduleError: (error: unknown) =>
    logger.error('could not schedule a scheduled-charge due job', { error }),
  onDueError: (error: unknown, id: string) =>
    logger.error('could not run a scheduled-charge due job', { error, id }),
  onMailError: (error: unknown) => logger.error('could not send a scheduled-charge reminder', { error }),
});

const installmentPlanDeps = ({ deps }: Container) => ({
  ...deps,
  onScheduleError: (error: unknown) =>
    logger.error('could not schedule an installment plan due job', { error }),
  onDueError: (error: unknown, id: string) =>
    logger.error('could not run an installment plan due job', { error, id }),
  onMailError: (error: unknown) => logger.error('could not send an installment reminder', { error }),
  onCancelError: (error: unknown) => logger.error('could not cancel an unpaid installment boleto', { error }),
});

/**
 * Scheduled work, dispatched by name to its use cases with the container's deps. The heartbeat
 * also sweeps what a schedule missed.
 */
export const jobHandlers: Record<string, JobHandler> = {
  heartbeat: async (c) => ({
    ...(await recordHeartbeat(c.deps)),
    sweep: await sweepPixExpiries(expiryDeps(c)),
    sessionSweep: await sweepSessionExpiries(sessionDeps(c)),
    cardExpirySweep: await sweepExpirySteps(cardExpiryDeps(c)),
    subscriptionSweep: await sweepDueSubscriptions(subscriptionDeps(c)),
    scheduledChargeSweep: await sweepDueCharges(scheduledChargeDeps(c)),
    installmentPlanSweep: await sweepDuePlans(installmentPlanDeps(c)),
  }),
  [EXPIRY_JOB]: (c, job) => expirePix(expiryDeps(c), job.id),
  [SESSION_EXPIRY_JOB]: (c, job) => expireSessionJob(sessionDeps(c), job.id),
  [PAYMENT_METHOD_EXPIRY_JOB]: (c, job) => runExpiryStep(cardExpiryDeps(c), job.id),
  [SUBSCRIPTION_DUE_JOB]: (c, job) => runDueJob(subscriptionDeps(c), job.id),
  [SCHEDULED_CHARGE_DUE_JOB]: (c, job) => runChargeDueJob(scheduledChargeDeps(c), job.id),
  [INSTALLMENT_PLAN_DUE_JOB]: (c, job) => runPlanDueJob(installmentPlanDeps(c), job.id),
};

export const HEARTBEAT_JOB: ScheduledJob = { job: 'heartbeat', id: 'rate' };

/** A job as the jobs function receives it: `dueAt` is when its schedule was due, when known. */
export interface JobRun extends ScheduledJob {
  dueAt?: string;
}

/** The message of the one log line each job run writes; the stack's scheduler-lag metric filter matches it. */
export const JOB_RUN_LOG = 'job run';

export type JobOutcome = 'succeeded' | 'failed' | 'unknown-job';

/**
 * Runs one job and writes one structured line about it: job, id, dueAt, lagMs (how late it started
 * against its due time), outcome and durationMs. The job's result stays out of the line: it can
 * carry customer data.
 */
export async function runJob(deps: Container, job: JobRun): Promise<unknown> {
  const startedAt = deps.clock.now().getTime();
  const dueAt = job.dueAt === undefined ? Number.NaN : Date.parse(job.dueAt);
  const fields = {
    job: job.job,
    id: job.id,
    // Only a parseable due time gives a lag: the metric filter keys on lagMs being present.
    ...(Number.isNaN(dueAt) ? {} : { dueAt: new Date(dueAt).toISOString(), lagMs: startedAt - dueAt }),
  };
  const finish = (outcome: JobOutcome, extra: Record<string, unknown> = {}) => {
    const line = { ...fields, outcome, durationMs: deps.clock.now().getTime() - startedAt, ...extra };
    if (outcome === 'succeeded') logger.info(JOB_RUN_LOG, line);
    else logger.error(JOB_RUN_LOG, line);
  };
  const handler = jobHandlers[job.job];
  if (!handler) {
    // An unknown job can never succeed: log it and return so the scheduler does not retry it 185 times.
    finish('unknown-job');
    return { skipped: true };
  }
  try {
    const result = await deps.unitOfWork(() => handler(deps, job));
    finish('succeeded');
    return result;
  } catch (error) {
    finish('failed', { error });
    throw error;
  }
}
