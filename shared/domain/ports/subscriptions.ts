import type { RateWindow } from '#shared/domain/auth/rate-limit';
import type { CustomerProfile } from '#shared/domain/customers/customer';
import type { DomainEvent } from '#shared/domain/events/events';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import type { PortalSession } from '#shared/domain/portal/session';
import type { Product } from '#shared/domain/products/products';
import type { SubscriptionPrice } from '#shared/domain/subscriptions/price';
import type {
  NewHistoryEntry,
  Subscription,
  SubscriptionHistoryEntry,
  SubscriptionStatus,
} from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';

export interface PriceRepository {
  nextId(): Promise<number>;
  create(price: SubscriptionPrice): Promise<void>;
  get(tenant: Tenant, id: number): Promise<SubscriptionPrice | null>;
  findByUuid(tenant: Tenant, uuid: string): Promise<SubscriptionPrice | null>;
  /** Every price of the product (a product has a handful), newest first, in one query. */
  listByProduct(tenant: Tenant, productId: number): Promise<SubscriptionPrice[]>;
  /**
   * Writes `next` as given if the stored version is still `previous.version`; ConflictError (reason
   * `changed`) otherwise. The caller sets `next.version = previous.version + 1`, as for every
   * optimistic write here (products, transactions, payment methods).
   */
  save(next: SubscriptionPrice, previous: SubscriptionPrice): Promise<void>;
}

/** What one state change writes together with the subscription, all or nothing. */
export interface SubscriptionChanges {
  /** Outbox events (webhooks). */
  events: DomainEvent[];
  /**
   * History records; the repository gives them ids (the `subscription-event` sequence), the
   * subscription id, and `createdAt` = the written subscription's `updatedAt` (the change's instant).
   */
  history: NewHistoryEntry[];
}

/** What POST /api/subscriptions checks before it charges, read together (issue 17). */
export interface SubscriptionStartReads {
  /** The tenant's customer of that id; possibly a copy, to pass on as SubscriptionChanges.customer. */
  customer: CustomerProfile | null;
  price: SubscriptionPrice | null;
  /** The price's product (null without a price). */
  product: Product | null;
  paymentMethod: PaymentMethod | null;
}

export interface SubscriptionStartReader {
  /** The customer by id, the price by id or uuid with its product, the saved card by id: the tenant's only. */
  read(
    tenant: Tenant,
    refs: { customerId: number; priceRef: string; paymentMethodId: number },
  ): Promise<SubscriptionStartReads>;
}

export interface SubscriptionQuery {
  status?: SubscriptionStatus;
  customerId?: number;
  productId?: number;
  page: number;
  limit: number;
}

export interface SubscriptionPage {
  items: Subscription[];
  totalCount: number;
  /** Items DynamoDB read to build the page (the bench reports it). */
  itemsRead: number;
}

export interface SubscriptionRepository {
  nextId(): Promise<number>;
  /** Writes a new subscription with its changes; ConflictError (`already_exists`) when the id is taken. */
  create(subscription: Subscription, changes: SubscriptionChanges): Promise<void>;
  get(tenant: Tenant, id: number): Promise<Subscription | null>;
  /**
   * Writes `next` as given if the stored version is still `previous.version`, with its changes, in
   * one transaction. The caller sets `next.version = previous.version + 1` (the convention of every
   * optimistic write here). Throws ConflictError (reason `changed`) when the subscription changed
   * since it was read, or (reason `already_exists`) when `changes.transaction` names a transaction
   * id already stored; nothing is written then.
   */
  save(next: Subscription, previous: Subscription, changes: SubscriptionChanges): Promise<void>;
  list(tenant: Tenant, query: SubscriptionQuery): Promise<SubscriptionPage>;
  /** Every subscription of one customer (the portal), newest first, at most 100. */
  listByCustomer(tenant: Tenant, customerId: number): Promise<Subscription[]>;
  /** The subscription's history, newest first, at most `limit` (default 100). */
  history(tenant: Tenant, subscriptionId: number, limit?: number): Promise<SubscriptionHistoryEntry[]>;
  /**
   * Job ids (`<sellerId>:<environment>:<id>`) of subscriptions whose `dueAt` is by `now`, from the
   * hour buckets of the last `hoursBack` hours (the heartbeat's backstop).
   */
  dueSubscriptions(now: Date, hoursBack: number): Promise<string[]>;
}

export interface PortalSessionRepository {
  nextId(): Promise<number>;
  /** Writes the session under its token hash, with a TTL at its expiry. */
  create(session: PortalSession): Promise<void>;
  /** The session of a token hash, or null (unknown, or deleted by the TTL). Callers check `expiresAt`. */
  findByTokenHash(tokenHash: string): Promise<PortalSession | null>;
  /**
   * The session of a token hash if it is still before its `expiresAt` at `at`, with the request
   * counted in the session's own rate window, in one round trip (the counter lives in the
   * session's item); null for an unknown hash or an expired session, and nothing is counted then.
   */
  authenticate(
    tokenHash: string,
    at: Date,
    window: RateWindow,
  ): Promise<{ session: PortalSession; count: number } | null>;
}
