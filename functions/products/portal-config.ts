import {
  effectivePortalConfig,
  portalConfigSchema,
  toConfigView,
} from '#shared/domain/products/portal-config';
import { findProduct, PRODUCT_NOT_FOUND } from '#shared/domain/products/products';
import { NotFoundError } from '#shared/errors';
import { tenantOf } from '#shared/http/tenant';
import { type HttpRequest, ok } from '#shared/http/types';
import { looksLikeUuid } from '#shared/ids';
import { parseInput } from '#shared/validation';
import { productDeps } from './products';

/** The path id is the product's UUID or its integer id (spec); archived products keep their configuration. */
const refOf = (raw: string) => (/^\d{1,15}$/.test(raw) ? { id: Number(raw) } : { uuid: raw.toLowerCase() });

/** Reads the product and its configuration together (one batch or one query). */
async function readConfig(req: HttpRequest, withSeller: boolean) {
  const raw = req.pathParams.id;
  if (!/^\d{1,15}$/.test(raw) && !looksLikeUuid(raw)) throw new NotFoundError(PRODUCT_NOT_FOUND);
  const found = await req.deps.repos.portalConfigs.readForProduct(tenantOf(req), refOf(raw), withSeller);
  if (found.productId === null) throw new NotFoundError(PRODUCT_NOT_FOUND);
  return found;
}

async function productOf(req: HttpRequest) {
  return findProduct(productDeps(req), tenantOf(req), req.pathParams.id, { includeArchived: true });
}

export const getProductConfig = async (req: HttpRequest) =>
  ok(toConfigView((await readConfig(req, false)).product));

export async function effectiveProductConfig(req: HttpRequest) {
  const { product, seller } = await readConfig(req, true);
  return ok(effectivePortalConfig(product, seller));
}

export async function replaceProductConfig(req: HttpRequest) {
  const fields = parseInput(portalConfigSchema, req.body ?? {});
  const product = await productOf(req);
  const now = req.deps.clock.now().toISOString();
  return ok(
    toConfigView(
      await req.deps.repos.portalConfigs.replace(tenantOf(req), product.id, fields, now, product.uuid),
    ),
  );
}

export async function patchProductConfig(req: HttpRequest) {
  const fields = parseInput(portalConfigSchema, req.body ?? {});
  const product = await productOf(req);
  const now = req.deps.clock.now().toISOString();
  return ok(
    toConfigView(
      await req.deps.repos.portalConfigs.merge(tenantOf(req), product.id, fields, now, product.uuid),
    ),
  );
}

export async function deleteProductConfig(req: HttpRequest) {
  const product = await productOf(req);
  const deleted = await req.deps.repos.portalConfigs.delete(tenantOf(req), product.id);
  if (!deleted) throw new NotFoundError('Portal configuration not found');
  return ok({ productId: product.id, deleted: true });
}

export async function getSellerConfig(req: HttpRequest) {
  return ok(toConfigView(await req.deps.repos.portalConfigs.get(tenantOf(req))));
}

export async function putSellerConfig(req: HttpRequest) {
  const fields = parseInput(portalConfigSchema, req.body ?? {});
  const now = req.deps.clock.now().toISOString();
  return ok(toConfigView(await req.deps.repos.portalConfigs.replace(tenantOf(req), undefined, fields, now)));
}
