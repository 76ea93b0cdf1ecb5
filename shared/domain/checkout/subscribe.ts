import { recordBuyer } from '#shared/domain/customers/buyer';
import type { PaymentMethodView } from '#shared/domain/payment-methods/payment-method';
import { saveCard } from '#shared/domain/payment-methods/save-card';
import type { SubscriptionPrice } from '#shared/domain/subscriptions/price';
import { startSubscription } from '#shared/domain/subscriptions/start';
import type { Subscription } from '#shared/domain/subscriptions/subscription';
import { onTestClock } from '#shared/domain/test-clocks/on-clock';
import { buyerIpOf, holderContactOf } from '#shared/domain/transactions/card-holder';
import {
  type CreateDeps,
  type CreateTransactionInput,
  checkSale,
  createSaleKeepingCard,
  type SaleContext,
} from '#shared/domain/transactions/create';
import { PAID, type Transaction } from '#shared/domain/transactions/transaction';
import { ConflictError, ValidationError } from '#shared/errors';
import { sessionAfterSale, undoPayment } from './attempts';
import { notOpen, outcomeOf, type PaymentOutcome, refusedCardOutcome, trialOutcome } from './outcome';
import type { CheckoutSession } from './session';
import {
  dropSubscription,
  type SessionSubscriptionDeps,
  startFirstPeriod,
  subscriberOf,
} from './session-subscriptions';
import { type CloseDeps, completeWithSubscription, completeWithTransaction } from './sessions';

export type SubscribeDeps = CreateDeps & CloseDeps & SessionSubscriptionDeps;

export const PRICE_NO_LONGER_OFFERED = 'This subscription price is no longer offered';

/**
 * What the buyer's bank shows of a Pix Automático consent. Its ceiling is the price itself: a
 * subscription renews at the amount it started with, so no debit ever needs more (a new price
 * means a new subscription, and a new consent).
 */
const consentOf = (price: SubscriptionPrice) => ({
  maxAmountCentavos: price.unitAmount,
  description: `${price.product.name} - ${price.name}`.slice(0, 140),
  every: { interval: price.billingInterval, count: price.intervalCount },
});

/**
 * A session with a subscription price is paid: a trial keeps the card and starts the trial; a card
 * pays the first period and the subscription starts active on the kept card; pix pays the first
 * period with a Pix Automático consent and the subscription waits `pending` until that pix is paid.
 * A session starts at most one subscription: a payment that loses the session to another one is
 * undone together with the subscription it started.
 */
export async function paySubscription(
  deps: SubscribeDeps,
  session: CheckoutSession,
  request: CreateTransactionInput,
  context: SaleContext,
): Promise<PaymentOutcome> {
  if ((request.installments ?? 1) !== 1)
    throw new ValidationError(['installments must be 1: a subscription is charged in a single installment']);
  const listed = session.price;
  const price = listed ? await deps.prices.get(session.tenant, listed.id) : null;
  if (!price?.isActive) throw new ConflictError(PRICE_NO_LONGER_OFFERED, 'checkout_not_open');
  const charged = { ...context, amountCentavos: price.unitAmount };
  if (request.paymentMethod === 'creditcard' && price.trialDays > 0)
    return startTrial(deps, session, price, request, charged);
  return payFirstPeriod(deps, session, price, request, charged);
}

/** No charge: the card is verified and kept (the provider's tokenizer), and the trial starts. */
async function startTrial(
  deps: SubscribeDeps,
  session: CheckoutSession,
  price: SubscriptionPrice,
  request: CreateTransactionInput,
  context: SaleContext,
): Promise<PaymentOutcome> {
  const { input, buyer, buyerState, product, provider, now } = await checkSale(deps, request, context);
  const tenant = product.tenant;
  const at = now.toISOString();
  const { customer } = await recordBuyer(deps, tenant, buyer, buyerState, at, async () => undefined);
  const tokenized = await provider.tokenizeCard({
    tenant,
    customer: {
      name: customer.name,
      document: customer.document,
      email: customer.email,
      ...holderContactOf(buyer),
      ...buyerIpOf(deps),
    },
    // checkSale refuses a card payment without its card.
    card: input.card as NonNullable<typeof input.card>,
  });
  if (tokenized.outcome === 'declined') return refusedCardOutcome(tokenized.failureCode);
  const kept = await saveCard(deps, {
    tenant,
    customer: { id: customer.id, uuid: customer.uuid },
    provider: provider.provider,
    savedCard: tokenized.savedCard,
  });
  const paymentMethod = await paymentMethodOf(deps, tenant, kept);
  // A sandbox buyer on a test clock: the kept card is on the clock, and so is the subscription.
  const subscription = await onTestClock(deps, tenant, paymentMethod.testClockId, () =>
    startSubscription(deps, {
      tenant,
      price,
      customer: subscriberOf(customer),
      collectionMethod: 'card',
      paymentMethod,
      checkoutSessionId: session.id,
      metadata: session.metadata,
      trial: true,
    }),
  );
  const closed = await completeWithSubscription(deps, session, subscription);
  if (closed.subscriptionId !== subscription.id) {
    await dropSubscription(deps, subscription, 'the checkout session closed before the trial started');
    throw notOpen(closed.status === 'complete' ? 'complete' : 'expired');
  }
  return trialOutcome(closed, subscription, { brand: kept.brand, last4: kept.last4 });
}

/**
 * The first period is charged now: by card (kept for the renewals) or by pix with a recurring
 * consent. The payment is recorded on the session in the sale's own write, so a sale its attempt's
 * reconciler records carries it too; the subscription starts as the follow-ups start it
 * (startFirstPeriod), with the id the sale was written with.
 */
async function payFirstPeriod(
  deps: SubscribeDeps,
  session: CheckoutSession,
  price: SubscriptionPrice,
  request: CreateTransactionInput,
  context: SaleContext,
): Promise<PaymentOutcome> {
  const card = request.paymentMethod === 'creditcard';
  const method = card ? 'card' : 'pix';
  const subscriptionId = await deps.subscriptions.nextId();
  const sale = await createSaleKeepingCard(deps, request, {
    ...context,
    recordOnSession: method,
    recurring: { subscriptionId, billingCycle: 1, method: card ? 'card' : 'pix_automatic' },
    forceSaveCard: card,
    recurringConsent: card ? undefined : consentOf(price),
  });
  const t = sale.transaction;
  const recorded = await sessionAfterSale(deps, session, sale, method);
  if (card && !PAID.includes(t.status)) return outcomeOf(t, recorded);
  let subscription: Subscription | null;
  try {
    // A retry of a sale already written keeps nothing new: the card is the one its first run kept.
    const kept = sale.paymentMethod ? await paymentMethodOf(deps, t.tenant, sale.paymentMethod) : undefined;
    subscription = await startFirstPeriod(deps, t, recorded, { price, card: kept });
    if (!subscription) throw new Error(`the first payment ${t.id} started no subscription`);
  } catch (error) {
    // No subscription, no payment: the buyer's money is returned (or the pix made unpayable).
    await undoPayment(deps, t, 'the subscription could not be started');
    throw error;
  }
  if (!card) return outcomeOf(t, recorded, subscription);
  const closed = (await completeWithTransaction(deps, t)) ?? recorded;
  if (closed.status === 'complete' && closed.transactionId !== t.id) {
    await dropSubscription(deps, subscription, 'the checkout session was completed by another payment');
    await undoPayment(deps, t, 'the checkout session was completed by another payment');
    throw notOpen('complete');
  }
  return outcomeOf(t, closed, subscription);
}

/** The kept card as the subscription stores it (saveCard answers its view; the subscription wants the method). */
async function paymentMethodOf(deps: SubscribeDeps, tenant: Transaction['tenant'], kept: PaymentMethodView) {
  const pm = await deps.paymentMethods.get(tenant, kept.id);
  if (!pm) throw new Error(`the kept card ${kept.id} could not be read back`);
  return pm;
}
