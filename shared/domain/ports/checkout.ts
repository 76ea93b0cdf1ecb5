import type { CheckoutSession, SessionPayment, SessionStatus } from '#shared/domain/checkout/session';
import type { DomainEvent } from '#shared/domain/events/events';
import type { Tenant } from '#shared/domain/tenant';

export interface SessionQuery {
  status?: SessionStatus;
  productId?: number;
  customerEmail?: string;
  /** Inclusive bounds on created_at (ISO 8601). */
  createdFrom?: string;
  createdTo?: string;
  page: number;
  limit: number;
}

export interface SessionPage {
  items: CheckoutSession[];
  totalCount: number;
  /** Items DynamoDB read to build the page (the bench reports it). */
  itemsRead: number;
}

export interface CheckoutSessionRepository {
  /** Writes the session, its expiry marker (the heartbeat's backstop) and its events. */
  create(session: CheckoutSession, events: DomainEvent[]): Promise<void>;
  /** Any tenant's session by id, strongly consistent: callers check the tenant. */
  get(id: string): Promise<CheckoutSession | null>;
  /**
   * Records a payment attempt while the session is still open (and not past its expiry). Throws
   * ConflictError reason `invalid_state` when it is not. Inside Atomically, with the sale.
   */
  addPayment(id: string, payment: SessionPayment, now: string): Promise<void>;
  /**
   * Moves an open session to `next` (complete or expired) with its events, if it is still open at
   * `previous.version`. Throws ConflictError reason `changed` otherwise.
   */
  close(next: CheckoutSession, previous: CheckoutSession, events: DomainEvent[]): Promise<void>;
  list(tenant: Tenant, query: SessionQuery): Promise<SessionPage>;
  /** Ids of sessions whose expiry is due, from the last `hoursBack` hours of buckets. */
  dueExpiries(now: Date, hoursBack: number): Promise<string[]>;
}
