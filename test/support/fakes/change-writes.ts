import type { DomainEvent } from '#shared/domain/events/events';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { ConflictError } from '#shared/errors';
import type { FakeCustomerRepository } from './customer-repository';
import type { FakeOutbox } from './outbox';
import { FakeTransactionRepository } from './transaction-repository';

/** As FakeTransactionRepository and FakeCustomerRepository key their maps. */
const keyOf = (tenant: Tenant, id: string | number) => `${tenant.sellerId}#${tenant.environment}#${id}`;

/** The part of a change the scheduled-charge and installment-plan repositories write beside their item. */
export interface ChangeWrites {
  events: DomainEvent[];
  transactions?: { record: Transaction; events: DomainEvent[] }[];
  customerOverdueDelta?: number;
}

/**
 * What the DynamoDB repositories write with a scheduled charge or an installment plan, in memory:
 * its new transactions (into `transactions`, shared with the use case's deps when given), the
 * customer's overdue count (the profile's `overdueCount` in `customers` when given, nothing when
 * the profile is missing, as the adapter; else a counter kept here), and one outbox batch.
 */
export class FakeChangeWrites {
  readonly transactions: FakeTransactionRepository;
  readonly customers: FakeCustomerRepository | null;
  /** Overdue counts by tenant and customer uuid, when no `customers` was given. */
  readonly overdueCounts = new Map<string, number>();

  /** `entity` names the change in the Error of several transactions ("A scheduled charge"). */
  constructor(
    private readonly entity: string,
    options: { transactions?: FakeTransactionRepository; customers?: FakeCustomerRepository } = {},
  ) {
    this.transactions = options.transactions ?? new FakeTransactionRepository();
    this.customers = options.customers ?? null;
  }

  /** The customer's overdue count as the writes moved it. */
  overdueCount(tenant: Tenant, customerUuid: string): number {
    if (this.customers) return this.customers.profile(tenant, customerUuid)?.overdueCount ?? 0;
    return this.overdueCounts.get(keyOf(tenant, customerUuid)) ?? 0;
  }

  /** As the adapter: two new transactions of a tenant would write the same counter items twice. */
  refuseSeveralTransactions(changes: ChangeWrites): void {
    if ((changes.transactions?.length ?? 0) > 1)
      throw new Error(
        `${this.entity} change writes at most one new transaction (their tenant counters are shared items)`,
      );
  }

  refuseStoredTransactions(changes: ChangeWrites): void {
    for (const { record } of changes.transactions ?? [])
      if (this.transactions.items.has(keyOf(record.tenant, record.id)))
        throw new ConflictError('The transaction already exists', 'already_exists', {
          reason: 'already_exists',
        });
  }

  /** The transactions, the overdue count and every event (the entity's, then each transaction's). */
  write(tenant: Tenant, customerUuid: string, changes: ChangeWrites, outbox: FakeOutbox): void {
    for (const { record } of changes.transactions ?? [])
      this.transactions.items.set(keyOf(record.tenant, record.id), structuredClone(record));
    if (changes.customerOverdueDelta) this.adjustOverdue(tenant, customerUuid, changes.customerOverdueDelta);
    outbox.write([...changes.events, ...(changes.transactions ?? []).flatMap((t) => t.events)]);
  }

  private adjustOverdue(tenant: Tenant, uuid: string, delta: number): void {
    if (this.customers) {
      const profile = this.customers.profile(tenant, uuid);
      if (profile)
        this.customers.profiles.set(keyOf(tenant, uuid), {
          ...profile,
          overdueCount: Math.max(0, profile.overdueCount + delta),
        });
      return;
    }
    const key = keyOf(tenant, uuid);
    this.overdueCounts.set(key, Math.max(0, (this.overdueCounts.get(key) ?? 0) + delta));
  }
}
