import type { BillingInterval } from '#shared/domain/subscriptions/price';
import type { Tenant } from '#shared/domain/tenant';
import type { ClockDueItem, TestClock } from '#shared/domain/test-clocks/test-clock';

export interface TestClockRepository {
  /**
   * Writes a new clock and counts it, in one write; TestClockLimitError when the tenant already
   * has `max` clocks.
   */
  create(clock: TestClock, max: number): Promise<void>;
  get(tenant: Tenant, id: string): Promise<TestClock | null>;
  /** The tenant's clocks, newest first. */
  list(
    tenant: Tenant,
    page: { limit: number; cursor?: string },
  ): Promise<{ items: TestClock[]; cursor?: string }>;
  /** Writes `next` on `previous`'s version; ConflictError `changed` when another write came first. */
  save(next: TestClock, previous: TestClock): Promise<void>;
  /** Deletes the clock and frees its slot, in one write; false when there was none. */
  delete(tenant: Tenant, id: string): Promise<boolean>;
  /** The deletion job ids of the clocks whose `deletesAfter` is by `now`, in the last `hoursBack` hours. */
  dueDeletions(now: Date, hoursBack: number): Promise<string[]>;
  /** The clock's due index: the work due on it by `until`, earliest first. */
  dueOn(tenant: Tenant, clockId: string, until: string): Promise<ClockDueItem[]>;
  /** The billing periods of the subscriptions on the clock that still have work due. */
  subscriptionPeriods(
    tenant: Tenant,
    clockId: string,
  ): Promise<{ billingInterval: BillingInterval; intervalCount: number }[]>;
}
