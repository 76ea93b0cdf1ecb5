import * as z from 'zod';

/**
 * Every outbound webhook event of the spec's Events table. Payloads the spec shows are followed
 * field by field; the others carry the resource as the API returns it (an object with its id and
 * updatedAt, so receivers can drop stale deliveries). pix_automatic charges reuse these events
 * with `paymentMethod: 'pix_automatic'`.
 */
export const PAYMENT_METHODS_IN_EVENTS = ['pix', 'boleto', 'card', 'pix_automatic'] as const;

const looseResource = () =>
  z.looseObject({ id: z.union([z.string(), z.number()]), updatedAt: z.string().optional() });

const productCreated = () =>
  z.object({
    id: z.number(),
    name: z.string(),
    value: z.number(),
    uuid: z.string(),
    sellerId: z.number(),
  });

const paymentSucceeded = () =>
  z.looseObject({
    id: z.number(),
    productId: z.number(),
    productName: z.string(),
    value: z.number(),
    paymentMethod: z.enum(PAYMENT_METHODS_IN_EVENTS),
    customer: z.object({ name: z.string(), email: z.string(), document: z.string() }),
    paidAt: z.string(),
  });

const paymentFailed = () => looseResource().extend({ failureCode: z.string() });

const sessionCompleted = () =>
  z.object({
    id: z.string(),
    status: z.literal('complete'),
    product_id: z.number(),
    // Null when the session started a subscription with a trial: nothing was charged.
    transaction_id: z.number().nullable(),
    customer_email: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    client_reference_id: z.string().nullable(),
    completed_at: z.string(),
  });

const sessionExpired = () =>
  z.object({
    id: z.string(),
    status: z.literal('expired'),
    product_id: z.number(),
    metadata: z.record(z.string(), z.unknown()),
    client_reference_id: z.string().nullable(),
    expires_at: z.string(),
  });

const scheduledChargePaid = () =>
  looseResource().extend({
    seriesId: z.string().nullable(),
    cycleNumber: z.number().nullable(),
  });
const cycleFailed = () =>
  looseResource().extend({
    failureCode: z.string(),
    failureReason: z.string(),
    gatewayFailureCode: z.string().nullable(),
  });

/** A saved card as GET /api/v1/customers/{uuid}/payment-methods shows it (never its token). */
export const paymentMethodEventData = () =>
  z.object({
    id: z.number(),
    uuid: z.string(),
    type: z.literal('card'),
    customerId: z.number(),
    customerUuid: z.string(),
    brand: z.string(),
    last4: z.string(),
    expiryMonth: z.number(),
    expiryYear: z.number(),
    status: z.enum(['active', 'expired']),
    expiresAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  });
const paymentMethodExpiringSoon = () =>
  paymentMethodEventData().extend({
    stage: z.union([z.literal(30), z.literal(14), z.literal(7)]),
    daysUntilExpiry: z.number().int(),
  });
const paymentMethodExpired = () => paymentMethodEventData().extend({ status: z.literal('expired') });

/**
 * A subscription as GET /api/subscriptions/{id} shows it: the payload of subscription.* and
 * customer.trial_* (the spec shows neither; this is the resource, like Stripe's subscription events),
 * except `paymentMethod`: `"pix_automatic"` for a Pix Automático subscription (spec Events), the
 * saved card (or null) for a card one.
 */
export const subscriptionEventData = () =>
  z.object({
    id: z.number(),
    uuid: z.string(),
    object: z.literal('subscription'),
    customerId: z.number(),
    subscriptionPriceId: z.number(),
    sellerId: z.number(),
    paymentMethodId: z.number().nullable(),
    status: z.enum(['pending', 'active', 'pending_cancellation', 'canceled', 'failed']),
    collectionMethod: z.enum(['card', 'pix_automatic']),
    currentPeriodStart: z.string(),
    currentPeriodEnd: z.string(),
    billingCycle: z.number().int(),
    trialEndsAt: z.string().nullable(),
    cancelAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    cancelAtPeriodEnd: z.boolean(),
    cancelReason: z.string().nullable(),
    pauseCollection: z.object({ behavior: z.literal('void'), pausedAt: z.string() }).nullable(),
    lastPaymentAt: z.string().nullable(),
    nextPaymentAt: z.string().nullable(),
    failedPaymentCount: z.number().int(),
    metadata: z.record(z.string(), z.string()),
    environment: z.enum(['test', 'live']),
    createdAt: z.string(),
    updatedAt: z.string(),
    subscriptionPrice: z.object({
      id: z.number(),
      uuid: z.string(),
      name: z.string(),
      unitAmount: z.number(),
      billingInterval: z.enum(['week', 'month', 'year']),
      intervalCount: z.number().int(),
      product: z.object({ id: z.number(), name: z.string() }),
    }),
    customer: z.object({ id: z.number(), name: z.string(), email: z.string() }),
    paymentMethod: z.union([
      z.literal('pix_automatic'),
      z.object({ id: z.number(), cardLast4: z.string(), cardBrand: z.string() }).nullable(),
    ]),
  });

export interface EventDefinition<N extends string = string, S extends z.ZodType = z.ZodType> {
  name: N;
  group: string;
  /** The service release that introduced the event. */
  since: string;
  /**
   * Deprecated (spec: "legacy transaction.failed still delivered to endpoints already subscribed"):
   * delivered only to endpoints that name it, which may still do so; `*` does not include it.
   */
  deprecated?: { replacedBy: string };
  /** Built on first use: every function loads the catalog, few of them validate every event. */
  readonly schema: S;
  description: string;
}

/** customer.trial_*: the subscription, or the scheduled charge (issue 13), whose trial it is. */
const trialEventData = () =>
  z.union([subscriptionEventData(), looseResource().extend({ object: z.literal('scheduled_charge') })]);

/** installment_plan.*: the plan as the API shows it, `id` its uuid (issue 14). */
const planEventData = () =>
  looseResource().extend({ object: z.literal('installment_plan'), uuid: z.string(), status: z.string() });
const installmentEventData = () =>
  looseResource().extend({ object: z.literal('installment_plan'), number: z.number().int() });
const installmentPaidData = () =>
  looseResource().extend({
    object: z.literal('installment_plan'),
    number: z.number().int(),
    paidAmount: z.number(),
    transactionId: z.number().int(),
  });
const planCanceledData = () =>
  looseResource().extend({
    object: z.literal('installment_plan'),
    cancelReason: z.enum(['seller', 'first_installment_unpaid']),
  });

const INITIAL = '0.1.0';
const def = <const N extends string, S extends z.ZodType = ReturnType<typeof looseResource>>(
  name: N,
  group: string,
  description: string,
  make: () => S = looseResource as () => never,
  since = INITIAL,
): EventDefinition<N, S> => {
  let built: S | undefined;
  return {
    name,
    group,
    description,
    since,
    get schema() {
      built ??= make();
      return built;
    },
  };
};

export const EVENT_CATALOG = [
  def('product.created', 'product', 'A product was created', productCreated),
  def('product.updated', 'product', 'A product changed'),
  def('product.deleted', 'product', 'A product was deactivated'),
  def('transaction.created', 'transaction', 'A transaction was created'),
  def('transaction.updated', 'transaction', 'A transaction changed status'),
  def('transaction.payment.succeeded', 'transaction', 'A payment was confirmed', paymentSucceeded),
  def('transaction.payment.failed', 'transaction', 'A payment was refused or failed', paymentFailed, '0.8.0'),
  def(
    'transaction.canceled',
    'transaction',
    'Canceled by seller, contract or operator',
    looseResource,
    '0.8.0',
  ),
  def('transaction.chargeback', 'transaction', 'A chargeback was opened', looseResource, '0.8.0'),
  def('transaction.chargeback_reversed', 'transaction', 'A chargeback was won: the sale is paid again'),
  def('transaction.refunded', 'transaction', 'A transaction was refunded, in whole or in part'),
  Object.assign(
    def(
      'transaction.failed',
      'transaction',
      'Deprecated since 0.8.0: a payment was refused or failed (use transaction.payment.failed); sent only to endpoints that name it',
      paymentFailed,
    ),
    { deprecated: { replacedBy: 'transaction.payment.failed' } },
  ),
  def('scheduled_charge.created', 'scheduled_charge', 'A scheduled charge was created'),
  def('scheduled_charge.updated', 'scheduled_charge', 'A scheduled charge changed'),
  def('scheduled_charge.canceled', 'scheduled_charge', 'A one-time scheduled charge was canceled'),
  def('scheduled_charge.paid', 'scheduled_charge', 'A charge or cycle was paid', scheduledChargePaid),
  def('scheduled_charge.overdue', 'scheduled_charge', 'A charge became overdue'),
  def(
    'scheduled_charge.cycle_failed',
    'scheduled_charge',
    'Card retries of a cycle were exhausted',
    cycleFailed,
  ),
  def('scheduled_charge.recurrence_canceled', 'scheduled_charge', 'A recurrence was canceled'),
  def('scheduled_charge.cancel_at_period_end_set', 'scheduled_charge', 'Cancellation at period end was set'),
  def(
    'scheduled_charge.cancel_at_period_end_cleared',
    'scheduled_charge',
    'Cancellation at period end was cleared',
  ),
  def('scheduled_charge.payment_method_attached', 'scheduled_charge', 'A card was saved in cycle 1'),
  def('scheduled_charge.payment_method_changed', 'scheduled_charge', 'The saved payment method changed'),
  def('scheduled_charge.payment_method_cleared', 'scheduled_charge', 'The saved payment method was removed'),
  def('scheduled_charge.postponed', 'scheduled_charge', 'The due date was postponed'),
  def(
    'installment_plan.created',
    'installment_plan',
    'A carnê was created (installment 1 registered)',
    planEventData,
  ),
  def(
    'installment_plan.activated',
    'installment_plan',
    'Installment 1 cleared: the carnê is active',
    planEventData,
  ),
  def(
    'installment_plan.installment_issued',
    'installment_plan',
    "An installment's boleto was registered (or reissued as a second copy)",
    installmentEventData,
  ),
  def(
    'installment_plan.installment_paid',
    'installment_plan',
    'An installment was paid',
    installmentPaidData,
  ),
  def(
    'installment_plan.installment_overdue',
    'installment_plan',
    'An installment became overdue',
    installmentEventData,
  ),
  def('installment_plan.completed', 'installment_plan', 'Every installment was paid', planEventData),
  def('installment_plan.canceled', 'installment_plan', 'The carnê was canceled', planCanceledData),
  def('customer.trial_started', 'customer', 'A trial started', trialEventData),
  def('customer.trial_converted', 'customer', 'A trial became paid', trialEventData),
  def('customer.trial_lapsed', 'customer', 'A trial ended unpaid', trialEventData),
  def(
    'payment_method.expiring_soon',
    'payment_method',
    'A card expires in 30, 14 or 7 days',
    paymentMethodExpiringSoon,
  ),
  def('payment_method.expired', 'payment_method', 'A card expired', paymentMethodExpired),
  def('subscription.created', 'subscription', 'A subscription was created', subscriptionEventData),
  def('subscription.activated', 'subscription', 'A subscription became active', subscriptionEventData),
  def('subscription.paused', 'subscription', 'A subscription was paused', subscriptionEventData),
  def('subscription.cancelled', 'subscription', 'A subscription was cancelled', subscriptionEventData),
  def('subscription.renewed', 'subscription', 'A subscription renewed', subscriptionEventData),
  def('checkout.session.completed', 'checkout', 'A checkout session was paid', sessionCompleted),
  def('checkout.session.expired', 'checkout', 'A checkout session expired', sessionExpired),
] as const satisfies readonly EventDefinition[];

type Catalogued = (typeof EVENT_CATALOG)[number];
/** Every event name of the catalog. */
export type EventName = Catalogued['name'];
/** The payload a use case gives each event: its schema's input, so a wrong payload does not compile. */
export type EventPayloads = { [D in Catalogued as D['name']]: z.input<D['schema']> };
export type EventPayload<N extends EventName> = EventPayloads[N];
/** The names of one family of events: `EventsOf<'scheduled_charge'>`. */
export type EventsOf<F extends string> = Extract<EventName, `${F}.${string}`>;
/** customer.trial_*: a subscription's or a scheduled charge's trial. */
export type TrialEvent = Extract<EventName, `customer.trial_${string}`>;

export const EVENTS_BY_NAME: ReadonlyMap<string, EventDefinition> = new Map(
  EVENT_CATALOG.map((e) => [e.name, e]),
);

/** The deprecated (legacy) events: an endpoint receives them only when it names them. */
export const LEGACY_EVENTS: readonly string[] = EVENT_CATALOG.filter((e) => e.deprecated).map((e) => e.name);

/** The events a `['*']` subscription receives: everything but the deprecated ones. */
export const WILDCARD_EVENTS: readonly string[] = EVENT_CATALOG.filter((e) => !e.deprecated).map(
  (e) => e.name,
);

export function isKnownEvent(name: string): name is EventName {
  return EVENTS_BY_NAME.has(name);
}
