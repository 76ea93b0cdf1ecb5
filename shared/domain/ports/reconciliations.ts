import type { Reconciliation } from '#shared/domain/reconciliation/reconciliation';
import type { Tenant } from '#shared/domain/tenant';

/** The daily reconciliation records, one per tenant, provider and day, under the tenant. */
export interface ReconciliationRepository {
  /** Stores the record unless one with its id exists: false then (the day was reconciled already). */
  create(r: Reconciliation): Promise<boolean>;
  get(tenant: Tenant, id: string): Promise<Reconciliation | null>;
  /** Newest day first. */
  list(
    tenant: Tenant,
    page: { limit: number; cursor?: string },
  ): Promise<{ items: Reconciliation[]; cursor?: string }>;
}
