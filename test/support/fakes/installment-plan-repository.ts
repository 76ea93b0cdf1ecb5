import type { InstallmentPlan, PlanStatus } from '#shared/domain/installment-plans/plan';
import { FINGERPRINT_HELD } from '#shared/domain/installment-plans/plan';
import { jobId } from '#shared/domain/job-id';
import type {
  Clock,
  InstallmentPlanChanges,
  InstallmentPlanPage,
  InstallmentPlanQuery,
  InstallmentPlanRepository,
} from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { FakeChangeWrites } from './change-writes';
import type { FakeCustomerRepository } from './customer-repository';
import { FakeOutbox } from './outbox';
import type { FakeTransactionRepository } from './transaction-repository';
import { writeOrStage } from './unit-of-work';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const tenantKey = (t: Tenant) => `${t.sellerId}#${t.environment}`;
/** As FakeTransactionRepository keys its map. */
const keyOf = (tenant: Tenant, id: string | number) => `${tenantKey(tenant)}#${id}`;
const sameTenant = (a: Tenant, b: Tenant) => a.sellerId === b.sellerId && a.environment === b.environment;
const jobIdOf = (p: InstallmentPlan) => jobId(p.tenant, p.uuid);
/** The hour bucket of an instant, as the adapter's due index is partitioned. */
const bucketOf = (iso: string) => iso.slice(0, 13);
/** The list's order, as the adapter's index sort keys: createdAt, then uuid (newest first). */
const listOrder = (p: InstallmentPlan) => `${p.createdAt}#${p.uuid}`;
const newestFirst = (a: InstallmentPlan, b: InstallmentPlan) => (listOrder(a) < listOrder(b) ? 1 : -1);
/** listByCustomer leaves out plans closed longer ago than this. */
const CLOSED_SHOWN_DAYS = 90;

interface Hold {
  planUuid: string;
  until: string;
}

/**
 * Installment plans in maps, with the DynamoDB repository's outcomes:
 * - create and save write the plan (with its installments), its transactions (into
 *   `transactions`, shared with the use case's deps when given), the customer's overdue count and
 *   every event in ONE outbox batch (the plan's events, then each transaction's), or nothing;
 * - create of a stored uuid, or of a stored transaction id, is ConflictError `already_exists`; more
 *   than one transaction in one change is an Error (as the adapter), nothing written; a create's
 *   `fingerprint` is held as reserveFingerprint holds it, ConflictError `fingerprint_held` when it
 *   cannot be; inside `fakeAtomically` a create is staged with the unit's other writes;
 * - save writes only on `previous.version` (ConflictError `changed`, checked first), then
 *   `already_exists` for a stored transaction id;
 * - `customerOverdueDelta` moves the customer's overdue count (never below 0): the profile's
 *   `overdueCount` in `customers` when given (nothing when the profile is missing, as the adapter),
 *   else a counter of this fake (`overdueCount(tenant, uuid)` reads either);
 * - get answers null for another seller's or environment's plan;
 * - reserveFingerprint holds a fingerprint per tenant for one plan until `until`: free, expired
 *   (`until` <= the clock's now) or the same plan's → held (its `until` replaced), true; another
 *   plan's unexpired hold → false. releaseFingerprint removes only that plan's hold;
 * - list: statuses (any) and customer, newest first (createdAt, then uuid), totalCount of every
 *   match; listByCustomer: the customer's plans except those completed or canceled more than 90
 *   days before the clock's now, newest first, at most 100;
 * - duePlans answers the plans whose `dueAt` is by `now` in the hour buckets from `hoursBack`
 *   hours ago to now, oldest bucket first and by `dueAt` (then job id) within one.
 * `clock` is the use case's clock (the adapter is given the container's): pass the test's
 * FakeClock, or fingerprint expiry and the 90 days of listByCustomer follow the system time.
 * Everything handed in or out is a deep copy. `beforeSave` runs just before save checks its
 * condition (stage a concurrent writer, or throw).
 */
export class FakeInstallmentPlanRepository implements InstallmentPlanRepository {
  readonly items = new Map<string, InstallmentPlan>();
  readonly holds = new Map<string, Hold>();
  readonly outbox = new FakeOutbox();
  readonly transactions: FakeTransactionRepository;
  readonly customers: FakeCustomerRepository | null;
  /** Overdue counts by tenant and customer uuid, when no `customers` was given. */
  readonly overdueCounts: Map<string, number>;
  beforeSave: (() => void | Promise<void>) | null = null;
  saves = 0;
  private readonly clock: Clock;
  private readonly writes: FakeChangeWrites;

  constructor(
    options: {
      transactions?: FakeTransactionRepository;
      customers?: FakeCustomerRepository;
      clock?: Clock;
    } = {},
  ) {
    this.writes = new FakeChangeWrites('An installment plan', options);
    this.transactions = this.writes.transactions;
    this.customers = this.writes.customers;
    this.overdueCounts = this.writes.overdueCounts;
    this.clock = options.clock ?? { now: () => new Date() };
  }

  /** Stores a plan as if it had been created earlier (no events). */
  seed(plan: InstallmentPlan): InstallmentPlan {
    this.items.set(keyOf(plan.tenant, plan.uuid), structuredClone(plan));
    return plan;
  }

  /** The stored plan as it is now (no copy), or undefined. */
  stored(tenant: Tenant, uuid: string): InstallmentPlan | undefined {
    return this.items.get(keyOf(tenant, uuid));
  }

  /** The customer's overdue count as the repository moved it. */
  overdueCount(tenant: Tenant, customerUuid: string): number {
    return this.writes.overdueCount(tenant, customerUuid);
  }

  async reserveFingerprint(
    tenant: Tenant,
    fingerprint: string,
    planUuid: string,
    until: string,
  ): Promise<boolean> {
    if (!this.free(tenant, fingerprint, planUuid)) return false;
    this.holds.set(keyOf(tenant, fingerprint), { planUuid, until });
    return true;
  }

  async releaseFingerprint(tenant: Tenant, fingerprint: string, planUuid: string): Promise<void> {
    const key = keyOf(tenant, fingerprint);
    if (this.holds.get(key)?.planUuid === planUuid) this.holds.delete(key);
  }

  async create(plan: InstallmentPlan, changes: InstallmentPlanChanges): Promise<void> {
    this.writes.refuseSeveralTransactions(changes);
    if (this.items.has(keyOf(plan.tenant, plan.uuid)))
      throw new ConflictError('The installment plan already exists', 'already_exists', {
        reason: 'already_exists',
      });
    this.writes.refuseStoredTransactions(changes);
    const guard = changes.fingerprint;
    await writeOrStage({
      check: () => {
        if (guard && !this.free(plan.tenant, guard.value, plan.uuid))
          throw new ConflictError('Another plan holds the fingerprint', FINGERPRINT_HELD, {
            reason: 'already_exists',
          });
      },
      apply: () => {
        if (guard)
          this.holds.set(keyOf(plan.tenant, guard.value), { planUuid: plan.uuid, until: guard.until });
        this.write(plan, changes);
      },
    });
  }

  /** Who holds a fingerprint (expired or not), as the create's read sees it. */
  hold(tenant: Tenant, fingerprint: string): Hold | null {
    return this.holds.get(keyOf(tenant, fingerprint)) ?? null;
  }

  /** Free, expired, or `planUuid`'s own. */
  private free(tenant: Tenant, fingerprint: string, planUuid: string): boolean {
    const held = this.holds.get(keyOf(tenant, fingerprint));
    return !held || held.planUuid === planUuid || held.until <= this.clock.now().toISOString();
  }

  async get(tenant: Tenant, uuid: string): Promise<InstallmentPlan | null> {
    const found = this.items.get(keyOf(tenant, uuid));
    return found ? structuredClone(found) : null;
  }

  async save(
    next: InstallmentPlan,
    previous: InstallmentPlan,
    changes: InstallmentPlanChanges,
  ): Promise<void> {
    await this.beforeSave?.();
    if (this.items.get(keyOf(previous.tenant, previous.uuid))?.version !== previous.version)
      throw new ConflictError('The installment plan changed at the same time; retry', 'concurrent_update', {
        reason: 'changed',
      });
    this.writes.refuseSeveralTransactions(changes);
    this.writes.refuseStoredTransactions(changes);
    this.write(next, changes);
    this.saves++;
  }

  async list(tenant: Tenant, q: InstallmentPlanQuery): Promise<InstallmentPlanPage> {
    const matching = this.ofTenant(tenant)
      .filter((p) => q.statuses.length === 0 || q.statuses.includes(p.status))
      .filter((p) => q.customerId === undefined || p.customer.id === q.customerId)
      .sort(newestFirst);
    const skip = (q.page - 1) * q.limit;
    return {
      items: matching.slice(skip, skip + q.limit).map((p) => structuredClone(p)),
      totalCount: matching.length,
      itemsRead: matching.length,
    };
  }

  async listByCustomer(tenant: Tenant, customerId: number): Promise<InstallmentPlan[]> {
    const cutoff = new Date(this.clock.now().getTime() - CLOSED_SHOWN_DAYS * DAY_MS).toISOString();
    const closedLongAgo = (p: InstallmentPlan) =>
      (p.status === 'completed' && (p.completedAt ?? '') < cutoff) ||
      (p.status === 'canceled' && (p.canceledAt ?? '') < cutoff);
    return this.ofTenant(tenant)
      .filter((p) => p.customer.id === customerId && !closedLongAgo(p))
      .sort(newestFirst)
      .slice(0, 100)
      .map((p) => structuredClone(p));
  }

  async duePlans(now: Date, hoursBack: number): Promise<string[]> {
    const nowIso = now.toISOString();
    const buckets = new Set<string>();
    for (let h = hoursBack; h >= 0; h--)
      buckets.add(bucketOf(new Date(now.getTime() - h * HOUR_MS).toISOString()));
    const order = (p: InstallmentPlan) => `${p.dueAt}#${jobIdOf(p)}`;
    return [...this.items.values()]
      .filter((p) => p.dueAt !== null && p.dueAt <= nowIso && buckets.has(bucketOf(p.dueAt)))
      .sort((a, b) => (order(a) < order(b) ? -1 : 1))
      .map(jobIdOf);
  }

  /** Plans of one status in a tenant (a test's shortcut). */
  withStatus(tenant: Tenant, status: PlanStatus): InstallmentPlan[] {
    return this.ofTenant(tenant).filter((p) => p.status === status);
  }

  private ofTenant(tenant: Tenant): InstallmentPlan[] {
    return [...this.items.values()].filter((p) => sameTenant(p.tenant, tenant));
  }

  private write(plan: InstallmentPlan, changes: InstallmentPlanChanges): void {
    this.items.set(keyOf(plan.tenant, plan.uuid), structuredClone(plan));
    this.writes.write(plan.tenant, plan.customer.uuid, changes, this.outbox);
  }
}
