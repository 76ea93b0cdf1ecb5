import type {
  SubscriptionChanges,
  SubscriptionPage,
  SubscriptionQuery,
  SubscriptionRepository,
} from '#shared/domain/ports';
import { dueJobId } from '#shared/domain/subscriptions/schedule';
import type { Subscription, SubscriptionHistoryEntry } from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { FakeOutbox } from './outbox';
import { writeOrStage } from './unit-of-work';

const HOUR_MS = 3_600_000;
const keyOf = (tenant: Tenant, id: number) => `${tenant.sellerId}#${tenant.environment}#${id}`;
const sameTenant = (a: Tenant, b: Tenant) => a.sellerId === b.sellerId && a.environment === b.environment;
const jobIdOf = (s: Subscription) => dueJobId(s.tenant, s.id);
/** The hour bucket of an instant, as the adapter's due index is partitioned. */
const bucketOf = (iso: string) => iso.slice(0, 13);
/** The history's sort order in the table: the change's instant, then the record id. */
const historyOrder = (e: SubscriptionHistoryEntry) => `${e.createdAt}#${String(e.id).padStart(12, '0')}`;

interface StoredEntry {
  tenant: Tenant;
  entry: SubscriptionHistoryEntry;
}

/**
 * Subscriptions in a map, with the DynamoDB repository's outcomes:
 * - create and save write the subscription, its history records (ids from one sequence,
 *   `createdAt` = the subscription's `updatedAt`) and its events in one outbox batch, or nothing;
 *   inside fakeAtomically, checked and stored with the unit's other writes (a charge's transaction);
 * - create of a stored id is ConflictError `already_exists`;
 * - save writes only on `previous.version` (ConflictError `changed`);
 * - list filters by tenant, status, customer and product, newest first (by id), totalCount of every
 *   match; listByCustomer at most 100; history newest first;
 * - dueSubscriptions answers the subscriptions whose `dueAt` is by `now` in the hour buckets from
 *   `hoursBack` hours ago to now, oldest bucket first and by `dueAt` (then job id) within one.
 * `beforeSave` runs just before save checks its condition (stage a concurrent writer, or throw).
 */
export class FakeSubscriptionRepository implements SubscriptionRepository {
  readonly items = new Map<string, Subscription>();
  readonly entries: StoredEntry[] = [];
  readonly outbox: FakeOutbox;
  beforeSave: (() => void | Promise<void>) | null = null;
  saves = 0;
  private lastId: number;
  private lastEventId = 0;

  constructor(
    options: {
      firstId?: number;
      /** One shared with the other fakes of a test (a charge's transaction events), as the table's one outbox. */
      outbox?: FakeOutbox;
    } = {},
  ) {
    this.lastId = (options.firstId ?? 1) - 1;
    this.outbox = options.outbox ?? new FakeOutbox();
  }

  /** Stores a subscription as if it had been created earlier (no history, no events). */
  seed(subscription: Subscription): Subscription {
    this.items.set(keyOf(subscription.tenant, subscription.id), structuredClone(subscription));
    return subscription;
  }

  /** The stored subscription as it is now (no copy), or undefined. */
  stored(tenant: Tenant, id: number): Subscription | undefined {
    return this.items.get(keyOf(tenant, id));
  }

  async nextId(): Promise<number> {
    return ++this.lastId;
  }

  async create(subscription: Subscription, changes: SubscriptionChanges): Promise<void> {
    await writeOrStage({
      check: async () => {
        if (this.items.has(keyOf(subscription.tenant, subscription.id)))
          throw new ConflictError('The subscription already exists', 'already_exists', {
            reason: 'already_exists',
          });
      },
      apply: () => {
        this.write(subscription, changes);
      },
    });
  }

  async get(tenant: Tenant, id: number): Promise<Subscription | null> {
    const found = this.items.get(keyOf(tenant, id));
    return found ? structuredClone(found) : null;
  }

  async save(next: Subscription, previous: Subscription, changes: SubscriptionChanges): Promise<void> {
    await writeOrStage({
      check: async () => {
        await this.beforeSave?.();
        // Before the version's check: nothing may pause between that check and the write (one transaction).
        this.refuseMovedVersion(previous);
      },
      apply: () => {
        // Again with the write: another save may have run in the pause after the checks.
        this.refuseMovedVersion(previous);
        this.write(next, changes);
        this.saves++;
      },
    });
  }

  async list(tenant: Tenant, q: SubscriptionQuery): Promise<SubscriptionPage> {
    const matching = this.ofTenant(tenant)
      .filter((s) => q.status === undefined || s.status === q.status)
      .filter((s) => q.customerId === undefined || s.customer.id === q.customerId)
      .filter((s) => q.productId === undefined || s.price.product.id === q.productId);
    const skip = (q.page - 1) * q.limit;
    return {
      items: matching.slice(skip, skip + q.limit).map((s) => structuredClone(s)),
      totalCount: matching.length,
      itemsRead: matching.length,
    };
  }

  async listByCustomer(tenant: Tenant, customerId: number): Promise<Subscription[]> {
    return this.ofTenant(tenant)
      .filter((s) => s.customer.id === customerId)
      .slice(0, 100)
      .map((s) => structuredClone(s));
  }

  async history(tenant: Tenant, subscriptionId: number, limit = 100): Promise<SubscriptionHistoryEntry[]> {
    return this.entries
      .filter((e) => sameTenant(e.tenant, tenant) && e.entry.subscriptionId === subscriptionId)
      .map((e) => e.entry)
      .sort((a, b) => (historyOrder(a) < historyOrder(b) ? 1 : -1))
      .slice(0, limit)
      .map((e) => structuredClone(e));
  }

  async dueSubscriptions(now: Date, hoursBack: number): Promise<string[]> {
    const nowIso = now.toISOString();
    const buckets = new Set<string>();
    for (let h = hoursBack; h >= 0; h--)
      buckets.add(bucketOf(new Date(now.getTime() - h * HOUR_MS).toISOString()));
    const order = (s: Subscription) => `${s.dueAt}#${jobIdOf(s)}`;
    return [...this.items.values()]
      .filter((s) => s.dueAt !== null && s.dueAt <= nowIso && buckets.has(bucketOf(s.dueAt)))
      .sort((a, b) => (order(a) < order(b) ? -1 : 1))
      .map(jobIdOf);
  }

  private ofTenant(tenant: Tenant): Subscription[] {
    return [...this.items.values()].filter((s) => sameTenant(s.tenant, tenant)).sort((a, b) => b.id - a.id);
  }

  private refuseMovedVersion(previous: Subscription): void {
    if (this.items.get(keyOf(previous.tenant, previous.id))?.version !== previous.version)
      throw new ConflictError('The subscription changed at the same time; retry', 'concurrent_update', {
        reason: 'changed',
      });
  }

  private write(subscription: Subscription, changes: SubscriptionChanges): void {
    this.items.set(keyOf(subscription.tenant, subscription.id), structuredClone(subscription));
    for (const h of changes.history)
      this.entries.push({
        tenant: subscription.tenant,
        entry: structuredClone({
          id: ++this.lastEventId,
          subscriptionId: subscription.id,
          eventType: h.eventType,
          eventData: h.eventData,
          createdAt: subscription.updatedAt,
        }),
      });
    this.outbox.write(changes.events);
  }
}
