import type { CheckoutSession, SessionPayment } from '#shared/domain/checkout/session';
import type { DomainEvent } from '#shared/domain/events/events';
import type { CheckoutSessionRepository, SessionPage, SessionQuery } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { FakeOutbox } from './outbox';
import { writeOrStage } from './unit-of-work';

const HOUR_MS = 3_600_000;

/** As the DynamoDB adapter sorts every list partition: `<createdAt>#<id>`, read newest first. */
const sortKeyOf = (s: CheckoutSession) => `${s.createdAt}#${s.id}`;
/** The hour bucket of an instant, as the adapter's expiry markers are partitioned. */
const bucketOf = (iso: string) => iso.slice(0, 13);

export interface ExpiryMarker {
  sessionId: string;
  expiresAt: string;
}

/**
 * Checkout sessions in a map, with the DynamoDB repository's outcomes:
 * - create writes the session, its expiry marker and its events together, or nothing: an id already
 *   stored is ConflictError `already_exists`;
 * - addPayment appends while the session is open and `expiresAt > now` (a missing session fails the
 *   same condition): ConflictError `invalid_state` otherwise;
 * - close writes `next` only if the stored one is open at `previous.version`: ConflictError
 *   `changed` otherwise, writing neither the session nor its events;
 * - list filters by tenant, status, product, e-mail (case-insensitive) and the inclusive created
 *   range on the same `<createdAt>#<id>` sort key, newest first, totalCount of every match;
 * - dueExpiries answers the markers due by `now` in the hour buckets from `hoursBack` hours ago to
 *   now, oldest bucket first and by expiry within one. Markers stay after the session closes.
 * `beforeAddPayment` and `beforeClose` run just before their condition is checked, to stage a
 * concurrent writer.
 */
export class FakeCheckoutSessionRepository implements CheckoutSessionRepository {
  readonly items = new Map<string, CheckoutSession>();
  /** Expiry markers by their sort key (`<expiresAt>#<id>`), as the table keeps them. */
  readonly markers = new Map<string, ExpiryMarker>();
  readonly outbox = new FakeOutbox();
  beforeAddPayment: (() => void | Promise<void>) | null = null;
  beforeClose: (() => void | Promise<void>) | null = null;
  closes = 0;

  /** Stores a session as if it had been created earlier (with its expiry marker, no events). */
  seed(session: CheckoutSession): CheckoutSession {
    this.items.set(session.id, structuredClone(session));
    this.markers.set(`${session.expiresAt}#${session.id}`, {
      sessionId: session.id,
      expiresAt: session.expiresAt,
    });
    return session;
  }

  /** The stored session as it is now (no copy), or undefined. */
  stored(id: string): CheckoutSession | undefined {
    return this.items.get(id);
  }

  async create(session: CheckoutSession, events: DomainEvent[]): Promise<void> {
    if (this.items.has(session.id))
      throw new ConflictError('The checkout session already exists', 'already_exists', {
        reason: 'already_exists',
      });
    this.seed(session);
    this.outbox.write(events);
  }

  async get(id: string): Promise<CheckoutSession | null> {
    const found = this.items.get(id);
    return found ? structuredClone(found) : null;
  }

  /** As the adapter: the session as it was when the joined read ran (FakeProductRepository calls `receive`). */
  /** As the adapter: inside fakeAtomically, checked and stored with the unit's other writes. */
  async addPayment(id: string, payment: SessionPayment, now: string): Promise<void> {
    await writeOrStage({
      check: async () => {
        await this.beforeAddPayment?.();
        this.withPayment(id, payment, now);
      },
      apply: () => {
        this.items.set(id, this.withPayment(id, payment, now));
      },
    });
  }

  private withPayment(id: string, payment: SessionPayment, now: string): CheckoutSession {
    const found = this.items.get(id);
    if (!found || found.status !== 'open' || !(found.expiresAt > now))
      throw new ConflictError('The checkout session is no longer open', 'session_not_open', {
        reason: 'invalid_state',
      });
    return {
      ...found,
      payments: [...found.payments, structuredClone(payment)],
      updatedAt: now,
      version: found.version + 1,
    };
  }

  async close(next: CheckoutSession, previous: CheckoutSession, events: DomainEvent[]): Promise<void> {
    await this.beforeClose?.();
    const found = this.items.get(next.id);
    if (!found || found.status !== 'open' || found.version !== previous.version)
      throw new ConflictError('The checkout session changed; read it again', 'concurrent_update', {
        reason: 'changed',
      });
    this.items.set(next.id, structuredClone(next));
    this.closes++;
    this.outbox.write(events);
  }

  async list(tenant: Tenant, q: SessionQuery): Promise<SessionPage> {
    const from = q.createdFrom ?? '0';
    const to = `${q.createdTo ?? '9999'}~`;
    const email = q.customerEmail?.toLowerCase();
    const matching = [...this.items.values()]
      .filter((s) => s.tenant.sellerId === tenant.sellerId && s.tenant.environment === tenant.environment)
      .filter((s) => q.status === undefined || s.status === q.status)
      .filter((s) => q.productId === undefined || s.productId === q.productId)
      .filter((s) => email === undefined || s.customer.email?.toLowerCase() === email)
      .filter((s) => sortKeyOf(s) >= from && sortKeyOf(s) <= to)
      .sort((a, b) => (sortKeyOf(a) < sortKeyOf(b) ? 1 : -1));
    const skip = (q.page - 1) * q.limit;
    return {
      items: matching.slice(skip, skip + q.limit).map((s) => structuredClone(s)),
      totalCount: matching.length,
      itemsRead: matching.length,
    };
  }

  async dueExpiries(now: Date, hoursBack: number): Promise<string[]> {
    const nowIso = now.toISOString();
    const buckets = new Set<string>();
    for (let h = hoursBack; h >= 0; h--)
      buckets.add(bucketOf(new Date(now.getTime() - h * HOUR_MS).toISOString()));
    return [...this.markers.entries()]
      .filter(([, m]) => buckets.has(bucketOf(m.expiresAt)) && m.expiresAt <= nowIso)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, m]) => m.sessionId);
  }
}
