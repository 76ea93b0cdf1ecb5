import type { DayFigures } from '#shared/domain/dashboard/figures';
import type { DomainEvent } from '#shared/domain/events/events';
import type { Tenant } from '#shared/domain/tenant';
import type { TransactionSearch } from '#shared/domain/transactions/search';
import type { Transaction, TransactionStatus } from '#shared/domain/transactions/transaction';

export interface TransactionQuery {
  page: number;
  limit: number;
  status?: TransactionStatus;
  paymentMethod?: Transaction['paymentMethod'];
  productId?: number;
  /** One customer (or any of several). */
  customerIds?: number[];
  /** The buyer's name, e-mail or document (search.ts): newest first, every match counted. */
  search?: TransactionSearch;
  /** ISO instants: created at or after `createdFrom`, strictly before `createdBefore`. */
  createdFrom?: string;
  createdBefore?: string;
  cursor?: string;
  /** False for cursor pages that show no total (they never read ahead just to count). */
  countTotal?: boolean;
}

export interface TransactionPage {
  items: Transaction[];
  totalCount: number;
  /** Items DynamoDB read to build the page (the bench reports it per filter). */
  itemsRead: number;
  /**
   * Where the next page starts; absent on the last. A page may hold fewer rows than asked (a
   * filtered read stops at its read budget) and still have a next one.
   */
  cursor?: string;
  /** A search that matches more than SEARCH_READ_LIMIT index entries: nothing is answered (400). */
  tooBroad?: boolean;
}

export interface TransactionRepository {
  nextId(): Promise<number>;
  /**
   * The transaction with its counters and events, all or nothing. Throws ConflictError reason
   * `already_exists` when its id is taken. Inside Atomically, with the sale's other writes.
   */
  create(t: Transaction, events: DomainEvent[]): Promise<void>;
  get(tenant: Tenant, id: number): Promise<Transaction | null>;
  findByUuid(uuid: string): Promise<Transaction | null>;
  /** Every tenant's and provider's transactions with this provider id: callers pick theirs. */
  findByGatewayPayId(gatewayPayId: number): Promise<Transaction[]>;
  /**
   * Writes `next` if the stored version is still `previous.version`, with its events and, for a
   * provider notification, a marker that makes a repeat of the same notification a no-op. Throws
   * ConflictError: reason `already_exists` (`duplicate_notification`) for a repeated notification,
   * reason `changed` (`concurrent_update`) when the transaction changed since it was read.
   */
  save(
    next: Transaction,
    previous: Transaction,
    events: DomainEvent[],
    notification?: { provider: string; id: string },
  ): Promise<void>;
  list(tenant: Tenant, query: TransactionQuery): Promise<TransactionPage>;
  /**
   * The tenant's daily figures (shared/domain/dashboard/figures.ts) of the days of `ranges`
   * (inclusive YYYY-MM-DD bounds), kept by the transactions' own writes: O(days) items, never
   * O(transactions). A day nothing touched may be absent; days just outside a range may be present.
   */
  dailyFigures(
    tenant: Tenant,
    ranges: readonly { from: string; to: string }[],
  ): Promise<{ days: Map<string, DayFigures>; itemsRead: number }>;
  /** Expiry job ids of pending pix charges already due, from the last `hoursBack` hours of buckets. */
  duePixExpiries(now: Date, hoursBack: number): Promise<string[]>;
}
