import type { Tenant } from '#shared/domain/tenant';
import { centavosToReais } from '#shared/money';
import type { BillingInterval } from './price';

export const SUBSCRIPTION_NOT_FOUND = 'Subscription not found';
/** The one job of a subscription: whatever is due at `dueAt` (renewal, retry, trial end, period-end cancel). */
export const SUBSCRIPTION_DUE_JOB = 'subscription-due';

export const SUBSCRIPTION_STATUSES = [
  'pending',
  'active',
  'pending_cancellation',
  'canceled',
  'failed',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** How renewals are collected: the saved card, or the buyer's Pix Automático authorization. */
export type CollectionMethod = 'card' | 'pix_automatic';

/** The spec's history eventType values (Subscription event resource). */
export const HISTORY_TYPES = [
  'subscription.created',
  'subscription.activated',
  'trial_started',
  'trial_ended',
  'payment_success',
  'payment_failed',
  'subscription.paused',
  'subscription.resumed',
  'subscription.canceled',
  'subscription.expired',
] as const;
export type HistoryType = (typeof HISTORY_TYPES)[number];

/** One record of a subscription's history, as GET /api/subscriptions/{id}/events shows it. */
export interface SubscriptionHistoryEntry {
  /** Numeric, allocated by the repository when the entry is written (a `subscription-event` sequence). */
  id: number;
  subscriptionId: number;
  eventType: HistoryType;
  eventData: Record<string, unknown>;
  createdAt: string;
}

/** What a use case hands the repository: the repository gives it its id and subscription id. */
export type NewHistoryEntry = Pick<SubscriptionHistoryEntry, 'eventType' | 'eventData'>;

/**
 * A renewal charge in flight: claimed (a conditional write) before the provider is called, so a
 * second run of the same job finds it and repeats the call with the same transaction id and
 * provider idempotency key, and the provider charges once.
 */
export interface PendingCharge {
  /** The billing cycle this charge pays (1 = the first paid period). */
  cycle: number;
  /** 1 for the renewal itself, 2.. for its retries. */
  attempt: number;
  transactionId: number;
  idempotencyKey: string;
  claimedAt: string;
}

export interface Subscription {
  /** From the `subscription` sequence. */
  id: number;
  uuid: string;
  tenant: Tenant;
  status: SubscriptionStatus;
  customer: { id: number; uuid: string; name: string; email: string; document: string };
  /** A snapshot of the price at start: later deactivation of the price changes nothing here. */
  price: {
    id: number;
    uuid: string;
    name: string;
    unitAmount: number;
    billingInterval: BillingInterval;
    intervalCount: number;
    trialDays: number;
    product: { id: number; uuid: string; name: string };
  };
  collectionMethod: CollectionMethod;
  /** The saved card renewals charge (null for pix_automatic, or after the card was deleted). */
  paymentMethod: { id: number; cardLast4: string; cardBrand: string } | null;
  /** The Pix Automático authorization renewals debit (pix_automatic only). */
  pixAuthorizationId: string | null;
  /**
   * Periods are computed from this instant, never from the previous period's end: the n-th period
   * ends `n × intervalCount` intervals after it, on the month's last day when the anchor's day is
   * missing (an anchor on the 31st renews on Feb 28/29 and on Mar 31 again), at the anchor's
   * Sao Paulo wall-clock time. A trial's end is the anchor.
   */
  billingAnchor: string;
  /** Paid periods so far (0 during a trial or before the first payment). */
  billingCycle: number;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  trialEndsAt: string | null;
  cancelAt: string | null;
  cancelledAt: string | null;
  cancelAtPeriodEnd: boolean;
  cancelReason: string | null;
  /** Collection paused (Stripe's pause_collection): status unchanged, renewals skipped while set. */
  pausedAt: string | null;
  lastPaymentAt: string | null;
  nextPaymentAt: string | null;
  failedPaymentCount: number;
  /** The next time the due job has something to do (charge, retry, trial end, period-end cancel); null when nothing. */
  dueAt: string | null;
  /** The sandbox test clock it lives on (its customer's, at creation): its due work runs in that clock's time. */
  testClockId?: string | null;
  pendingCharge: PendingCharge | null;
  checkoutSessionId: string | null;
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** The spec's Subscription resource, plus what Stripe shows of a pause and the collection method. */
export function toSubscriptionView(s: Subscription) {
  return {
    id: s.id,
    uuid: s.uuid,
    object: 'subscription' as const,
    customerId: s.customer.id,
    subscriptionPriceId: s.price.id,
    sellerId: s.tenant.sellerId,
    paymentMethodId: s.paymentMethod?.id ?? null,
    status: s.status,
    collectionMethod: s.collectionMethod,
    currentPeriodStart: s.currentPeriodStart,
    currentPeriodEnd: s.currentPeriodEnd,
    billingCycle: s.billingCycle,
    trialEndsAt: s.trialEndsAt,
    cancelAt: s.cancelAt,
    cancelledAt: s.cancelledAt,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    cancelReason: s.cancelReason,
    pauseCollection: s.pausedAt ? { behavior: 'void' as const, pausedAt: s.pausedAt } : null,
    lastPaymentAt: s.lastPaymentAt,
    nextPaymentAt: s.nextPaymentAt,
    failedPaymentCount: s.failedPaymentCount,
    checkoutSessionId: s.checkoutSessionId,
    metadata: s.metadata,
    environment: s.tenant.environment,
    ...(s.testClockId ? { testClockId: s.testClockId } : {}),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    subscriptionPrice: {
      id: s.price.id,
      uuid: s.price.uuid,
      name: s.price.name,
      unitAmount: centavosToReais(s.price.unitAmount),
      billingInterval: s.price.billingInterval,
      intervalCount: s.price.intervalCount,
      product: { id: s.price.product.id, name: s.price.product.name },
    },
    customer: { id: s.customer.id, name: s.customer.name, email: s.customer.email },
    paymentMethod: s.paymentMethod,
  };
}

export type SubscriptionView = ReturnType<typeof toSubscriptionView>;

/**
 * A subscription.* or customer.trial_* webhook's payload: the subscription as the API shows it, with
 * `paymentMethod: "pix_automatic"` for a Pix Automático subscription (spec Events: its events are the
 * card ones, told apart by that field, as its transaction events are); a card subscription keeps
 * its saved card there (or null once the card is gone).
 */
export function toSubscriptionEventData(s: Subscription) {
  const view = toSubscriptionView(s);
  return {
    ...view,
    paymentMethod: s.collectionMethod === 'pix_automatic' ? ('pix_automatic' as const) : view.paymentMethod,
  };
}

export const toHistoryView = (e: SubscriptionHistoryEntry) => ({
  id: e.id,
  subscriptionId: e.subscriptionId,
  eventType: e.eventType,
  eventData: e.eventData,
  createdAt: e.createdAt,
});
