import { saoPauloDate } from '#shared/dates';
import type { Deps } from '#shared/domain/deps';
import { newEvent } from '#shared/domain/events/events';
import type { PaidWith } from '#shared/domain/payments/gateway';
import { canApplyTo, RULES, refusal, type Trigger } from './state-machine';
import { collectedOf, paymentSucceededData, type Refund, type Transaction, toEventData } from './transaction';

export type TransitionDeps = Pick<Deps, 'transactions' | 'clock' | 'ids'>;

export interface TransitionDetails {
  failureCode?: string;
  failureReason?: string;
  refund?: Refund;
  notification?: { provider: string; id: string };
  /** Centavos the provider reports as cleared (pay only): kept when it differs from the face value. */
  paidAmount?: number;
  /** How the provider says a pix or boleto was paid (pay only): a hybrid boleto's pix. */
  paidWith?: PaidWith;
}

/** The transaction after a trigger, before it is saved. */
export function applyTrigger(
  t: Transaction,
  trigger: Trigger,
  at: string,
  details: TransitionDetails = {},
): Transaction {
  const refunded = t.refundedAmount + (details.refund?.amount ?? 0);
  const full = trigger === 'refund' && refunded >= t.value;
  const next: Transaction = {
    ...t,
    status: RULES[trigger].to(t, full),
    updatedAt: at,
    version: t.version + 1,
  };
  if (trigger === 'pay') next.paidAt = at;
  if (trigger === 'pay' && details.paidAmount !== undefined && details.paidAmount !== t.value)
    next.paidAmount = details.paidAmount;
  if (trigger === 'pay' && t.paymentMethod !== 'creditcard') {
    const collected = collectedOf(t, details.paidAmount ?? t.value, saoPauloDate(new Date(at)));
    if (collected) next.collected = collected;
    if (details.paidWith) next.paidWith = details.paidWith;
  }
  if (trigger === 'cancel' || trigger === 'expire') next.canceledAt = at;
  if (trigger === 'fail') {
    next.failureCode = details.failureCode ?? 'payment_failed';
    next.failureReason = details.failureReason ?? 'The payment was not completed';
  }
  if (trigger === 'chargeback') {
    next.failureCode = 'chargeback';
    next.chargeback = { status: 'open', openedAt: at, closedAt: null };
  }
  if (trigger === 'chargeback_reversal') {
    // The sale is paid again: the chargeback's failure goes, its record stays (won, with both dates).
    next.failureCode = null;
    next.failureReason = null;
    next.chargeback = { status: 'won', openedAt: t.chargeback?.openedAt ?? t.updatedAt, closedAt: at };
  }
  if (details.refund) {
    next.refunds = [...t.refunds, details.refund];
    next.refundedAmount = refunded;
  }
  return next;
}

function eventsFor(deps: TransitionDeps, trigger: Trigger, next: Transaction) {
  return RULES[trigger].events(next, next.status === 'reversed').map((name) => {
    if (name === 'transaction.payment.succeeded')
      return newEvent(deps, next.tenant, name, paymentSucceededData(next));
    if (name === 'transaction.payment.failed' || name === 'transaction.failed') {
      return newEvent(deps, next.tenant, name, {
        ...toEventData(next),
        failureCode: next.failureCode as string,
      });
    }
    return newEvent(deps, next.tenant, name, toEventData(next));
  });
}

/**
 * Applies a trigger with an optimistic write (version check) in one transaction with its events.
 * Refused triggers throw (see refusal); a concurrent change is the repository's 409
 * concurrent_update, which the caller may retry; a repeated provider notification is its
 * ConflictError of reason `already_exists`.
 */
export async function transition(
  deps: TransitionDeps,
  t: Transaction,
  trigger: Trigger,
  details: TransitionDetails = {},
): Promise<{ transaction: Transaction }> {
  if (!canApplyTo(trigger, t)) throw refusal(trigger, t);
  const next = applyTrigger(t, trigger, deps.clock.now().toISOString(), details);
  await deps.transactions.save(next, t, eventsFor(deps, trigger, next), details.notification);
  return { transaction: next };
}
