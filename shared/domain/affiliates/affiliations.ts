import type { Deps } from '#shared/domain/deps';
import type { AffiliationRepository } from '#shared/domain/ports';
import { findProduct, PRODUCT_NOT_FOUND, productRefOf } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import { isConflict, NotFoundError, ValidationError } from '#shared/errors';
import { looksLikeNumericId } from '#shared/ids';
import {
  AFFILIATION_NOT_FOUND,
  type Affiliation,
  type AffiliationStatus,
  toAffiliationView,
} from './affiliation';
import type { AddAffiliationInput } from './schemas';

export type AffiliationDeps = Pick<Deps, 'affiliations' | 'products' | 'clock'>;

/**
 * Adds an affiliate to an active product of the tenant. Two round trips: the product, then one
 * write that also checks the affiliate is a seller. Re-adding an ended affiliation starts it again
 * with the new commission; an active one is a 409 (docs/decisions.md, "Affiliates").
 */
export async function addAffiliation(
  deps: AffiliationDeps,
  tenant: Tenant,
  productRef: string,
  input: AddAffiliationInput,
) {
  const product = await findProduct(deps, tenant, productRef);
  if (input.affiliateId === product.tenant.sellerId)
    throw new ValidationError(["affiliateId cannot be the product's own seller"]);
  const now = deps.clock.now().toISOString();
  const affiliation: Affiliation = {
    tenant,
    productId: product.id,
    affiliateId: input.affiliateId,
    commissionBasisPoints: input.commissionPercent,
    status: 'active',
    createdAt: now,
    updatedAt: now,
    endedAt: null,
  };
  await deps.affiliations.add(affiliation);
  return toAffiliationView(affiliation);
}

/**
 * A product's affiliations (deactivated products keep theirs). By integer id the list is read
 * first and the product only when it is empty (an affiliation exists only under its product's
 * tenant), so a product with affiliates costs one query.
 */
export async function listAffiliations(
  deps: Pick<AffiliationDeps, 'affiliations' | 'products'>,
  tenant: Tenant,
  productRef: string,
  status?: AffiliationStatus,
) {
  const ref = productRefOf(productRef);
  if (!ref) throw new NotFoundError(PRODUCT_NOT_FOUND);
  let found: Affiliation[];
  if ('id' in ref) {
    found = await deps.affiliations.listByProduct(tenant, ref.id, status);
    if (found.length === 0) await findProduct(deps, tenant, productRef, { includeArchived: true });
  } else {
    const product = await findProduct(deps, tenant, productRef, { includeArchived: true });
    found = await deps.affiliations.listByProduct(tenant, product.id, status);
  }
  return { data: found.map(toAffiliationView) };
}

/**
 * Ends an affiliation: later sales can no longer name the affiliate; past sales keep their
 * commission. Ending an ended one answers it unchanged (DELETE is safe to retry).
 */
export async function endAffiliation(
  deps: AffiliationDeps,
  tenant: Tenant,
  productRef: string,
  rawAffiliateId: string,
) {
  const ref = productRefOf(productRef);
  if (!ref) throw new NotFoundError(PRODUCT_NOT_FOUND);
  const affiliateId = looksLikeNumericId(rawAffiliateId) ? Number(rawAffiliateId) : null;
  let productId = 'id' in ref ? ref.id : null;
  if (productId === null || affiliateId === null)
    productId = (await findProduct(deps, tenant, productRef, { includeArchived: true })).id;
  if (affiliateId === null) throw new NotFoundError(AFFILIATION_NOT_FOUND);
  try {
    const ended = await deps.affiliations.end(tenant, productId, affiliateId, deps.clock.now().toISOString());
    if (ended) return toAffiliationView(ended);
  } catch (error) {
    if (isConflict<Affiliation>(error, 'invalid_state') && error.current)
      return toAffiliationView(error.current);
    throw error;
  }
  // No such affiliation: a product of another tenant answers as a missing product.
  if ('id' in ref) await findProduct(deps, tenant, productRef, { includeArchived: true });
  throw new NotFoundError(AFFILIATION_NOT_FOUND);
}

/**
 * For sales (checkout sessions, carnês): the product's active affiliation with that affiliate, or
 * null. One consistent read.
 */
export async function findActiveAffiliation(
  deps: { affiliations: Pick<AffiliationRepository, 'get'> },
  tenant: Tenant,
  productId: number,
  affiliateId: number,
): Promise<Affiliation | null> {
  const found = await deps.affiliations.get(tenant, productId, affiliateId);
  return found?.status === 'active' ? found : null;
}

/**
 * findActiveAffiliation for a request field: a 400 naming `field` when the affiliate has no active
 * affiliation on the product (spec, carnê: "must have an active affiliation on the product").
 */
export async function requireActiveAffiliation(
  deps: { affiliations: Pick<AffiliationRepository, 'get'> },
  tenant: Tenant,
  productId: number,
  affiliateId: number,
  field = 'affiliate_id',
): Promise<Affiliation> {
  const found = await findActiveAffiliation(deps, tenant, productId, affiliateId);
  if (!found) throw new ValidationError([`${field} must be an active affiliate of the product`]);
  return found;
}
