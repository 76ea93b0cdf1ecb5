import { ATTEMPT_RECONCILE_JOB } from '#shared/domain/attempts/attempt';
import { reconcileAttempt, sweepAttempts } from '#shared/domain/attempts/reconcile';
import { SESSION_EXPIRY_JOB } from '#shared/domain/checkout/session';
import { expireSessionJob, sweepSessionExpiries } from '#shared/domain/checkout/sessions';
import { recordHeartbeat } from '#shared/domain/health/health';
import { runPlanDueJob, sweepDuePlans } from '#shared/domain/installment-plans/due';
import { INSTALLMENT_PLAN_DUE_JOB } from '#shared/domain/installment-plans/plan';
import { PAYMENT_METHOD_EXPIRY_JOB } from '#shared/domain/payment-methods/expiry';
import { runExpiryStep, sweepExpirySteps } from '#shared/domain/payment-methods/expiry-steps';
import type { ScheduledJob } from '#shared/domain/ports';
import {
  RECONCILIATION_DAILY_ID,
  RECONCILIATION_JOB,
  runReconciliationJob,
} from '#shared/domain/reconciliation/daily';
import { SCHEDULED_CHARGE_DUE_JOB } from '#shared/domain/scheduled-charges/charge';
import { runChargeDueJob, sweepDueCharges } from '#shared/domain/scheduled-charges/due';
import { runDueJob, sweepDueSubscriptions } from '#shared/domain/subscriptions/due';
import { SUBSCRIPTION_DUE_JOB } from '#shared/domain/subscriptions/subscription';
import { deleteExpiredTestClock, sweepExpiredTestClocks } from '#shared/domain/test-clocks/lifetime';
import { TEST_CLOCK_DELETION_JOB } from '#shared/domain/test-clocks/test-clock';
import { EXPIRY_JOB } from '#shared/domain/transactions/expiry-job';
import { sweepPixExpiries } from '#shared/domain/transactions/expiry-sweep';
import { receiveVerifiedNotification, settleByProviderStatus } from '#shared/domain/transactions/follow-ups';
import { expirePix } from '#shared/domain/transactions/notifications';
import { logger } from '#shared/logger';
import type { Container } from '#shared/platform/container';

export type JobHandler = (container: Container, job: ScheduledJob) => Promise<unknown>;

// A job's change is saved before its next schedule, mail or cancellation: those failures go to
// the container's reporter and are left to the heartbeat's sweep.
const subscriptionDeps = ({ deps }: Container) => ({
  ...deps,
  // What the provider reports of a debit whose notification never came goes through the same
  // transition and follow-ups as that notification (functions/provider-connections).
  settleDebit: (t: Parameters<typeof settleByProviderStatus>[1], status: 'paid' | 'failed' | 'canceled') =>
    settleByProviderStatus(deps, t, status),
});

/** The pix expiry applies a payment the provider holds but never notified, as that notification. */
const expiryDeps = ({ deps }: Container) => ({
  ...deps,
  settle: (t: Parameters<typeof settleByProviderStatus>[1], status: 'paid') =>
    settleByProviderStatus(deps, t, status),
});

/**
 * Scheduled work, dispatched by name to its use cases with the container's deps. The heartbeat
 * also sweeps what a schedule missed.
 */
export const jobHandlers: Record<string, JobHandler> = {
  heartbeat: async (c) => ({
    ...(await recordHeartbeat(c.deps)),
    sweep: await sweepPixExpiries(expiryDeps(c)),
    sessionSweep: await sweepSessionExpiries(c.deps),
    cardExpirySweep: await sweepExpirySteps(c.deps),
    subscriptionSweep: await sweepDueSubscriptions(subscriptionDeps(c)),
    scheduledChargeSweep: await sweepDueCharges(c.deps),
    installmentPlanSweep: await sweepDuePlans(c.deps),
    attemptSweep: await sweepAttempts(c.deps),
    testClockDeletionSweep: await sweepExpiredTestClocks(c.deps),
  }),
  [EXPIRY_JOB]: (c, job) => expirePix(expiryDeps(c), job.id),
  [SESSION_EXPIRY_JOB]: (c, job) => expireSessionJob(c.deps, job.id),
  [PAYMENT_METHOD_EXPIRY_JOB]: (c, job) => runExpiryStep(c.deps, job.id),
  [SUBSCRIPTION_DUE_JOB]: (c, job) => runDueJob(subscriptionDeps(c), job.id),
  [SCHEDULED_CHARGE_DUE_JOB]: (c, job) => runChargeDueJob(c.deps, job.id),
  [INSTALLMENT_PLAN_DUE_JOB]: (c, job) => runPlanDueJob(c.deps, job.id),
  [ATTEMPT_RECONCILE_JOB]: (c, job) => reconcileAttempt(c.deps, job.id),
  [TEST_CLOCK_DELETION_JOB]: (c, job) => deleteExpiredTestClock(c.deps, job.id),
  // A repair is applied as the provider's notification would be: transition, events, follow-ups.
  [RECONCILIATION_JOB]: (c, job) =>
    runReconciliationJob({ ...c.deps, apply: (n) => receiveVerifiedNotification(c.deps, n) }, job.id),
};

/**
 * One due job run outside its schedule (a sandbox test clock's advance): the same handler the
 * schedule's run takes, without the jobs function's log line.
 */
export function runJobNow(container: Container, job: ScheduledJob): Promise<unknown> {
  const handler = jobHandlers[job.job];
  if (!handler) throw new Error(`unknown job: ${job.job}`);
  return handler(container, job);
}

export const HEARTBEAT_JOB: ScheduledJob = { job: 'heartbeat', id: 'rate' };

/** The daily reconciliation's schedule fires this: the day before the run's day (Sao Paulo). */
export const DAILY_RECONCILIATION_JOB: ScheduledJob = {
  job: RECONCILIATION_JOB,
  id: RECONCILIATION_DAILY_ID,
};
/** When the daily reconciliation runs, Sao Paulo time: the provider's day is closed by then. */
export const DAILY_RECONCILIATION_AT = { hour: 3, minute: 0 };

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
