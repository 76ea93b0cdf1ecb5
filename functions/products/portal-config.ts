import {
  effectivePortalConfig,
  portalConfigSchema,
  toConfigView,
} from '#shared/domain/products/portal-config';
import { findProduct } from '#shared/domain/products/products';
import { NotFoundError } from '#shared/errors';
import { tenantOf } from '#shared/http/tenant';
import type { HttpRequest, HttpResult } from '#shared/http/types';
import { parseInput } from '#shared/validation';
import { productDeps } from './products';

const ok = (body: unknown): HttpResult => ({ statusCode: 200, body });

/** The path id is the product's UUID or its integer id (spec); archived products keep their configuration. */
async function productId(req: HttpRequest) {
  return (await findProduct(productDeps(req), tenantOf(req), req.pathParams.id, { includeArchived: true }))
    .id;
}

export async function getProductConfig(req: HttpRequest) {
  return ok(toConfigView(await req.deps.repos.portalConfigs.get(tenantOf(req), await productId(req))));
}

export async function replaceProductConfig(req: HttpRequest) {
  const fields = parseInput(portalConfigSchema, req.body ?? {});
  const id = await productId(req);
  const now = req.deps.clock.now().toISOString();
  return ok(toConfigView(await req.deps.repos.portalConfigs.replace(tenantOf(req), id, fields, now)));
}

export async function patchProductConfig(req: HttpRequest) {
  const fields = parseInput(portalConfigSchema, req.body ?? {});
  const id = await productId(req);
  const now = req.deps.clock.now().toISOString();
  return ok(toConfigView(await req.deps.repos.portalConfigs.merge(tenantOf(req), id, fields, now)));
}

export async function deleteProductConfig(req: HttpRequest) {
  const id = await productId(req);
  const deleted = await req.deps.repos.portalConfigs.delete(tenantOf(req), id);
  if (!deleted) throw new NotFoundError('Portal configuration not found');
  return ok({ productId: id, deleted: true });
}

export async function effectiveProductConfig(req: HttpRequest) {
  const { product, seller } = await req.deps.repos.portalConfigs.getBoth(tenantOf(req), await productId(req));
  return ok(effectivePortalConfig(product, seller));
}

export async function getSellerConfig(req: HttpRequest) {
  return ok(toConfigView(await req.deps.repos.portalConfigs.get(tenantOf(req))));
}

export async function putSellerConfig(req: HttpRequest) {
  const fields = parseInput(portalConfigSchema, req.body ?? {});
  const now = req.deps.clock.now().toISOString();
  return ok(toConfigView(await req.deps.repos.portalConfigs.replace(tenantOf(req), undefined, fields, now)));
}
