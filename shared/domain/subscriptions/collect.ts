import type { EventsOf, TrialEvent } from '#shared/domain/events/events';
import {
  MAX_ATTEMPTS,
  nextRetryAt as retryAt,
  savedCardIdempotencyKey,
} from '#shared/domain/payments/saved-card';
import type { SubscriptionChanges } from '#shared/domain/ports';
import { PAID, type Transaction } from '#shared/domain/transactions/transaction';
import { isConflict } from '#shared/errors';
import { centavosToReais } from '#shared/money';
import { type Charged, type CollectOutcome, charge, transactionEvents } from './charge';
import { type SubscriptionDeps, subscriptionEvent } from './deps';
import { nextBoundary, periodEnd } from './periods';
import { type ChargeRecord, saveAndSchedule } from './schedule';
import type { NewHistoryEntry, PendingCharge, Subscription } from './subscription';

export type { CollectOutcome } from './charge';

/** Why a charge is made: a subscription's first payment, its renewal, a retry, a trial's end, a reactivation. */
export type CollectKind = 'first' | 'renewal' | 'retry' | 'trial_end' | 'reactivation';

export interface CollectResult {
  subscription: Subscription;
  /** The charge's transaction; null when nothing reached the provider (an expired card) or the charge was abandoned. */
  transaction: Transaction | null;
  outcome: CollectOutcome;
}

/** The retry policy is the saved-card module's, shared with scheduled charges. */
export { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '#shared/domain/payments/saved-card';

/** Statuses in which an in-flight charge is still the subscription's (not abandoned by a cancel). */
/**
 * A Pix Automático debit a live provider answered pending is taken on its due date (5 days after
 * the request, Asaas); its notification settles the renewal. Two days after that date without one,
 * the due job asks the provider (the backstop of a lost notification), then once a day.
 */
export const AWAITED_DEBIT_CHECK_MS = 7 * 86_400_000;
export const AWAITED_DEBIT_RECHECK_MS = 86_400_000;

const CHARGEABLE: readonly Subscription['status'][] = ['pending', 'active', 'pending_cancellation'];

/**
 * Claims the charge before calling the provider (a conditional write): a second run of the same
 * job finds the claim and repeats the call with the same transaction id and idempotency key, so
 * the provider charges once. The transaction id in the key makes every claim's key new, so a cycle
 * charged again (after a pause voided it, or a reactivation) never gets an older attempt's answer.
 */
async function claim(deps: SubscriptionDeps, s: Subscription): Promise<Subscription> {
  if (s.pendingCharge && CHARGEABLE.includes(s.status)) return s;
  const next: Subscription = { ...s, pendingCharge: await nextCharge(deps, s), version: s.version + 1 };
  await deps.subscriptions.save(next, s, { events: [], history: [] });
  return next;
}

/** The next charge of `s`: its cycle and attempt, a transaction id from the sequence, the provider's key. */
export async function nextCharge(deps: SubscriptionDeps, s: Subscription): Promise<PendingCharge> {
  const cycle = s.billingCycle + 1;
  const attempt = s.failedPaymentCount + 1;
  const transactionId = await deps.transactions.nextId();
  return {
    cycle,
    attempt,
    transactionId,
    idempotencyKey: savedCardIdempotencyKey(`sub_${s.uuid}`, cycle, attempt, transactionId),
    claimedAt: deps.clock.now().toISOString(),
  };
}

/** The state after a paid charge. A renewal keeps the anchor's schedule; a first payment or a reactivation starts one. */
function paidState(s: Subscription, kind: CollectKind, pc: PendingCharge, at: string): Subscription {
  const { billingInterval: interval, intervalCount: count } = s.price;
  const paid = { billingCycle: pc.cycle, lastPaymentAt: at, failedPaymentCount: 0 };
  if (kind === 'first' || kind === 'reactivation') {
    const end = periodEnd(at, interval, count, 1);
    return {
      ...s,
      ...paid,
      status: 'active',
      billingAnchor: at,
      currentPeriodStart: at,
      currentPeriodEnd: end,
      nextPaymentAt: end,
      dueAt: end,
      ...(kind === 'reactivation'
        ? { cancelAt: null, cancelledAt: null, cancelAtPeriodEnd: false, cancelReason: null, pausedAt: null }
        : {}),
    };
  }
  const end = nextBoundary(s.billingAnchor, interval, count, s.currentPeriodEnd).at;
  return {
    ...s,
    ...paid,
    currentPeriodStart: s.currentPeriodEnd,
    currentPeriodEnd: end,
    nextPaymentAt: end,
    dueAt: end,
    // A cancellation at period end set while this charge was in flight ends the period just paid.
    ...(s.status === 'pending_cancellation' ? { cancelAt: end } : {}),
  };
}

/** The state after a failed charge: the next retry, or `failed` after the cycle's last attempt. */
function failedState(s: Subscription, kind: CollectKind, outcome: 'declined' | 'error', now: Date) {
  if (kind === 'reactivation') return { next: s, nextRetryAt: null };
  const failedPaymentCount = s.failedPaymentCount + 1;
  if (kind === 'first' || failedPaymentCount >= MAX_ATTEMPTS) {
    const next: Subscription = {
      ...s,
      status: 'failed',
      failedPaymentCount,
      nextPaymentAt: null,
      dueAt: null,
    };
    return { next, nextRetryAt: null };
  }
  const nextRetryAt = retryAt(outcome, failedPaymentCount, now) as string;
  const next: Subscription = { ...s, failedPaymentCount, nextPaymentAt: nextRetryAt, dueAt: nextRetryAt };
  return { next, nextRetryAt };
}

/** The subscription after the charge's outcome, with its history and webhooks, and the charge's transaction: written together. */
export function applyOutcome(
  deps: SubscriptionDeps,
  s: Subscription,
  kind: CollectKind,
  charged: Charged,
  now: Date,
): { next: Subscription; changes: SubscriptionChanges; charge?: ChargeRecord } {
  const at = now.toISOString();
  const pc = s.pendingCharge as PendingCharge;
  const base: Subscription = { ...s, pendingCharge: null, updatedAt: at, version: s.version + 1 };
  const payment = {
    amount: centavosToReais(s.price.unitAmount),
    transactionId: (charged.transaction ?? charged.settled)?.id ?? null,
  };
  const history: NewHistoryEntry[] = [];
  const webhooks: (EventsOf<'subscription'> | TrialEvent)[] = [];
  let next: Subscription;
  if (charged.outcome === 'pending') {
    // The claim stays: the debit's notification finishes this charge. If none has by the time the
    // debit should have settled, the due job asks the provider (runDueJob, awaited debits).
    const checkAt = new Date(now.getTime() + AWAITED_DEBIT_CHECK_MS).toISOString();
    next = { ...base, pendingCharge: pc, nextPaymentAt: null, dueAt: checkAt };
  } else if (charged.outcome === 'paid') {
    next = paidState(base, kind, pc, at);
    if (kind === 'trial_end') {
      history.push({ eventType: 'trial_ended', eventData: { trialEndsAt: s.trialEndsAt, converted: true } });
      webhooks.push('customer.trial_converted');
    }
    if (kind === 'first' || kind === 'reactivation') {
      history.push({
        eventType: 'subscription.activated',
        eventData: kind === 'reactivation' ? { reactivated: true } : {},
      });
      webhooks.push('subscription.activated');
    }
    history.push({
      eventType: 'payment_success',
      eventData: { ...payment, paidAt: at, billingCycle: next.billingCycle },
    });
    if ((kind === 'renewal' || kind === 'retry') && next.billingCycle >= 2)
      webhooks.push('subscription.renewed');
  } else {
    const failed = failedState(base, kind, charged.outcome, now);
    next = failed.next;
    if (kind === 'trial_end') {
      history.push({ eventType: 'trial_ended', eventData: { trialEndsAt: s.trialEndsAt, converted: false } });
      webhooks.push('customer.trial_lapsed');
    }
    history.push({
      eventType: 'payment_failed',
      eventData: {
        ...payment,
        failureCode: charged.failureCode,
        failureReason: charged.failureReason,
        attempt: pc.attempt,
        nextRetryAt: failed.nextRetryAt,
      },
    });
  }
  const transaction = charged.transaction;
  return {
    next,
    changes: { events: webhooks.map((name) => subscriptionEvent(deps, next, name)), history },
    ...(transaction ? { charge: { record: transaction, events: transactionEvents(deps, transaction) } } : {}),
  };
}

/** Another write since the claim (a seller's change) is applied on the fresh state, a few times at most. */
const FINISH_TRIES = 3;

/**
 * Writes the outcome with the subscription (one save on the version read) and schedules what is
 * due next. When the subscription changed meanwhile: a fresh state that still holds this claim gets
 * the outcome again; one that no longer does was finished by a concurrent run (the transaction is
 * stored) or abandoned (cancelled now): an approved charge nobody recorded is refunded, as a sale
 * whose final write failed is.
 */
async function finish(
  deps: SubscriptionDeps,
  claimed: Subscription,
  kind: CollectKind,
  charged: Charged,
): Promise<CollectResult> {
  const pc = claimed.pendingCharge as PendingCharge;
  const now = deps.clock.now();
  let current = claimed;
  for (let tries = 1; ; tries++) {
    const { next, changes, charge } = applyOutcome(deps, current, kind, charged, now);
    try {
      const subscription = await saveAndSchedule(deps, next, current, changes, { charge });
      return { subscription, transaction: charged.transaction, outcome: charged.outcome };
    } catch (error) {
      if (!isConflict(error, 'changed')) throw error;
      const fresh = await deps.subscriptions.get(claimed.tenant, claimed.id);
      const stillOurs =
        fresh?.pendingCharge?.idempotencyKey === pc.idempotencyKey && CHARGEABLE.includes(fresh.status);
      if (fresh && stillOurs) {
        if (tries >= FINISH_TRIES) throw error;
        current = fresh;
        continue;
      }
      const recorded = await deps.transactions.get(claimed.tenant, pc.transactionId);
      if (!recorded && charged.outcome === 'paid' && charged.transaction) {
        const provider = deps.payments.forEnvironment(claimed.tenant.environment);
        await provider
          .refund(charged.transaction.gatewayPayId, charged.transaction.value)
          .catch(() => undefined);
      }
      return { subscription: fresh ?? current, transaction: recorded, outcome: charged.outcome };
    }
  }
}

/**
 * A renewal's Pix Automático debit that the provider answered pending was settled by its
 * notification (the transaction paid, or failed): the subscription's claimed charge gets that
 * outcome, as if the provider had answered it at once (new period and subscription.renewed, or the
 * retry schedule). Anything else (a first payment, a card, a charge already finished) is left alone.
 */
export async function settleAwaitedCharge(
  deps: SubscriptionDeps,
  t: Transaction,
): Promise<CollectResult | null> {
  const recurring = t.recurring;
  if (!recurring || recurring.method !== 'pix_automatic' || recurring.billingCycle < 2) return null;
  const paid = PAID.includes(t.status);
  if (!paid && t.status !== 'denied' && t.status !== 'cancel') return null;
  const s = await deps.subscriptions.get(t.tenant, recurring.subscriptionId);
  const pc = s?.pendingCharge;
  if (!s || !pc || pc.transactionId !== t.id) return null;
  // A canceled or failed subscription with a claimed charge was being reactivated.
  const kind: CollectKind | null = CHARGEABLE.includes(s.status)
    ? pc.attempt > 1
      ? 'retry'
      : 'renewal'
    : s.status === 'canceled' || s.status === 'failed'
      ? 'reactivation'
      : null;
  if (!kind) return null;
  const charged: Charged = paid
    ? { outcome: 'paid', transaction: null, failureCode: null, failureReason: null, settled: t }
    : {
        outcome: 'declined',
        transaction: null,
        failureCode: t.failureCode ?? 'payment_failed',
        failureReason: t.failureReason ?? 'The Pix Automático debit did not happen.',
        settled: t,
      };
  return finish(deps, s, kind, charged);
}

/**
 * Charges one cycle of the subscription (read just before) and writes everything the outcome
 * changes in one save: the transaction and its events, the subscription's new period or its next
 * retry (or `failed`), the history and the subscription webhooks; then schedules the next due
 * time. A ConflictError (reason `changed`) from the claim means another run got there first.
 */
export async function collect(
  deps: SubscriptionDeps,
  subscription: Subscription,
  kind: CollectKind,
): Promise<CollectResult> {
  const claimed = await claim(deps, subscription);
  const charged = await charge(deps, claimed, claimed.pendingCharge as PendingCharge);
  return finish(deps, claimed, kind, charged);
}
