import type { Deps } from '#shared/domain/deps';
import type { PriceRepository } from '#shared/domain/ports';
import { findProduct, PRODUCT_NOT_FOUND, productRefOf } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import { isConflict, NotFoundError } from '#shared/errors';
import { looksLikeNumericId, looksLikeUuid } from '#shared/ids';
import { PRICE_NOT_FOUND, type SubscriptionPrice, toPriceView } from './price';
import type { CreatePriceInput } from './schemas';

export type PriceDeps = Pick<Deps, 'prices' | 'products' | 'clock' | 'ids'>;

/**
 * POST /api/products/{id}/prices: a recurring price of an active product of the tenant (a
 * deactivated product sells nothing, so it answers 404 as for affiliates). No webhook: the spec's
 * catalog has no price event.
 */
export async function createPrice(
  deps: PriceDeps,
  tenant: Tenant,
  productRef: string,
  input: CreatePriceInput,
) {
  const product = await findProduct(deps, tenant, productRef);
  const now = deps.clock.now().toISOString();
  const price: SubscriptionPrice = {
    id: await deps.prices.nextId(),
    uuid: deps.ids.uuid(),
    tenant,
    product: { id: product.id, uuid: product.uuid, name: product.name },
    name: input.name,
    unitAmount: input.unitAmount,
    billingInterval: input.billingInterval,
    intervalCount: input.intervalCount,
    trialDays: input.trialDays,
    isActive: true,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await deps.prices.create(price);
  return toPriceView(price);
}

/**
 * GET /api/products/{id}/prices, newest first; `active` filters by state. By integer id the list is
 * read first and the product only when it comes back empty (a price lives under its product's
 * tenant), so a product with prices costs one query. Deactivated products keep listing theirs.
 */
export async function listPrices(
  deps: Pick<PriceDeps, 'prices' | 'products'>,
  tenant: Tenant,
  productRef: string,
  active?: boolean,
) {
  const ref = productRefOf(productRef);
  if (!ref) throw new NotFoundError(PRODUCT_NOT_FOUND);
  let found: SubscriptionPrice[];
  if ('id' in ref) {
    found = await deps.prices.listByProduct(tenant, ref.id);
    if (found.length === 0) await findProduct(deps, tenant, productRef, { includeArchived: true });
  } else {
    const product = await findProduct(deps, tenant, productRef, { includeArchived: true });
    found = await deps.prices.listByProduct(tenant, product.id);
  }
  const shown = active === undefined ? found : found.filter((p) => p.isActive === active);
  return { data: shown.map(toPriceView) };
}

/** A price of the tenant by its numeric id or uuid (any product, active or not); null for neither. */
export async function findPriceByRef(
  deps: { prices: Pick<PriceRepository, 'get' | 'findByUuid'> },
  tenant: Tenant,
  ref: string,
): Promise<SubscriptionPrice | null> {
  if (looksLikeNumericId(ref)) return deps.prices.get(tenant, Number(ref));
  if (looksLikeUuid(ref)) return deps.prices.findByUuid(tenant, ref.toLowerCase());
  return null;
}

/**
 * What a checkout session's `price_id` names: an active price of that product, by id or uuid;
 * null for anything else (the caller says which field was wrong).
 */
export async function resolvePrice(
  deps: { prices: Pick<PriceRepository, 'get' | 'findByUuid'> },
  tenant: Tenant,
  productId: number,
  ref: string,
): Promise<SubscriptionPrice | null> {
  const price = await findPriceByRef(deps, tenant, ref);
  return price?.isActive && price.product.id === productId ? price : null;
}

/**
 * DELETE /api/products/{id}/prices/{priceId}: the price stops being offered (new sessions and
 * subscriptions refuse it); subscriptions already on it keep renewing at their snapshot. Prices are
 * never deleted (Stripe archives them too). A deactivated price answers as it is (DELETE is safe to
 * retry). By integer product id the price is read first and the product only to tell a missing
 * product from a missing price.
 */
export async function deactivatePrice(
  deps: Pick<PriceDeps, 'prices' | 'products' | 'clock'>,
  tenant: Tenant,
  productRef: string,
  priceRef: string,
) {
  const ref = productRefOf(productRef);
  if (!ref) throw new NotFoundError(PRODUCT_NOT_FOUND);
  const productId =
    'id' in ref ? ref.id : (await findProduct(deps, tenant, productRef, { includeArchived: true })).id;
  const price = await findPriceByRef(deps, tenant, priceRef);
  if (!price || price.product.id !== productId) {
    if ('id' in ref) await findProduct(deps, tenant, productRef, { includeArchived: true });
    throw new NotFoundError(PRICE_NOT_FOUND);
  }
  return toPriceView(await deactivate(deps, price));
}

async function deactivate(
  deps: Pick<PriceDeps, 'prices' | 'clock'>,
  price: SubscriptionPrice,
): Promise<SubscriptionPrice> {
  if (!price.isActive) return price;
  const next: SubscriptionPrice = {
    ...price,
    isActive: false,
    updatedAt: deps.clock.now().toISOString(),
    version: price.version + 1,
  };
  try {
    await deps.prices.save(next, price);
    return next;
  } catch (error) {
    // Another request changed it first: if that one deactivated it, this DELETE is done too.
    if (!isConflict(error, 'changed')) throw error;
    const current = await deps.prices.get(price.tenant, price.id);
    if (current && !current.isActive) return current;
    throw error;
  }
}
