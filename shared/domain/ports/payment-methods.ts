import type { DomainEvent } from '#shared/domain/events/events';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import type { Tenant } from '#shared/domain/tenant';

export interface PaymentMethodRepository {
  nextId(): Promise<number>;
  /**
   * Writes a new payment method. A customer has one method per card: when the tenant already keeps
   * this customer's card with the same provider, brand, last 4 and expiry, throws ConflictError
   * (reason `already_exists`, `current` = the stored method) and writes nothing.
   */
  create(pm: PaymentMethod): Promise<void>;
  get(tenant: Tenant, id: number): Promise<PaymentMethod | null>;
  /** The customer's methods, newest first, at most PAYMENT_METHOD_LIST_LIMIT. */
  listByCustomer(tenant: Tenant, customerUuid: string): Promise<PaymentMethod[]>;
  /**
   * Writes `next` and its events in one transaction, on the version of `previous`. Throws
   * ConflictError (reason `changed`) when the stored method changed or was deleted since it was read.
   */
  save(next: PaymentMethod, previous: PaymentMethod, events: DomainEvent[]): Promise<void>;
  /** Deletes the method read as `current` (and its duplicate guard); ConflictError `changed` as save. */
  delete(current: PaymentMethod): Promise<void>;
  /**
   * Job ids (`<sellerId>:<environment>:<id>`) of the methods whose next expiry step was due by `now`,
   * in the index buckets of this month and the `monthsBack` before it, at most 100 per bucket.
   */
  dueExpirySteps(now: Date, monthsBack: number): Promise<string[]>;
}
