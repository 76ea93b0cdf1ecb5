import type { DomainEvent } from '#shared/domain/events/events';
import type {
  Attempt,
  ChargeStatus,
  ChargeType,
  Cycle,
  NewTimelineEntry,
  ScheduledCharge,
  TimelineEntry,
} from '#shared/domain/scheduled-charges/charge';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction } from '#shared/domain/transactions/transaction';

/** What one state change writes together with the charge, all or nothing. */
export interface ScheduledChargeChanges {
  /** Outbox events (webhooks). */
  events: DomainEvent[];
  /** Timeline entries; the repository gives them ids and `createdAt` = the written charge's `updatedAt`. */
  timeline: NewTimelineEntry[];
  /** Attempts to write (new ones, with ids from `nextAttemptId`) or to overwrite (same id). */
  attempts?: Attempt[];
  /**
   * Transactions made by this change (a card charge, an issued pix or boleto), with their events;
   * ConflictError `already_exists` when one is stored. At most ONE per change: a tenant's new
   * transactions share their list counters, and one atomic write cannot change a counter twice
   * (the repository throws an Error for more, writing nothing).
   */
  transactions?: { record: Transaction; events: DomainEvent[] }[];
  /**
   * The customer's overdue count moves by `delta` in the same transaction (its marker flips on
   * 0 → 1 and 1 → 0, as CustomerRepository.adjustOverdue does), so GET /api/v1/customers?status=overdue
   * never disagrees with the charges.
   */
  customerOverdueDelta?: number;
}

export interface ScheduledChargeQuery {
  /** Any of these statuses (empty: all). */
  statuses: ChargeStatus[];
  customerId?: number;
  type?: ChargeType;
  /** Inclusive bounds on dueDate, YYYY-MM-DD. */
  dueDateFrom?: string;
  dueDateTo?: string;
  /** Customer name prefix, e-mail or document (digits). */
  search?: string;
  page: number;
  limit: number;
}

export interface ScheduledChargePage {
  items: ScheduledCharge[];
  totalCount: number;
  /** Items DynamoDB read to build the page (the bench reports it). */
  itemsRead: number;
}

export interface ScheduledChargeRepository {
  /** From the `scheduled-charge-attempt` sequence. */
  nextAttemptId(): Promise<number>;
  /** Writes a new charge with its cycles and changes; ConflictError (`already_exists`) when the id is taken. */
  create(charge: ScheduledCharge, changes: ScheduledChargeChanges): Promise<void>;
  /** The charge with every cycle (strongly consistent), or null (another tenant's answers null too). */
  get(tenant: Tenant, id: string): Promise<ScheduledCharge | null>;
  /**
   * Writes `next` (charge and the cycles that differ from `previous`'s) if the stored version is
   * still `previous.version`, with its changes, in one transaction. The caller sets
   * `next.version = previous.version + 1`. The timeline entries get the ids after
   * `previous.timelineSeq`, and the stored counter moves by their number (as `saveCharge` answers it).
   * ConflictError (reason `changed`) when the charge changed since it was read; nothing is written then.
   */
  save(next: ScheduledCharge, previous: ScheduledCharge, changes: ScheduledChargeChanges): Promise<void>;
  list(tenant: Tenant, query: ScheduledChargeQuery): Promise<ScheduledChargePage>;
  /** The charge's timeline, newest first, at most `limit` (default 100). */
  timeline(tenant: Tenant, chargeId: string, limit?: number): Promise<TimelineEntry[]>;
  /** Attempts of the charge across cycles (or of one cycle), newest first, paged. */
  attempts(
    tenant: Tenant,
    chargeId: string,
    query: { cycleNumber?: number; page: number; limit: number },
  ): Promise<{ items: Attempt[]; totalCount: number }>;
  /** The charge and cycle a pay token names (any tenant: the link is public), or null. */
  findByPayToken(payToken: string): Promise<{ charge: ScheduledCharge; cycle: Cycle } | null>;
  /**
   * Every open charge of one customer (minha-área, the portal), newest first, at most 100; with
   * `closedSince` (an ISO instant) also the paid or canceled ones last changed at or after it.
   */
  listByCustomer(
    tenant: Tenant,
    customerId: number,
    options?: { closedSince?: string },
  ): Promise<ScheduledCharge[]>;
  /**
   * Job ids (`<sellerId>:<environment>:<chargeId>`) of charges whose `dueAt` is by `now`, from the
   * hour buckets of the last `hoursBack` hours (the heartbeat's backstop).
   */
  dueCharges(now: Date, hoursBack: number): Promise<string[]>;
}
