import { cancelSubscription } from '#shared/domain/subscriptions/actions';
import type { SubscriptionDeps } from '#shared/domain/subscriptions/deps';
import { activateFromFirstPayment } from '#shared/domain/subscriptions/start';
import type { Subscription } from '#shared/domain/subscriptions/subscription';
import type { ManageDeps } from '#shared/domain/transactions/manage';
import { PAID, type Transaction } from '#shared/domain/transactions/transaction';
import { ConflictError } from '#shared/errors';
import { undoPayment } from './attempts';
import type { CheckoutSession } from './session';

/** What a session needs to start, activate or let go of the subscriptions of its payments. */
export type SessionSubscriptionDeps = SubscriptionDeps;

/**
 * Cancels now a subscription its checkout session did not keep (the session closed without its
 * payment, or completed with another one). One already canceled is left as it is.
 */
export async function dropSubscription(
  deps: SessionSubscriptionDeps,
  subscription: Pick<Subscription, 'tenant' | 'id'>,
  reason: string,
) {
  try {
    await cancelSubscription(deps, subscription.tenant, subscription.id, {
      atPeriodEnd: false,
      reason,
      by: 'seller',
    });
  } catch (error) {
    if (!(error instanceof ConflictError) || error.code !== 'invalid_transition') throw error;
  }
}

/** The first payment of a subscription a checkout session started (the only kind a session makes). */
const firstSessionPayment = (t: Transaction) =>
  t.recurring && t.recurring.billingCycle === 1 && t.checkoutSessionId ? t.recurring : null;

/**
 * A Pix Automático first payment was confirmed (the provider's notification), after the session was
 * given the chance to complete with it. The payment that completed its session activates its
 * subscription (idempotent: a repeated notification answers the active subscription). One whose
 * session completed with another payment started a subscription the buyer does not get: the money
 * is returned and that subscription canceled, so a session never leaves two subscriptions.
 */
export async function settleFirstPixPayment(
  deps: SessionSubscriptionDeps & ManageDeps,
  t: Transaction,
  session: CheckoutSession | null,
) {
  const recurring = firstSessionPayment(t);
  if (!recurring || recurring.method !== 'pix_automatic' || !PAID.includes(t.status)) return null;
  if (session?.transactionId === t.id)
    return activateFromFirstPayment(deps, t.tenant, recurring.subscriptionId, t);
  if (session && session.status !== 'open') {
    await dropSubscription(
      deps,
      { tenant: t.tenant, id: recurring.subscriptionId },
      'the checkout session was completed by another payment',
    );
    await undoPayment(deps, t, 'the checkout session was completed by another payment');
  }
  return null;
}

/**
 * The subscriptions still waiting for a payment of a session that closed without it (an expired
 * session's pix, the other pix of a session a card completed): canceled, since nothing will ever
 * activate them. A subscription that is not `pending` any more is left alone.
 */
export async function dropWaitingSubscriptions(
  deps: SessionSubscriptionDeps,
  session: CheckoutSession,
  transactions: Transaction[],
) {
  for (const t of transactions) {
    const recurring = firstSessionPayment(t);
    if (!recurring || t.id === session.transactionId) continue;
    const s = await deps.subscriptions.get(t.tenant, recurring.subscriptionId);
    if (s?.status === 'pending')
      await dropSubscription(
        deps,
        s,
        session.status === 'expired'
          ? 'the checkout session expired before the payment'
          : 'the checkout session was completed by another payment',
      );
  }
}
