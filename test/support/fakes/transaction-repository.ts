import { addCells, type DayFigures, figureCellsOf } from '#shared/domain/dashboard/figures';
import type { DomainEvent } from '#shared/domain/events/events';
import { jobId } from '#shared/domain/job-id';
import type { TransactionPage, TransactionQuery, TransactionRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { matchesSearch, searchTextOf } from '#shared/domain/transactions/search';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { ConflictError, ValidationError } from '#shared/errors';
import { FakeOutbox } from './outbox';
import { writeOrStage } from './unit-of-work';

const keyOf = (tenant: Tenant, id: number) => `${tenant.sellerId}#${tenant.environment}#${id}`;

/**
 * Transactions in a map; a transaction and its events are written together or not at all. save
 * throws the DynamoDB repository's ConflictErrors: `duplicate_notification` (reason
 * `already_exists`) for a notification applied before, `concurrent_update` (reason `changed`).
 * Ids come from one counter starting after `firstId - 1`. `failCreateWith` makes create reject
 * (the final write of a checkout failing).
 */
export class FakeTransactionRepository implements TransactionRepository {
  readonly items = new Map<string, Transaction>();
  readonly outbox: FakeOutbox;
  readonly notifications = new Set<string>();
  failCreateWith: Error | null = null;
  private lastId: number;

  /** `outbox`: one shared with the other fakes of a test, as the table's one outbox. */
  constructor(firstId = 1, outbox = new FakeOutbox()) {
    this.lastId = firstId - 1;
    this.outbox = outbox;
  }

  all(): Transaction[] {
    return [...this.items.values()];
  }

  async nextId(): Promise<number> {
    return ++this.lastId;
  }

  /** As the adapter: inside fakeAtomically, checked and stored with the unit's other writes. */
  async create(t: Transaction, events: DomainEvent[]): Promise<void> {
    const key = keyOf(t.tenant, t.id);
    await writeOrStage({
      check: () => {
        if (this.failCreateWith) throw this.failCreateWith;
        if (this.items.has(key))
          throw new ConflictError('The transaction already exists', 'already_exists', {
            reason: 'already_exists',
          });
      },
      apply: () => {
        this.items.set(key, structuredClone(t));
        this.outbox.write(events);
      },
    });
  }

  async get(tenant: Tenant, id: number): Promise<Transaction | null> {
    const found = this.items.get(keyOf(tenant, id));
    return found ? structuredClone(found) : null;
  }

  async findByUuid(uuid: string): Promise<Transaction | null> {
    const found = this.all().find((t) => t.uuid === uuid);
    return found ? structuredClone(found) : null;
  }

  async findByGatewayPayId(gatewayPayId: number): Promise<Transaction[]> {
    return this.all()
      .filter((t) => t.gatewayPayId === gatewayPayId)
      .map((t) => structuredClone(t));
  }

  async save(
    next: Transaction,
    previous: Transaction,
    events: DomainEvent[],
    notification?: { provider: string; id: string },
  ): Promise<void> {
    const marker = notification ? `${notification.provider}#${notification.id}` : null;
    if (marker && this.notifications.has(marker)) {
      throw new ConflictError('The notification was already applied', 'duplicate_notification', {
        reason: 'already_exists',
      });
    }
    const key = keyOf(next.tenant, next.id);
    if (this.items.get(key)?.version !== previous.version) {
      throw new ConflictError('The transaction changed at the same time; retry', 'concurrent_update', {
        reason: 'changed',
      });
    }
    this.items.set(key, structuredClone(next));
    if (marker) this.notifications.add(marker);
    this.outbox.write(events);
  }

  async list(tenant: Tenant, query: TransactionQuery): Promise<TransactionPage> {
    const matching = this.all()
      .filter((t) => t.tenant.sellerId === tenant.sellerId && t.tenant.environment === tenant.environment)
      .filter((t) => !query.status || t.status === query.status)
      .filter((t) => !query.paymentMethod || t.paymentMethod === query.paymentMethod)
      .filter((t) => query.productId === undefined || t.product.id === query.productId)
      .filter((t) => !query.customerIds || query.customerIds.includes(t.customer.id))
      .filter((t) => !query.createdBefore || t.createdAt < query.createdBefore)
      .filter((t) => !query.createdFrom || t.createdAt >= query.createdFrom)
      .filter((t) => !query.search || matchesSearch(searchTextOf(t.customer), query.search))
      .sort((a, b) => b.id - a.id);
    // A cursor names the tenant and the last id shown and continues after it, as a start key does;
    // another tenant's cursor, or text that is none, is the store's 400.
    const prefix = `${tenant.sellerId}#${tenant.environment}#`;
    const after = query.cursor === undefined ? null : Number(query.cursor.slice(prefix.length));
    if (query.cursor !== undefined && (!query.cursor.startsWith(prefix) || !Number.isInteger(after)))
      throw new ValidationError(['cursor is not valid']);
    const rest = after === null ? matching : matching.filter((t) => t.id < after);
    const skip = after === null ? (query.page - 1) * query.limit : 0;
    const items = rest.slice(skip, skip + query.limit);
    const more = skip + query.limit < rest.length;
    return {
      items,
      totalCount: matching.length,
      itemsRead: matching.length,
      cursor: more ? `${prefix}${items.at(-1)?.id}` : undefined,
    };
  }

  /** Totalled from the stored transactions, as the adapter's figures must stand. */
  async dailyFigures(
    tenant: Tenant,
    ranges: readonly { from: string; to: string }[],
  ): Promise<{ days: Map<string, DayFigures>; itemsRead: number }> {
    const days = new Map<string, DayFigures>();
    const own = this.all().filter(
      (t) => t.tenant.sellerId === tenant.sellerId && t.tenant.environment === tenant.environment,
    );
    addCells(
      days,
      own.flatMap(figureCellsOf).filter((c) => ranges.some((r) => c.day >= r.from && c.day <= r.to)),
    );
    return { days, itemsRead: days.size };
  }

  async duePixExpiries(now: Date, hoursBack: number): Promise<string[]> {
    const from = now.getTime() - hoursBack * 3_600_000;
    // As the DynamoDB markers: by pix.expiresAt, in expiry order (then tenant and id).
    const marker = (t: Transaction) =>
      `${t.pix?.expiresAt}#${t.tenant.sellerId}#${t.tenant.environment}#${t.id}`;
    return this.all()
      .filter((t) => t.status === 'pendingPix' && t.pix !== null)
      .filter((t) => {
        const at = Date.parse(t.pix?.expiresAt as string);
        return at <= now.getTime() && at >= from - (from % 3_600_000);
      })
      .sort((a, b) => (marker(a) < marker(b) ? -1 : 1))
      .map((t) => jobId(t.tenant, t.id));
  }
}
