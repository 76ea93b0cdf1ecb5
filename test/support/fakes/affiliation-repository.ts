import {
  AFFILIATION_EXISTS,
  type Affiliation,
  type AffiliationStatus,
  UnknownAffiliateError,
} from '#shared/domain/affiliates/affiliation';
import type { AffiliationRepository, SellerRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';

const keyOf = (tenant: Tenant, productId: number, affiliateId: number) =>
  `${tenant.sellerId}#${tenant.environment}#${productId}#${affiliateId}`;

/**
 * Affiliations in a map, with the DynamoDB repository's outcomes: add requires the affiliate to be
 * a seller of the seller repository it is given (UnknownAffiliateError) and refuses an active pair
 * (ConflictError `already_exists`), replacing an ended one; end answers null for a missing pair and
 * throws ConflictError (`invalid_state`, the stored one as `current`) for an ended one.
 */
export class FakeAffiliationRepository implements AffiliationRepository {
  readonly items = new Map<string, Affiliation>();
  writes = 0;

  constructor(private readonly sellers: Pick<SellerRepository, 'exists'>) {}

  /** Stores an affiliation as if it had been added earlier (no seller check). */
  seed(affiliation: Affiliation): Affiliation {
    this.items.set(
      keyOf(affiliation.tenant, affiliation.productId, affiliation.affiliateId),
      structuredClone(affiliation),
    );
    return affiliation;
  }

  async add(affiliation: Affiliation): Promise<void> {
    if (!(await this.sellers.exists(affiliation.affiliateId))) throw new UnknownAffiliateError();
    const key = keyOf(affiliation.tenant, affiliation.productId, affiliation.affiliateId);
    if (this.items.get(key)?.status === 'active')
      throw new ConflictError(AFFILIATION_EXISTS, 'already_exists', { reason: 'already_exists' });
    this.items.set(key, structuredClone(affiliation));
    this.writes++;
  }

  async get(tenant: Tenant, productId: number, affiliateId: number): Promise<Affiliation | null> {
    const found = this.items.get(keyOf(tenant, productId, affiliateId));
    return found ? structuredClone(found) : null;
  }

  async listByProduct(tenant: Tenant, productId: number, status?: AffiliationStatus): Promise<Affiliation[]> {
    return [...this.items.values()]
      .filter(
        (a) =>
          a.tenant.sellerId === tenant.sellerId &&
          a.tenant.environment === tenant.environment &&
          a.productId === productId &&
          (status === undefined || a.status === status),
      )
      .sort((a, b) => a.affiliateId - b.affiliateId)
      .map((a) => structuredClone(a));
  }

  async end(
    tenant: Tenant,
    productId: number,
    affiliateId: number,
    now: string,
  ): Promise<Affiliation | null> {
    const key = keyOf(tenant, productId, affiliateId);
    const found = this.items.get(key);
    if (!found) return null;
    if (found.status !== 'active')
      throw new ConflictError('The affiliation has already ended', 'invalid_state', {
        reason: 'invalid_state',
        current: structuredClone(found),
      });
    const ended: Affiliation = { ...found, status: 'ended', endedAt: now, updatedAt: now };
    this.items.set(key, ended);
    this.writes++;
    return structuredClone(ended);
  }
}
