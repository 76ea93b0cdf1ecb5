import { searchableName } from '#shared/domain/customers/customer';
import { classifySearch } from '#shared/domain/customers/listing';
import { jobId } from '#shared/domain/job-id';
import type {
  ScheduledChargeChanges,
  ScheduledChargePage,
  ScheduledChargeQuery,
  ScheduledChargeRepository,
} from '#shared/domain/ports';
import type {
  Attempt,
  ChargeStatus,
  Cycle,
  ScheduledCharge,
  TimelineEntry,
} from '#shared/domain/scheduled-charges/charge';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { FakeChangeWrites } from './change-writes';
import type { FakeCustomerRepository } from './customer-repository';
import { FakeOutbox } from './outbox';
import type { FakeTransactionRepository } from './transaction-repository';
import { writeOrStage } from './unit-of-work';

const HOUR_MS = 3_600_000;
const tenantKey = (t: Tenant) => `${t.sellerId}#${t.environment}`;
/** As FakeTransactionRepository keys its map. */
const keyOf = (tenant: Tenant, id: string | number) => `${tenantKey(tenant)}#${id}`;
const sameTenant = (a: Tenant, b: Tenant) => a.sellerId === b.sellerId && a.environment === b.environment;
const jobIdOf = (c: ScheduledCharge) => jobId(c.tenant, c.id);
/** The hour bucket of an instant, as the adapter's due index is partitioned. */
const bucketOf = (iso: string) => iso.slice(0, 13);
/** The list's order, as the adapter's index sort keys: dueDate, then id. */
const listOrder = (c: ScheduledCharge) => `${c.dueDate}#${c.id}`;
/** Charges no cycle will ever be collected for again: in listByCustomer only with `closedSince`. */
const CLOSED: readonly ChargeStatus[] = ['paid', 'canceled', 'recurrence_canceled'];

interface StoredTimeline {
  tenant: Tenant;
  chargeId: string;
  entry: TimelineEntry;
}

/**
 * Scheduled charges in maps, with the DynamoDB repository's outcomes:
 * - create and save write the charge (with its cycles), its timeline entries (ids from the
 *   charge's own counter, 1.., `createdAt` = the charge's `updatedAt`), its attempts (new or
 *   overwritten by id), its transactions (into `transactions`, shared with the use case's deps when
 *   given), the customer's overdue count and every event in ONE outbox batch (the charge's events,
 *   then each transaction's), or nothing;
 * - create of a stored id, or of a stored transaction id, is ConflictError `already_exists`; more
 *   than one transaction in one change is an Error (as the adapter), nothing written; inside
 *   `fakeAtomically` a create is staged with the unit's other writes (a customer's confirmUnchanged);
 * - save writes only on `previous.version` (ConflictError `changed`, checked first), then
 *   `already_exists` for a stored transaction id;
 * - `customerOverdueDelta` moves the customer's overdue count (never below 0): the profile's
 *   `overdueCount` in `customers` when given (nothing when the profile is missing, as the adapter),
 *   else a counter of this fake (`overdueCount(tenant, uuid)` reads either);
 * - list: statuses (any), customer, type, inclusive dueDate bounds and search (customers'
 *   classifySearch: document, e-mail, name prefix), ordered by dueDate then id, totalCount of every
 *   match, each listed charge without its cycles (`cycles: []`, as the index items); listByCustomer:
 *   open charges (not paid or cancelled; with `closedSince`, also closed ones updated since) with their
 *   cycles, latest due date first (then id), at most 100;
 * - timeline newest first; attempts newest first (by id), optionally of one cycle, paged;
 * - findByPayToken looks in every tenant;
 * - dueCharges answers the charges whose `dueAt` is by `now` in the hour buckets from `hoursBack`
 *   hours ago to now, oldest bucket first and by `dueAt` (then job id) within one.
 * Everything handed in or out is a deep copy. `beforeSave` runs just before save checks its
 * condition (stage a concurrent writer, or throw).
 */
export class FakeScheduledChargeRepository implements ScheduledChargeRepository {
  readonly items = new Map<string, ScheduledCharge>();
  readonly timelines: StoredTimeline[] = [];
  readonly attemptItems = new Map<string, { tenant: Tenant; attempt: Attempt }>();
  readonly outbox = new FakeOutbox();
  readonly transactions: FakeTransactionRepository;
  readonly customers: FakeCustomerRepository | null;
  /** Overdue counts by tenant and customer uuid, when no `customers` was given. */
  readonly overdueCounts: Map<string, number>;
  beforeSave: (() => void | Promise<void>) | null = null;
  saves = 0;
  private lastAttemptId = 0;
  private readonly writes: FakeChangeWrites;

  constructor(
    options: { transactions?: FakeTransactionRepository; customers?: FakeCustomerRepository } = {},
  ) {
    this.writes = new FakeChangeWrites('A scheduled charge', options);
    this.transactions = this.writes.transactions;
    this.customers = this.writes.customers;
    this.overdueCounts = this.writes.overdueCounts;
  }

  /** Stores a charge as if it had been created earlier (no timeline, no events). */
  seed(charge: ScheduledCharge): ScheduledCharge {
    this.items.set(keyOf(charge.tenant, charge.id), structuredClone(charge));
    return charge;
  }

  /** The stored charge as it is now (no copy), or undefined. */
  stored(tenant: Tenant, id: string): ScheduledCharge | undefined {
    return this.items.get(keyOf(tenant, id));
  }

  /** The customer's overdue count as the repository moved it. */
  overdueCount(tenant: Tenant, customerUuid: string): number {
    return this.writes.overdueCount(tenant, customerUuid);
  }

  async nextAttemptId(): Promise<number> {
    return ++this.lastAttemptId;
  }

  async create(charge: ScheduledCharge, changes: ScheduledChargeChanges): Promise<void> {
    this.writes.refuseSeveralTransactions(changes);
    await writeOrStage({
      check: () => {
        if (this.items.has(keyOf(charge.tenant, charge.id)))
          throw new ConflictError('The scheduled charge already exists', 'already_exists', {
            reason: 'already_exists',
          });
        this.writes.refuseStoredTransactions(changes);
      },
      apply: () => this.write(charge, 0, changes),
    });
  }

  async get(tenant: Tenant, id: string): Promise<ScheduledCharge | null> {
    const found = this.items.get(keyOf(tenant, id));
    return found ? structuredClone(found) : null;
  }

  async save(
    next: ScheduledCharge,
    previous: ScheduledCharge,
    changes: ScheduledChargeChanges,
  ): Promise<void> {
    await this.beforeSave?.();
    const stored = this.items.get(keyOf(previous.tenant, previous.id));
    if (stored?.version !== previous.version || stored.timelineSeq !== previous.timelineSeq)
      throw new ConflictError('The scheduled charge changed at the same time; retry', 'concurrent_update', {
        reason: 'changed',
      });
    this.writes.refuseSeveralTransactions(changes);
    this.writes.refuseStoredTransactions(changes);
    this.write(next, previous.timelineSeq, changes);
    this.saves++;
  }

  async list(tenant: Tenant, q: ScheduledChargeQuery): Promise<ScheduledChargePage> {
    const search = classifySearch(q.search);
    const matching = this.ofTenant(tenant)
      .filter((c) => q.statuses.length === 0 || q.statuses.includes(c.status))
      .filter((c) => q.customerId === undefined || c.customer.id === q.customerId)
      .filter((c) => q.type === undefined || c.type === q.type)
      .filter((c) => q.dueDateFrom === undefined || c.dueDate >= q.dueDateFrom)
      .filter((c) => q.dueDateTo === undefined || c.dueDate <= q.dueDateTo)
      .filter((c) => {
        if (search.kind === 'document') return c.customer.document === search.document;
        if (search.kind === 'email') return c.customer.email.toLowerCase() === search.email;
        if (search.kind === 'name') return searchableName(c.customer.name).startsWith(search.prefix);
        return true;
      })
      .sort((a, b) => (listOrder(a) < listOrder(b) ? -1 : 1));
    const skip = (q.page - 1) * q.limit;
    return {
      // As the adapter's index items: a listed charge carries no cycles.
      items: matching.slice(skip, skip + q.limit).map((c) => ({ ...structuredClone(c), cycles: [] })),
      totalCount: matching.length,
      itemsRead: matching.length,
    };
  }

  async listByCustomer(
    tenant: Tenant,
    customerId: number,
    options: { closedSince?: string } = {},
  ): Promise<ScheduledCharge[]> {
    const since = options.closedSince;
    return this.ofTenant(tenant)
      .filter(
        (c) =>
          c.customer.id === customerId &&
          (!CLOSED.includes(c.status) || (since !== undefined && c.updatedAt >= since)),
      )
      .sort((a, b) => (listOrder(a) < listOrder(b) ? 1 : -1))
      .slice(0, 100)
      .map((c) => structuredClone(c));
  }

  async timeline(tenant: Tenant, chargeId: string, limit = 100): Promise<TimelineEntry[]> {
    return this.timelines
      .filter((t) => sameTenant(t.tenant, tenant) && t.chargeId === chargeId)
      .map((t) => t.entry)
      .sort((a, b) => b.id - a.id)
      .slice(0, limit)
      .map((e) => structuredClone(e));
  }

  async attempts(
    tenant: Tenant,
    chargeId: string,
    query: { cycleNumber?: number; page: number; limit: number },
  ): Promise<{ items: Attempt[]; totalCount: number }> {
    const matching = [...this.attemptItems.values()]
      .filter((a) => sameTenant(a.tenant, tenant) && a.attempt.chargeId === chargeId)
      .map((a) => a.attempt)
      .filter((a) => query.cycleNumber === undefined || a.cycleNumber === query.cycleNumber)
      .sort((a, b) => b.id - a.id);
    const skip = (query.page - 1) * query.limit;
    return {
      items: matching.slice(skip, skip + query.limit).map((a) => structuredClone(a)),
      totalCount: matching.length,
    };
  }

  async findByPayToken(payToken: string): Promise<{ charge: ScheduledCharge; cycle: Cycle } | null> {
    for (const charge of this.items.values()) {
      const cycle = charge.cycles.find((c) => c.payToken === payToken);
      if (cycle) return { charge: structuredClone(charge), cycle: structuredClone(cycle) };
    }
    return null;
  }

  async dueCharges(now: Date, hoursBack: number): Promise<string[]> {
    const nowIso = now.toISOString();
    const buckets = new Set<string>();
    for (let h = hoursBack; h >= 0; h--)
      buckets.add(bucketOf(new Date(now.getTime() - h * HOUR_MS).toISOString()));
    const order = (c: ScheduledCharge) => `${c.dueAt}#${jobIdOf(c)}`;
    return [...this.items.values()]
      .filter((c) => c.dueAt !== null && c.dueAt <= nowIso && buckets.has(bucketOf(c.dueAt)))
      .sort((a, b) => (order(a) < order(b) ? -1 : 1))
      .map(jobIdOf);
  }

  private ofTenant(tenant: Tenant): ScheduledCharge[] {
    return [...this.items.values()].filter((c) => sameTenant(c.tenant, tenant));
  }

  private write(charge: ScheduledCharge, lastTimelineId: number, changes: ScheduledChargeChanges): void {
    const key = keyOf(charge.tenant, charge.id);
    this.items.set(
      key,
      structuredClone({ ...charge, timelineSeq: lastTimelineId + changes.timeline.length }),
    );
    let seq = lastTimelineId;
    for (const t of changes.timeline)
      this.timelines.push({
        tenant: charge.tenant,
        chargeId: charge.id,
        entry: structuredClone({
          id: ++seq,
          kind: t.kind,
          cycleNumber: t.cycleNumber,
          data: t.data,
          createdAt: charge.updatedAt,
        }),
      });
    for (const attempt of changes.attempts ?? [])
      this.attemptItems.set(keyOf(charge.tenant, `${charge.id}#${attempt.id}`), {
        tenant: charge.tenant,
        attempt: structuredClone(attempt),
      });
    this.writes.write(charge.tenant, charge.customer.uuid, changes, this.outbox);
  }
}
