import { NOTHING_DUE, runDue, SWEEP_HOURS_BACK, sweepDue } from '#shared/domain/due-schedule';
import type { ChargeStatus } from '#shared/domain/payments/gateway';
import { AWAITED_DEBIT_RECHECK_MS, type CollectKind, type CollectOutcome, collect } from './collect';
import type { SubscriptionDeps } from './deps';
import { nextBoundary, periodEnd } from './periods';
import { dueJobId, parseDueJobId, saveAndSchedule } from './schedule';
import { type NewHistoryEntry, SUBSCRIPTION_DUE_JOB, type Subscription } from './subscription';

export { SWEEP_HOURS_BACK };

export type DueOutcome =
  | { outcome: CollectOutcome; kind: CollectKind }
  /** A cancellation at period end took effect. */
  | { outcome: 'expired' }
  /** Collection is paused: the period moved on, nothing was charged. */
  | { outcome: 'skipped_paused' }
  /** An awaited Pix Automático debit: the provider's answer was applied as its notification would be. */
  | { outcome: 'debit_settled'; status: 'paid' | 'failed' | 'canceled' }
  /** An awaited Pix Automático debit still pending at the provider (or not answered): asked again later. */
  | { outcome: 'debit_awaited' }
  /** Nothing was due: not yet, already done by another run, or the subscription is gone or over. */
  | { outcome: 'nothing_due' };

const isDue = (s: Subscription, now: Date) =>
  (s.status === 'active' || s.status === 'pending_cancellation') &&
  s.dueAt !== null &&
  Date.parse(s.dueAt) <= now.getTime();

/** Which charge a due subscription makes: a retry while a cycle has failed attempts, a trial's end, or a renewal. */
function kindOf(s: Subscription): CollectKind {
  if (s.failedPaymentCount > 0) return 'retry';
  const trialEnding =
    s.billingCycle === 0 &&
    s.trialEndsAt !== null &&
    Date.parse(s.currentPeriodEnd) === Date.parse(s.trialEndsAt);
  return trialEnding ? 'trial_end' : 'renewal';
}

/** The period-end cancellation: `canceled`, history `subscription.expired`; the webhook went out at the request. */
async function expire(deps: SubscriptionDeps, s: Subscription, now: Date): Promise<DueOutcome> {
  const at = now.toISOString();
  const next: Subscription = {
    ...s,
    status: 'canceled',
    cancelledAt: s.cancelledAt ?? s.cancelAt,
    nextPaymentAt: null,
    dueAt: null,
    pendingCharge: null,
    updatedAt: at,
    version: s.version + 1,
  };
  const history: NewHistoryEntry[] = [
    { eventType: 'subscription.expired', eventData: { cancelAt: s.cancelAt, reason: s.cancelReason } },
  ];
  await saveAndSchedule(deps, next, s, { events: [], history });
  return { outcome: 'expired' };
}

/**
 * Paused collection (Stripe's pause_collection `void`): the periods go on without a charge. The
 * period moves to the one containing now (every period passed while paused is skipped at once);
 * a cycle whose retries were under way is voided with it. A trial that ends while paused ends
 * unconverted, without a webhook. No transaction, no webhook.
 */
async function skipPaused(deps: SubscriptionDeps, s: Subscription, now: Date): Promise<DueOutcome> {
  const at = now.toISOString();
  const { billingInterval: interval, intervalCount: count } = s.price;
  const { n, at: end } = nextBoundary(s.billingAnchor, interval, count, at);
  const next: Subscription = {
    ...s,
    currentPeriodStart: periodEnd(s.billingAnchor, interval, count, n - 1),
    currentPeriodEnd: end,
    nextPaymentAt: s.nextPaymentAt === null ? null : end,
    dueAt: end,
    failedPaymentCount: 0,
    updatedAt: at,
    version: s.version + 1,
  };
  const history: NewHistoryEntry[] =
    kindOf(s) === 'trial_end'
      ? [
          {
            eventType: 'trial_ended',
            eventData: { trialEndsAt: s.trialEndsAt, converted: false, paused: true },
          },
        ]
      : [];
  await saveAndSchedule(deps, next, s, { events: [], history });
  return { outcome: 'skipped_paused' };
}

/**
 * The `subscription-due` job: re-reads the subscription and does what is due at `dueAt`, if it
 * is by now: the period-end cancellation, a paused period's skip, or a charge (renewal, retry,
 * trial end). A charge already claimed is finished first (the provider may have taken the money).
 * Firing twice changes nothing the second time: the first run moved `dueAt` on, or the second
 * loses the version race and stops.
 */
export async function runDueJob(deps: SubscriptionDeps, jobId: string): Promise<DueOutcome> {
  const ref = parseDueJobId(jobId);
  if (!ref) throw new Error(`not a subscription job id: ${jobId}`);
  return runDue(
    deps,
    () => deps.subscriptions.get(ref.tenant, ref.id),
    async (s): Promise<DueOutcome> => {
      const now = deps.clock.now();
      const awaited = await checkAwaitedDebit(deps, s, now);
      if (awaited) return awaited;
      if (!isDue(s, now)) return NOTHING_DUE;
      if (!s.pendingCharge) {
        if (s.status === 'pending_cancellation' && s.cancelAt && Date.parse(s.cancelAt) <= now.getTime())
          return expire(deps, s, now);
        if (s.pausedAt) return skipPaused(deps, s, now);
      }
      const kind = kindOf(s);
      const { outcome } = await collect(deps, s, kind);
      return { outcome, kind };
    },
  );
}

/**
 * The backstop of a lost notification: a claimed charge whose transaction is a Pix Automático debit
 * still waiting (`pendingPix`) when its check time came. The provider's answer is applied through
 * `settleDebit`, as the notification would have been; still pending, unknown or unreachable, the
 * subscription is asked about again a day later. Null: not such a charge (the usual path runs).
 */
async function checkAwaitedDebit(
  deps: SubscriptionDeps,
  s: Subscription,
  now: Date,
): Promise<DueOutcome | null> {
  const pc = s.pendingCharge;
  if (!pc || s.dueAt === null || Date.parse(s.dueAt) > now.getTime()) return null;
  const t = await deps.transactions.get(s.tenant, pc.transactionId);
  if (!t || t.status !== 'pendingPix' || t.recurring?.method !== 'pix_automatic') return null;
  let status: ChargeStatus | null = null;
  try {
    status = await deps.payments.forEnvironment(s.tenant.environment).status(t.gatewayPayId);
  } catch (error) {
    deps.reporter.error('could not ask the provider about a debit', error, { id: dueJobId(s.tenant, s.id) });
  }
  if (deps.settleDebit && (status === 'paid' || status === 'failed' || status === 'canceled')) {
    await deps.settleDebit(t, status);
    return { outcome: 'debit_settled', status };
  }
  const next: Subscription = {
    ...s,
    dueAt: new Date(now.getTime() + AWAITED_DEBIT_RECHECK_MS).toISOString(),
    updatedAt: now.toISOString(),
    version: s.version + 1,
  };
  await saveAndSchedule(deps, next, s, { events: [], history: [] });
  return { outcome: 'debit_awaited' };
}

/** The heartbeat's backstop of the one-time schedules: every subscription due by now, found by the index. */
export async function sweepDueSubscriptions(deps: SubscriptionDeps): Promise<{ due: number; ran: number }> {
  const due = await deps.subscriptions.dueSubscriptions(deps.clock.now(), SWEEP_HOURS_BACK);
  return sweepDue(deps, SUBSCRIPTION_DUE_JOB, due, (jobId) => runDueJob(deps, jobId));
}
