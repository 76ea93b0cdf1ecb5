import { SESSION_EXPIRY_JOB } from '#shared/domain/checkout/session';
import type { CloseDeps } from '#shared/domain/checkout/sessions';
import type { DueDeps as PlanDueDeps } from '#shared/domain/installment-plans/due';
import { INSTALLMENT_PLAN_DUE_JOB } from '#shared/domain/installment-plans/plan';
import type { ExpiryStepDeps } from '#shared/domain/payment-methods/expiry-steps';
import { PAYMENT_METHOD_EXPIRY_JOB } from '#shared/domain/payment-methods/schedule';
import type { ScheduledJob } from '#shared/domain/ports';
import { SCHEDULED_CHARGE_DUE_JOB } from '#shared/domain/scheduled-charges/charge';
import type { DueDeps as ChargeDueDeps } from '#shared/domain/scheduled-charges/due';
import type { SubscriptionDeps } from '#shared/domain/subscriptions/deps';
import { SUBSCRIPTION_DUE_JOB } from '#shared/domain/subscriptions/subscription';
import { EXPIRY_JOB } from '#shared/domain/transactions/expiry-job';
import type { ExpirySweepDeps } from '#shared/domain/transactions/expiry-sweep';
import { logger } from '#shared/logger';
import type { Container as Deps } from '#shared/platform/container';
import { notificationDeps } from '#shared/platform/notification-deps';

// The jobs' use cases load when the first job runs, not at the jobs function's cold start
// (shared/job-use-cases.ts).
const useCases = () => import('#shared/job-use-cases');

export type JobHandler = (deps: Deps, job: ScheduledJob) => Promise<unknown>;

const expiryDeps = (deps: Deps): ExpirySweepDeps => ({
  transactions: deps.repos.transactions,
  clock: deps.clock,
  ids: deps.ids,
  payments: deps.payments,
  reporter: deps.reporter,
});

const cardExpiryDeps = (deps: Deps): ExpiryStepDeps => ({
  paymentMethods: deps.repos.paymentMethods,
  scheduler: deps.scheduler,
  clock: deps.clock,
  ids: deps.ids,
  reporter: deps.reporter,
});

const sessionDeps = (deps: Deps): CloseDeps => ({
  sessions: deps.repos.checkoutSessions,
  transactions: deps.repos.transactions,
  payments: deps.payments,
  clock: deps.clock,
  ids: deps.ids,
  // An expired session with a price cancels the subscriptions its unpaid pix started.
  subscriptions: deps.repos.subscriptions,
  atomically: deps.atomically,
  paymentMethods: deps.repos.paymentMethods,
  scheduler: deps.scheduler,
  reporter: deps.reporter,
});

const subscriptionDeps = (deps: Deps): SubscriptionDeps => ({
  subscriptions: deps.repos.subscriptions,
  atomically: deps.atomically,
  transactions: deps.repos.transactions,
  paymentMethods: deps.repos.paymentMethods,
  payments: deps.payments,
  scheduler: deps.scheduler,
  clock: deps.clock,
  ids: deps.ids,
  reporter: deps.reporter,
  // What the provider reports of a debit whose notification never came goes through the same
  // transition and follow-ups as that notification (functions/provider-connections).
  settleDebit: async (t, status) => {
    const u = await useCases();
    return u.receiveVerifiedNotification(
      notificationDeps(deps),
      u.notificationOfStatus(t, status, deps.clock.now()),
    );
  },
});

const scheduledChargeDeps = (deps: Deps): ChargeDueDeps => ({
  scheduledCharges: deps.repos.scheduledCharges,
  transactions: deps.repos.transactions,
  customers: deps.repos.customers,
  products: deps.repos.products,
  paymentMethods: deps.repos.paymentMethods,
  payments: deps.payments,
  scheduler: deps.scheduler,
  mailer: deps.mailer,
  clock: deps.clock,
  ids: deps.ids,
  baseUrl: deps.config.publicBaseUrl,
  reporter: deps.reporter,
});

const installmentPlanDeps = (deps: Deps): PlanDueDeps => ({
  installmentPlans: deps.repos.installmentPlans,
  transactions: deps.repos.transactions,
  customers: deps.repos.customers,
  products: deps.repos.products,
  affiliations: deps.repos.affiliations,
  payments: deps.payments,
  scheduler: deps.scheduler,
  mailer: deps.mailer,
  clock: deps.clock,
  ids: deps.ids,
  reporter: deps.reporter,
});

/**
 * Scheduled work, dispatched by name to its use cases with their narrow deps. Later issues add
 * due-date, expiry and issuance jobs here. The heartbeat also sweeps expiries a schedule missed.
 */
export const jobHandlers: Record<string, JobHandler> = {
  heartbeat: async (deps) => ({
    ...(await (await useCases()).recordHeartbeat({ health: deps.repos.health, clock: deps.clock })),
    sweep: await (await useCases()).sweepPixExpiries(expiryDeps(deps)),
    sessionSweep: await (await useCases()).sweepSessionExpiries(sessionDeps(deps)),
    cardExpirySweep: await (await useCases()).sweepExpirySteps(cardExpiryDeps(deps)),
    subscriptionSweep: await (await useCases()).sweepDueSubscriptions(subscriptionDeps(deps)),
    scheduledChargeSweep: await (await useCases()).sweepDueCharges(scheduledChargeDeps(deps)),
    installmentPlanSweep: await (await useCases()).sweepDuePlans(installmentPlanDeps(deps)),
  }),
  [EXPIRY_JOB]: async (deps, job) => (await useCases()).expirePix(expiryDeps(deps), job.id),
  [SESSION_EXPIRY_JOB]: async (deps, job) => (await useCases()).expireSessionJob(sessionDeps(deps), job.id),
  [PAYMENT_METHOD_EXPIRY_JOB]: async (deps, job) =>
    (await useCases()).runExpiryStep(cardExpiryDeps(deps), job.id),
  [SUBSCRIPTION_DUE_JOB]: async (deps, job) => (await useCases()).runDueJob(subscriptionDeps(deps), job.id),
  [SCHEDULED_CHARGE_DUE_JOB]: async (deps, job) =>
    (await useCases()).runChargeDueJob(scheduledChargeDeps(deps), job.id),
  [INSTALLMENT_PLAN_DUE_JOB]: async (deps, job) =>
    (await useCases()).runPlanDueJob(installmentPlanDeps(deps), job.id),
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
export async function runJob(deps: Deps, job: JobRun): Promise<unknown> {
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
