import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import { BILLING_INTERVALS, type PriceView } from './price';
import type { listPrices } from './prices';
import type { listSubscriptionEvents, listSubscriptions } from './queries';
import { HISTORY_TYPES, SUBSCRIPTION_STATUSES, type SubscriptionView } from './subscription';

const iso = () => z.iso.datetime();
const reais = (what: string) => z.number().describe(`${what}, in Reais (decimal, e.g. 49.9)`);

/** Every route that answers one price (create, deactivate). */
export const priceResponse = z.lazy(() =>
  z
    .object({
      id: z.number().int(),
      uuid: z.string(),
      object: z.literal('subscription_price'),
      productId: z.number().int(),
      productUuid: z.string(),
      product: z.object({ id: z.number().int(), name: z.string() }),
      name: z.string(),
      unitAmount: reais('What a subscriber pays each period'),
      billingInterval: z.enum(BILLING_INTERVALS),
      intervalCount: z.number().int().describe('Charged every intervalCount billingIntervals'),
      trialDays: z.number().int().describe('Days before the first charge; 0 = no trial'),
      isActive: z.boolean().describe('False once deactivated: new subscriptions refuse it'),
      environment: z.enum(['test', 'live']),
      createdAt: iso(),
      updatedAt: iso(),
    })
    .meta({ id: 'SubscriptionPrice', description: 'A recurring price of a product' }),
);

/** GET /api/products/{id}/prices. */
export const priceListResponse = z.lazy(() =>
  z
    .object({ data: z.array(priceResponse) })
    .meta({ id: 'SubscriptionPriceList', description: "A product's prices, newest first" }),
);

/** Every route that answers one subscription (create, read, the actions). */
export const subscriptionResponse = z.lazy(() =>
  z
    .object({
      id: z.number().int(),
      uuid: z.string(),
      object: z.literal('subscription'),
      customerId: z.number().int(),
      subscriptionPriceId: z.number().int(),
      sellerId: z.number().int(),
      paymentMethodId: z.number().int().nullable().describe('The saved card renewals charge'),
      status: z.enum(SUBSCRIPTION_STATUSES).describe('A trial is `active` with trialEndsAt set'),
      collectionMethod: z.enum(['card', 'pix_automatic']),
      currentPeriodStart: iso(),
      currentPeriodEnd: iso(),
      billingCycle: z.number().int().describe('Paid periods so far (0 during a trial)'),
      trialEndsAt: iso().nullable(),
      cancelAt: iso().nullable(),
      cancelledAt: iso().nullable(),
      cancelAtPeriodEnd: z.boolean(),
      cancelReason: z.string().nullable(),
      pauseCollection: z
        .object({ behavior: z.literal('void'), pausedAt: iso() })
        .nullable()
        .describe('Set while collection is paused: periods go by without charges'),
      lastPaymentAt: iso().nullable(),
      nextPaymentAt: iso().nullable().describe('The next charge or retry; null when none is due'),
      failedPaymentCount: z.number().int(),
      checkoutSessionId: z.string().nullable(),
      metadata: z.record(z.string(), z.string()),
      environment: z.enum(['test', 'live']),
      testClockId: z
        .string()
        .optional()
        .describe("Sandbox only: the test clock it lives on (its customer's); absent in real time"),
      createdAt: iso(),
      updatedAt: iso(),
      subscriptionPrice: z.object({
        id: z.number().int(),
        uuid: z.string(),
        name: z.string(),
        unitAmount: reais('The price at the start of the subscription'),
        billingInterval: z.enum(BILLING_INTERVALS),
        intervalCount: z.number().int(),
        product: z.object({ id: z.number().int(), name: z.string() }),
      }),
      customer: z.object({ id: z.number().int(), name: z.string(), email: z.string() }),
      paymentMethod: z
        .object({ id: z.number().int(), cardLast4: z.string(), cardBrand: z.string() })
        .nullable(),
    })
    .meta({ id: 'Subscription', description: 'A customer paying a price every period' }),
);

/** GET /api/subscriptions. */
export const subscriptionListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(subscriptionResponse),
      count: z.number().int().describe('Subscriptions on this page'),
      totalCount: z.number().int(),
      totalPages: z.number().int(),
    })
    .meta({ id: 'SubscriptionList', description: 'A page of subscriptions, newest first' }),
);

/** One history record. */
export const subscriptionEventResponse = z.lazy(() =>
  z
    .object({
      id: z.number().int(),
      subscriptionId: z.number().int(),
      eventType: z.enum(HISTORY_TYPES),
      eventData: z
        .record(z.string(), z.unknown())
        .describe('payment_success: amount, transactionId, paidAt; subscription.created: priceId, trialDays'),
      createdAt: iso(),
    })
    .meta({ id: 'SubscriptionEvent', description: "A record of a subscription's history" }),
);

/** GET /api/subscriptions/{id}/events. */
export const subscriptionEventListResponse = z.lazy(() =>
  z
    .array(subscriptionEventResponse)
    .meta({ id: 'SubscriptionEventList', description: "A subscription's history, newest first" }),
);

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

type _Price = Assert<Equals<z.output<typeof priceResponse>, PriceView>>;
type _PriceList = Assert<Equals<z.output<typeof priceListResponse>, Out<typeof listPrices>>>;
type _Subscription = Assert<Equals<z.output<typeof subscriptionResponse>, SubscriptionView>>;
type _List = Assert<Equals<z.output<typeof subscriptionListResponse>, Out<typeof listSubscriptions>>>;
type _Events = Assert<
  Equals<z.output<typeof subscriptionEventListResponse>, Out<typeof listSubscriptionEvents>>
>;
