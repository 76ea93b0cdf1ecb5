import {
  CUSTOMER_COPY_TRIES,
  CustomerChangedError,
  type CustomerProfile,
} from '#shared/domain/customers/customer';
import type { Deps } from '#shared/domain/deps';
import type { EventsOf, TrialEvent } from '#shared/domain/events/events';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import { CUSTOMER_NOT_FOUND, PAYMENT_METHOD_NOT_FOUND } from '#shared/domain/payment-methods/payment-method';
import { PROVIDER_NOT_CONFIGURED } from '#shared/domain/payments/gateway';
import { providerReady } from '#shared/domain/payments/provider-ready';
import type { SubscriptionStartReader } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { onTestClock } from '#shared/domain/test-clocks/on-clock';
import { PAID, type Transaction } from '#shared/domain/transactions/transaction';
import { isConflict, NotFoundError, ServiceUnavailableError, ValidationError } from '#shared/errors';
import { centavosToReais } from '#shared/money';
import { charge } from './charge';
import { applyOutcome, nextCharge } from './collect';
import { type SubscriptionDeps, subscriptionEvent } from './deps';
import { periodEnd, trialEnd } from './periods';
import { PRICE_NOT_FOUND, type SubscriptionPrice } from './price';
import { saveAndSchedule, scheduleDue } from './schedule';
import type { CreateSubscriptionInput } from './schemas';
import {
  type CollectionMethod,
  type NewHistoryEntry,
  SUBSCRIPTION_NOT_FOUND,
  type Subscription,
  toSubscriptionView,
} from './subscription';

/** Everything a subscription starts from: the API's create, or a checkout session's payment. */
export interface StartInput {
  tenant: Tenant;
  /** Preallocated (`subscriptions.nextId()`) when the first payment's transaction was written with it first. */
  id?: number;
  price: SubscriptionPrice;
  /** A customer profile will do: only these fields are kept. */
  customer: Subscription['customer'];
  /**
   * The profile `customer` was taken from, when it may be a copy (the API create's one read): the
   * write checks it is still the stored profile and, if not, is made again on the stored one.
   */
  customerProfile?: CustomerProfile;
  collectionMethod: CollectionMethod;
  /** The saved card renewals charge (card), null for Pix Automático. */
  paymentMethod: PaymentMethod | null;
  pixAuthorizationId?: string | null;
  checkoutSessionId?: string | null;
  metadata?: Record<string, string>;
  /** Start with a trial: `trialDays` when given (the API's override), else the price's; 0 days is no trial. */
  trial: boolean;
  trialDays?: number;
  /**
   * The first period's payment, already made (a checkout sale, written by the caller): paid, the
   * subscription starts active; pending (a Pix Automático first pix), it starts `pending` until
   * activateFromFirstPayment. Absent and no trial: a Pix Automático subscription starts `pending`
   * too (its first pix is on its way); a card one is charged now (charged at once, startCharged).
   */
  firstPayment?: Transaction;
}

const customerSnapshot = (c: Subscription['customer']): Subscription['customer'] => ({
  id: c.id,
  uuid: c.uuid,
  name: c.name,
  email: c.email,
  document: c.document,
});

const paymentSuccess = (t: Transaction, billingCycle: number): NewHistoryEntry => ({
  eventType: 'payment_success',
  eventData: {
    amount: centavosToReais(t.value),
    transactionId: t.id,
    paidAt: t.paidAt,
    billingCycle,
  },
});

/** The state a paid first period gives: anchored on the payment, cycle 1, renewal at the period's end. */
function paidFirstPeriod(s: Subscription, paidAt: string): Subscription {
  const end = periodEnd(paidAt, s.price.billingInterval, s.price.intervalCount, 1);
  return {
    ...s,
    status: 'active',
    billingCycle: 1,
    billingAnchor: paidAt,
    currentPeriodStart: paidAt,
    currentPeriodEnd: end,
    lastPaymentAt: paidAt,
    nextPaymentAt: end,
    dueAt: end,
    failedPaymentCount: 0,
  };
}

/**
 * Starts a subscription (decisions: "Subscriptions"). With a trial: active at once, nothing
 * charged, the trial's end is the first charge (`trial_started`, webhooks subscription.created,
 * subscription.activated, customer.trial_started). With a paid first payment: active, cycle 1.
 * With a pending one, or none for Pix Automático: `pending`. Otherwise it is written `pending` and the saved
 * card is charged at once through the engine: paid, active; declined, `failed` (the API's 201).
 * Every write carries its history and webhooks; a set due time is scheduled.
 */
export async function startSubscription(deps: SubscriptionDeps, input: StartInput): Promise<Subscription> {
  const now = deps.clock.now().toISOString();
  const { price } = input;
  const trialDays = input.trial ? (input.trialDays ?? price.trialDays) : 0;
  const tentativeEnd = periodEnd(now, price.billingInterval, price.intervalCount, 1);
  const pending: Subscription = {
    id: input.id ?? (await deps.subscriptions.nextId()),
    uuid: deps.ids.uuid(),
    tenant: input.tenant,
    status: 'pending',
    customer: customerSnapshot(input.customer),
    price: {
      id: price.id,
      uuid: price.uuid,
      name: price.name,
      unitAmount: price.unitAmount,
      billingInterval: price.billingInterval,
      intervalCount: price.intervalCount,
      trialDays: price.trialDays,
      product: { ...price.product },
    },
    collectionMethod: input.collectionMethod,
    paymentMethod: input.paymentMethod
      ? {
          id: input.paymentMethod.id,
          cardLast4: input.paymentMethod.last4,
          cardBrand: input.paymentMethod.brand,
        }
      : null,
    pixAuthorizationId: input.pixAuthorizationId ?? null,
    // Until the first payment: the period it would pay, from now (the payment re-anchors it).
    billingAnchor: now,
    billingCycle: 0,
    currentPeriodStart: now,
    currentPeriodEnd: tentativeEnd,
    // Created on its customer's test clock (the sandbox), its due work runs in that clock's time.
    testClockId: deps.clockScope?.current() ?? null,
    trialEndsAt: null,
    cancelAt: null,
    cancelledAt: null,
    cancelAtPeriodEnd: false,
    cancelReason: null,
    pausedAt: null,
    lastPaymentAt: null,
    nextPaymentAt: null,
    failedPaymentCount: 0,
    dueAt: null,
    pendingCharge: null,
    checkoutSessionId: input.checkoutSessionId ?? null,
    metadata: input.metadata ?? {},
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const created: NewHistoryEntry = {
    eventType: 'subscription.created',
    eventData: { priceId: price.id, trialDays },
  };
  const payment = input.firstPayment;

  if (trialDays > 0) {
    const trialEndsAt = trialEnd(now, trialDays);
    const s: Subscription = {
      ...pending,
      status: 'active',
      currentPeriodEnd: trialEndsAt,
      trialEndsAt,
      billingAnchor: trialEndsAt,
      nextPaymentAt: trialEndsAt,
      dueAt: trialEndsAt,
    };
    const history: NewHistoryEntry[] = [
      created,
      { eventType: 'subscription.activated', eventData: { trial: true } },
      { eventType: 'trial_started', eventData: { trialDays, trialEndsAt } },
    ];
    return write(deps, s, history, [
      'subscription.created',
      'subscription.activated',
      'customer.trial_started',
    ]);
  }
  if (payment && PAID.includes(payment.status)) {
    // On a test clock the first period starts at the clock's time: the payment was made in real time.
    const s = paidFirstPeriod(pending, pending.testClockId ? now : (payment.paidAt ?? now));
    const history: NewHistoryEntry[] = [
      created,
      { eventType: 'subscription.activated', eventData: {} },
      paymentSuccess(payment, 1),
    ];
    return write(deps, s, history, ['subscription.created', 'subscription.activated']);
  }
  if (payment && payment.status !== 'pendingPix')
    throw new Error(`a subscription cannot start from a ${payment.status} first payment`);
  // A Pix Automático start waits for its first pix (activateFromFirstPayment); a card is charged now.
  if (payment || input.collectionMethod === 'pix_automatic')
    return write(deps, pending, [created], ['subscription.created'], input.customerProfile);
  return startCharged(deps, pending, created, input);
}

/** The subscription with the customer snapshot of `profile`. */
function withCustomer(s: Subscription, profile: CustomerProfile): Subscription {
  return { ...s, customer: customerSnapshot(profile) };
}

async function write(
  deps: SubscriptionDeps,
  first: Subscription,
  history: NewHistoryEntry[],
  webhooks: (EventsOf<'subscription'> | TrialEvent)[],
  customerProfile?: CustomerProfile,
): Promise<Subscription> {
  let s = first;
  let profile = customerProfile;
  for (let tries = 1; ; tries++) {
    const events = webhooks.map((name) => subscriptionEvent(deps, s, name));
    try {
      const seen = profile;
      const written = s;
      await deps.atomically(async () => {
        if (seen) await deps.customers.confirmUnchanged(seen);
        await deps.subscriptions.create(written, { events, history });
      });
      break;
    } catch (error) {
      if (!(error instanceof CustomerChangedError) || tries >= CUSTOMER_COPY_TRIES) throw error;
      profile = error.current;
      s = withCustomer(s, profile);
    }
  }
  await scheduleDue(deps, s);
  return s;
}

/**
 * A card subscription without a trial: the saved card is charged, then the subscription is written
 * once in its outcome's state (active, or `failed` for a decline) with everything the start and the
 * charge change (issue 17). No claim is written before the call: the subscription does not exist
 * until this write, so no due job or second request can reach its charge (a retried request with
 * the same X-Idempotency-Key is answered by the idempotency layer). The provider's key is the one
 * the claim would carry. A write that fails on a condition leaves nothing that records the charge:
 * an approved charge is refunded, as a sale's is.
 */
async function startCharged(
  deps: SubscriptionDeps,
  pending: Subscription,
  created: NewHistoryEntry,
  input: StartInput,
): Promise<Subscription> {
  const pendingCharge = await nextCharge(deps, pending);
  let claimed: Subscription = { ...pending, pendingCharge };
  let charged = await charge(deps, claimed, pendingCharge, input.paymentMethod ?? undefined);
  let profile = input.customerProfile;
  const now = deps.clock.now();
  for (let tries = 1; ; tries++) {
    const { next, changes, charge } = applyOutcome(deps, claimed, 'first', charged, now);
    const s: Subscription = { ...next, version: 1 };
    const opening = subscriptionEvent(deps, { ...claimed, pendingCharge: null }, 'subscription.created');
    try {
      const seen = profile;
      await deps.atomically(async () => {
        if (seen) await deps.customers.confirmUnchanged(seen);
        await deps.subscriptions.create(s, {
          events: [opening, ...changes.events],
          history: [created, ...changes.history],
        });
        if (charge) await deps.transactions.create(charge.record, charge.events);
      });
    } catch (error) {
      if (error instanceof CustomerChangedError && tries < CUSTOMER_COPY_TRIES) {
        profile = error.current;
        claimed = withCustomer(claimed, profile);
        const t = charged.transaction;
        if (t) charged = { ...charged, transaction: { ...t, customer: { ...claimed.customer, phone: '' } } };
        continue;
      }
      if (isConflict(error) && charged.outcome === 'paid' && charged.transaction) {
        const provider = deps.payments.forEnvironment(pending.tenant.environment);
        await provider
          .refund(charged.transaction.gatewayPayId, charged.transaction.value)
          .catch(() => undefined);
      }
      throw error;
    }
    await scheduleDue(deps, s);
    return s;
  }
}

/**
 * A Pix Automático subscription's first pix was paid (the provider's notification): active exactly
 * as after a paid first card payment. Idempotent: a subscription no longer pending (activated by an
 * earlier notification, or canceled meanwhile) is answered as it is.
 */
export async function activateFromFirstPayment(
  deps: SubscriptionDeps,
  tenant: Tenant,
  subscriptionId: number,
  transaction: Transaction,
): Promise<Subscription> {
  for (let tries = 1; ; tries++) {
    const s = await deps.subscriptions.get(tenant, subscriptionId);
    if (!s) throw new NotFoundError(SUBSCRIPTION_NOT_FOUND);
    if (s.status !== 'pending' || !PAID.includes(transaction.status)) return s;
    if (transaction.recurring?.subscriptionId !== s.id)
      throw new Error(`transaction ${transaction.id} is not the first payment of subscription ${s.id}`);
    const now = deps.clock.now().toISOString();
    const next: Subscription = {
      ...paidFirstPeriod(s, transaction.paidAt ?? now),
      updatedAt: now,
      version: s.version + 1,
    };
    const history: NewHistoryEntry[] = [
      { eventType: 'subscription.activated', eventData: {} },
      paymentSuccess(transaction, 1),
    ];
    try {
      return await saveAndSchedule(deps, next, s, {
        events: [subscriptionEvent(deps, next, 'subscription.activated')],
        history,
      });
    } catch (error) {
      // A concurrent change (another notification, a cancel): read again and decide on that.
      if (!isConflict(error, 'changed') || tries >= 3) throw error;
    }
  }
}

export interface CreateByApiDeps extends SubscriptionDeps, Partial<Pick<Deps, 'testClocks'>> {
  /** The customer, price, product and card in one read (issue 17). */
  startReader: SubscriptionStartReader;
}

/**
 * POST /api/subscriptions: a customer of the tenant subscribes to an active price with one of their
 * active saved cards (Stripe's API create). References that name nothing of the tenant (or a card
 * of another customer) are 404s, as the carnê's productId; a deactivated price or product and an
 * expired card are 400s naming the field.
 */
export async function createSubscriptionByApi(
  deps: CreateByApiDeps,
  tenant: Tenant,
  input: CreateSubscriptionInput,
) {
  // Without a provider nothing could ever be charged (as a live sale or checkout session).
  if (!(await providerReady(deps.payments.forEnvironment(tenant.environment), tenant)))
    throw new ServiceUnavailableError(PROVIDER_NOT_CONFIGURED, 'provider_not_configured');
  const {
    customer,
    price,
    product,
    paymentMethod: card,
  } = await deps.startReader.read(tenant, {
    customerId: input.customerId,
    priceRef: input.priceId,
    paymentMethodId: input.paymentMethodId,
  });
  if (!customer) throw new NotFoundError(CUSTOMER_NOT_FOUND);
  if (!price) throw new NotFoundError(PRICE_NOT_FOUND);
  if (!card || card.customer.id !== customer.id) throw new NotFoundError(PAYMENT_METHOD_NOT_FOUND);
  const problems: string[] = [];
  if (!price.isActive) problems.push('priceId names a deactivated price');
  else if (!product?.isActive) problems.push('priceId names a price of a deactivated product');
  if (card.status !== 'active') problems.push('paymentMethodId names an expired card');
  if (problems.length > 0) throw new ValidationError(problems);
  // A sandbox customer on a test clock subscribes in the clock's time, and the subscription lives on it.
  const started = await onTestClock(deps, tenant, customer.testClockId, () =>
    startSubscription(deps, {
      tenant,
      price,
      customer,
      customerProfile: customer,
      collectionMethod: 'card',
      paymentMethod: card,
      metadata: input.metadata,
      trial: true,
      trialDays: input.trialDays,
    }),
  );
  return toSubscriptionView(started);
}
