import * as z from 'zod';
import {
  createProduct,
  createProductSchema,
  deactivateProduct,
  findProduct,
  listProducts,
  listQuerySchema,
  PRODUCT_NOT_FOUND,
  paymentLinkProduct,
  refuseIsActive,
  toView,
  updateProduct,
  updateProductSchema,
} from '#shared/domain/products/products';
import { NotFoundError } from '#shared/errors';
import { tenantOf } from '#shared/http/tenant';
import { type HttpRequest, ok } from '#shared/http/types';
import { looksLikeUuid } from '#shared/ids';
import { parseInput } from '#shared/validation';

export const productDeps = (req: HttpRequest) => ({
  products: req.deps.repos.products,
  clock: req.deps.clock,
  ids: req.deps.ids,
  publicBaseUrl: req.deps.config.publicBaseUrl,
  nextId: () => req.deps.table.nextId('product'),
});

const archivedQuery = z.object({ includeArchived: z.enum(['true', 'false', '1', '0']).optional() });
const includeArchived = (req: HttpRequest) => {
  const { includeArchived: flag } = parseInput(archivedQuery, req.query);
  return flag === 'true' || flag === '1';
};

export async function create(req: HttpRequest) {
  refuseIsActive(req.body);
  return ok(
    await createProduct(productDeps(req), tenantOf(req), parseInput(createProductSchema, req.body)),
    201,
  );
}

export async function get(req: HttpRequest) {
  const deps = productDeps(req);
  const product = await findProduct(deps, tenantOf(req), req.pathParams.id, {
    includeArchived: includeArchived(req),
  });
  return ok(toView(product, deps.publicBaseUrl));
}

export async function getByUuid(req: HttpRequest) {
  const deps = productDeps(req);
  const { uuid } = req.pathParams;
  if (!looksLikeUuid(uuid)) throw new NotFoundError(PRODUCT_NOT_FOUND);
  const product = await findProduct(deps, tenantOf(req), uuid, { includeArchived: includeArchived(req) });
  return ok(toView(product, deps.publicBaseUrl));
}

export const list = async (req: HttpRequest) =>
  ok(await listProducts(productDeps(req), tenantOf(req), parseInput(listQuerySchema, req.query)));

export async function update(req: HttpRequest) {
  refuseIsActive(req.body);
  return ok(
    await updateProduct(
      productDeps(req),
      tenantOf(req),
      req.pathParams.id,
      parseInput(updateProductSchema, req.body),
    ),
  );
}

export async function remove(req: HttpRequest) {
  const deps = productDeps(req);
  const tenant = tenantOf(req);
  const product = await findProduct(deps, tenant, req.pathParams.id, { includeArchived: true });
  return ok(await deactivateProduct(deps, tenant, product));
}

/** The v1 form answers only {uuid, name, value, isActive, updatedAt} (spec). */
export async function removeByUuid(req: HttpRequest) {
  const deps = productDeps(req);
  const tenant = tenantOf(req);
  const { uuid } = req.pathParams;
  if (!looksLikeUuid(uuid)) throw new NotFoundError(PRODUCT_NOT_FOUND);
  const product = await findProduct(deps, tenant, uuid, { includeArchived: true });
  const view = await deactivateProduct(deps, tenant, product);
  return ok({
    uuid: view.uuid,
    name: view.name,
    value: view.value,
    isActive: view.isActive,
    updatedAt: view.updatedAt,
  });
}

export const paymentLink = async (req: HttpRequest) =>
  ok(await paymentLinkProduct(productDeps(req), req.pathParams.uuid));
