import type { Affiliation, AffiliationStatus } from '#shared/domain/affiliates/affiliation';
import type { Tenant } from '#shared/domain/tenant';

/** A product's affiliations, one per (product, affiliate), kept in the product's tenant. */
export interface AffiliationRepository {
  /**
   * Writes `affiliation` (active) when the pair has none or only an ended one, which it replaces,
   * in one write that also requires the affiliate to be an existing seller. Throws
   * UnknownAffiliateError when no seller has that id, else ConflictError (`already_exists`) when
   * the pair's affiliation is active; nothing is written then.
   */
  add(affiliation: Affiliation): Promise<void>;
  /** The pair's affiliation, active or ended, or null. */
  get(tenant: Tenant, productId: number, affiliateId: number): Promise<Affiliation | null>;
  /** Every affiliation of the product (of that status, when given), by affiliate id, in one query. */
  listByProduct(tenant: Tenant, productId: number, status?: AffiliationStatus): Promise<Affiliation[]>;
  /**
   * Ends the pair's active affiliation (`endedAt` = `updatedAt` = `now`) and answers it; null when
   * the pair has none. An ended one is left as it is: ConflictError (`invalid_state`) carrying it
   * as `current`.
   */
  end(tenant: Tenant, productId: number, affiliateId: number, now: string): Promise<Affiliation | null>;
}
