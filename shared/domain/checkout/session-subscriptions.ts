import type { Deps } from '#shared/domain/deps';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import type { PaymentMethodRepository, PriceRepository } from '#shared/domain/ports';
import { cancelSubscription } from '#shared/domain/subscriptions/actions';
import type { SubscriptionDeps } from '#shared/domain/subscriptions/deps';
import type { SubscriptionPrice } from '#shared/domain/subscriptions/price';
import { activateFromFirstPayment, startSubscription } from '#shared/domain/subscriptions/start';
import type { Subscription } from '#shared/domain/subscriptions/subscription';
import { onTestClock } from '#shared/domain/test-clocks/on-clock';
import type { ManageDeps } from '#shared/domain/transactions/manage';
import { PAID, type Transaction } from '#shared/domain/transactions/transaction';
import { ConflictError, isConflict } from '#shared/errors';
import { undoPayment } from './attempts';
import type { CheckoutSession } from './session';

/** What a session needs to start, activate or let go of the subscriptions of its payments. */
export type SessionSubscriptionDeps = SubscriptionDeps &
  Partial<Pick<Deps, 'testClocks' | 'clockScope'>> & {
    prices: Pick<PriceRepository, 'get'>;
    paymentMethods: Pick<PaymentMethodRepository, 'get' | 'listByCustomer'>;
  };

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

/** The buyer's side of a subscription: the customer's id and uuid, with the buyer's own data. */
export const subscriberOf = (c: Transaction['customer']) => ({
  id: c.id,
  uuid: c.uuid,
  name: c.name,
  email: c.email,
  document: c.document,
});

/** What the caller of startFirstPeriod already holds; what it lacks is read. */
export interface FirstPeriodKnown {
  price?: SubscriptionPrice;
  /** The card the approved first payment kept (saveCard); null when it could not be kept. */
  card?: PaymentMethod | null;
}

/**
 * The subscription a session's first payment starts (the page's path, and a sale recorded by its
 * attempt's reconciler or by a retry, through the follow-ups): a card's approved payment starts it
 * active on the card the payment kept, a Pix Automático first pix starts it `pending` until that
 * pix is paid (a pix already paid starts it active). Its id was fixed with the sale
 * (`recurring.subscriptionId`), so a second run answers the subscription the first one started.
 * A declined payment, or a sale of no session price, starts nothing.
 */
export async function startFirstPeriod(
  deps: SessionSubscriptionDeps,
  t: Transaction,
  session: CheckoutSession | null,
  known: FirstPeriodKnown = {},
): Promise<Subscription | null> {
  const recurring = firstSessionPayment(t);
  const started = PAID.includes(t.status) || t.status === 'pendingPix';
  if (!recurring || !started || !session?.price || session.id !== t.checkoutSessionId) return null;
  const card = recurring.method === 'card';
  // The page's path knows both and must not pay a read for them; a late recording reads them.
  const existing = known.price ? null : await deps.subscriptions.get(t.tenant, recurring.subscriptionId);
  if (existing) return existing;
  const price = known.price ?? (await deps.prices.get(t.tenant, session.price.id));
  if (!price) throw new Error(`the price ${session.price.id} of session ${session.id} is gone`);
  const kept = card ? (known.card === undefined ? await keptCardOf(deps, t) : known.card) : null;
  if (card && !kept) throw new Error('the approved card could not be kept for the renewals');
  try {
    // A sandbox buyer on a test clock: the card the payment kept is on the clock, and so is the
    // subscription (docs/decisions.md, "Test clocks per sandbox seller").
    return await onTestClock(deps, t.tenant, kept?.testClockId, () =>
      startSubscription(deps, {
        tenant: t.tenant,
        id: recurring.subscriptionId,
        price,
        customer: subscriberOf(t.customer),
        collectionMethod: card ? 'card' : 'pix_automatic',
        paymentMethod: kept,
        pixAuthorizationId: t.pix?.authorizationId ?? null,
        checkoutSessionId: session.id,
        metadata: session.metadata,
        trial: false,
        firstPayment: t,
      }),
    );
  } catch (error) {
    // Another run (the reconciler, a retry, a notification) started it first.
    const other = isConflict(error) ? await deps.subscriptions.get(t.tenant, recurring.subscriptionId) : null;
    if (!other) throw error;
    return other;
  }
}

/** The card an approved first payment kept: the customer's newest method of that card at its provider. */
async function keptCardOf(deps: SessionSubscriptionDeps, t: Transaction): Promise<PaymentMethod | null> {
  if (!t.card) return null;
  const { brand, last4 } = t.card;
  const methods = await deps.paymentMethods.listByCustomer(t.tenant, t.customer.uuid);
  return (
    methods.find(
      (m) => m.provider === t.provider && m.brand === brand && m.last4 === last4 && m.status !== 'expired',
    ) ?? null
  );
}

/**
 * A session's first payment was confirmed, after the session was given the chance to complete with
 * it. The payment that completed its session activates its subscription (idempotent: a repeated
 * notification answers the active subscription; a card's started active). One whose session
 * completed with another payment started a subscription the buyer does not get: the money is
 * returned and that subscription canceled, so a session never leaves two subscriptions.
 */
export async function settleFirstPayment(
  deps: SessionSubscriptionDeps & ManageDeps,
  t: Transaction,
  session: CheckoutSession | null,
) {
  const recurring = firstSessionPayment(t);
  if (!recurring || !PAID.includes(t.status)) return null;
  if (session?.transactionId === t.id)
    return recurring.method === 'pix_automatic'
      ? activateFromFirstPayment(deps, t.tenant, recurring.subscriptionId, t)
      : null;
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
