import type { DomainEvent } from '#shared/domain/events/events';
import type { InstallmentPlan, PlanStatus } from '#shared/domain/installment-plans/plan';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction } from '#shared/domain/transactions/transaction';

/** What one state change writes together with the plan, all or nothing. */
export interface InstallmentPlanChanges {
  /** Outbox events (webhooks). */
  events: DomainEvent[];
  /**
   * A boleto issued by this change, with its events; ConflictError `already_exists` when stored.
   * At most ONE per change (a tenant's new transactions share their list counters, and one
   * atomic write cannot change a counter twice); the repository throws an Error for more.
   */
  transactions?: { record: Transaction; events: DomainEvent[] }[];
  /**
   * The customer's overdue count moves by `delta` in the same transaction (its marker flips on
   * 0 → 1 and 1 → 0, exactly as ScheduledChargeRepository does), so
   * GET /api/v1/customers?status=overdue counts carnê installments too.
   */
  customerOverdueDelta?: number;
  /**
   * A create's duplicate guard, held for the plan in the same write (issue 17): as
   * reserveFingerprint, free, expired or this plan's; another plan's unexpired hold writes nothing
   * and throws ConflictError code `fingerprint_held` (reason `already_exists`).
   */
  fingerprint?: { value: string; until: string };
}

export interface InstallmentPlanQuery {
  /** Any of these statuses (empty: all). */
  statuses: PlanStatus[];
  customerId?: number;
  page: number;
  limit: number;
}

export interface InstallmentPlanPage {
  /** Newest first (createdAt, then uuid). */
  items: InstallmentPlan[];
  totalCount: number;
  /** Items DynamoDB read to build the page (a bench reports it). */
  itemsRead: number;
}

export interface InstallmentPlanRepository {
  /**
   * The duplicate guard (decisions: "Installment plans (issue 14)"): holds `fingerprint` for `planUuid` until
   * `until` (ISO instant). True when it is now held for this plan (free, expired, or already this
   * plan's); false when another plan holds it unexpired. Called before the provider registers a boleto.
   */
  reserveFingerprint(tenant: Tenant, fingerprint: string, planUuid: string, until: string): Promise<boolean>;
  /** Gives the guard up when the creation that reserved it failed (only this plan's hold is removed). */
  releaseFingerprint(tenant: Tenant, fingerprint: string, planUuid: string): Promise<void>;
  /** Writes a new plan with its installments and changes; ConflictError `already_exists` when the uuid is taken. */
  create(plan: InstallmentPlan, changes: InstallmentPlanChanges): Promise<void>;
  /** The plan with every installment (strongly consistent), or null (another tenant's answers null too). */
  get(tenant: Tenant, uuid: string): Promise<InstallmentPlan | null>;
  /**
   * Writes `next` if the stored version is still `previous.version`, with its changes, in one
   * transaction. The caller sets `next.version = previous.version + 1`. ConflictError (reason
   * `changed`) when the plan changed since it was read; nothing is written then.
   */
  save(next: InstallmentPlan, previous: InstallmentPlan, changes: InstallmentPlanChanges): Promise<void>;
  list(tenant: Tenant, query: InstallmentPlanQuery): Promise<InstallmentPlanPage>;
  /** Every plan of one customer not completed or canceled more than 90 days ago, newest first, at most 100 (minha-área). */
  listByCustomer(tenant: Tenant, customerId: number): Promise<InstallmentPlan[]>;
  /**
   * Job ids (`<sellerId>:<environment>:<uuid>`) of plans whose `dueAt` is by `now`, from the hour
   * buckets of the last `hoursBack` hours (the heartbeat's backstop; shared/adapters/dynamodb/due-buckets.ts).
   */
  duePlans(now: Date, hoursBack: number): Promise<string[]>;
}
