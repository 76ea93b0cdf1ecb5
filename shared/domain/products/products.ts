import * as z from 'zod';
import type { Deps } from '#shared/domain/deps';
import { newEvent } from '#shared/domain/events/events';
import { limitQuery, pageFields, readNumberedPage } from '#shared/domain/paging';
import { sameTenant, type Tenant } from '#shared/domain/tenant';
import { BadRequestError, NotFoundError, ValidationError } from '#shared/errors';
import { looksLikeNumericId, looksLikeUuid } from '#shared/ids';
import { centavosToReais, reaisToCentavos } from '#shared/money';
import { textField } from '#shared/validation';
import { PRODUCT_NOT_FOUND } from './not-found';

/** Spec Limits: the platform minimum price; 0 is allowed for products only (no price, no sale). */
export const MIN_PRICE_CENTAVOS = 500;
export { PRODUCT_NOT_FOUND };

/** Interest factors are stored in ten-thousandths (1.0349 -> 10349) so no float touches money. */
export const FACTOR_SCALE = 10_000;

export interface CarneSettings {
  enabled: boolean;
  /** 2..12; the installment-plan work refuses more installments than this. */
  maxInstallments: number;
  /** Interest multiplier per number of installments, in ten-thousandths; absent = 1.0 (no interest). */
  interestFactors: Record<string, number>;
}

export interface Product {
  id: number;
  uuid: string;
  tenant: Tenant;
  name: string;
  image: string;
  /** Centavos. */
  value: number;
  description: string | null;
  pix: boolean;
  creditCard: boolean;
  boleto: boolean;
  installments: number;
  carne: CarneSettings;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
  /** Optimistic lock: every write checks the version it read. */
  version: number;
}

const price = z
  .number()
  .refine(
    // JSON's -0 carries a minus sign: refused as negative rather than read as 0 (no price).
    (v) => !Object.is(v, -0) && reaisToCentavos(v) !== null,
    'value must be a non-negative amount with at most 2 decimal places',
  )
  .transform((v) => reaisToCentavos(v) as number)
  .refine((c) => c === 0 || c >= MIN_PRICE_CENTAVOS, 'value must be at least 5');

const factor = z
  .number()
  .min(1, 'interest factor must be at least 1')
  .max(10, 'interest factor must be at most 10')
  .refine((f) => /^\d+(\.\d{1,4})?$/.test(String(f)), 'interest factor must have at most 4 decimal places')
  .transform((f) => Math.round(f * FACTOR_SCALE));

const carneInput = z
  .object({
    enabled: z.boolean().optional(),
    maxInstallments: z.number().int().min(2).max(12).optional(),
    interestFactors: z
      .partialRecord(z.enum(['2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12']), factor)
      .optional(),
  })
  .strict();

const fields = {
  name: textField('name', { max: 200, trim: true }),
  image: z.url({
    protocol: /^https?$/,
    error: (issue) => (issue.input === undefined ? 'image is required' : 'image must be a valid URL'),
  }),
  value: price,
  description: textField('description', { max: 5_000, multiline: true }).nullish(),
  pix: z.boolean().optional(),
  creditCard: z.boolean().optional(),
  boleto: z.boolean().optional(),
  installments: z.number().int().min(1).max(12),
  carne: carneInput.optional(),
};

/** isActive is read only: a body that sends it is refused with its own sentence (deactivate by DELETE). */
const readOnlyIsActive = z
  .never({ error: 'isActive cannot be changed; deactivate a product with DELETE (there is no reactivation)' })
  .optional();

export const createProductSchema = z
  .object({ ...fields, installments: fields.installments.optional(), isActive: readOnlyIsActive })
  .strict();
export const updateProductSchema = z
  .object({
    name: fields.name.optional(),
    image: fields.image.optional(),
    value: price.optional(),
    description: fields.description,
    pix: fields.pix,
    creditCard: fields.creditCard,
    boleto: fields.boleto,
    installments: fields.installments.optional(),
    carne: carneInput.optional(),
    isActive: readOnlyIsActive,
  })
  .strict();

function mergeCarne(
  current: CarneSettings | undefined,
  input: z.output<typeof carneInput> | undefined,
): CarneSettings {
  const merged: CarneSettings = {
    enabled: input?.enabled ?? current?.enabled ?? false,
    maxInstallments: input?.maxInstallments ?? current?.maxInstallments ?? 12,
    interestFactors: { ...(current?.interestFactors ?? {}), ...(input?.interestFactors ?? {}) },
  };
  const beyond = Object.keys(merged.interestFactors).filter((n) => Number(n) > merged.maxInstallments);
  if (beyond.length > 0) {
    throw new ValidationError([
      `carne.interestFactors has factors beyond carne.maxInstallments: ${beyond.join(', ')}`,
    ]);
  }
  return merged;
}

function assertSellable(p: Pick<Product, 'pix' | 'creditCard' | 'boleto'>) {
  if (!p.pix && !p.creditCard && !p.boleto) {
    throw new ValidationError(['at least one payment method (pix, creditCard, boleto) must be enabled']);
  }
}

export type ProductTab = 'active' | 'archived' | 'all';

export type ProductDeps = Pick<Deps, 'products' | 'clock' | 'ids' | 'publicBaseUrl'> & {
  nextId: () => Promise<number>;
};

/** The product's hosted payment page (functions/pages); the JSON route /api/payment-links/{uuid} stays. */
export const paymentLinkOf = (baseUrl: string, uuid: string) => `${baseUrl.replace(/\/$/, '')}/pay/${uuid}`;

export function toView(p: Product, baseUrl: string) {
  return {
    id: p.id,
    uuid: p.uuid,
    sellerId: p.tenant.sellerId,
    environment: p.tenant.environment,
    name: p.name,
    image: p.image,
    value: centavosToReais(p.value),
    description: p.description,
    pix: p.pix,
    creditCard: p.creditCard,
    boleto: p.boleto,
    installments: p.installments,
    carne: {
      enabled: p.carne.enabled,
      maxInstallments: p.carne.maxInstallments,
      interestFactors: Object.fromEntries(
        Object.entries(p.carne.interestFactors).map(([n, f]) => [n, f / FACTOR_SCALE]),
      ),
    },
    isActive: p.isActive,
    paymentLink: paymentLinkOf(baseUrl, p.uuid),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export type ProductView = ReturnType<typeof toView>;

export async function createProduct(
  deps: ProductDeps,
  tenant: Tenant,
  input: z.output<typeof createProductSchema>,
) {
  const now = deps.clock.now().toISOString();
  const product: Product = {
    id: await deps.nextId(),
    uuid: deps.ids.uuid(),
    tenant,
    name: input.name,
    image: input.image,
    value: input.value,
    description: input.description ?? null,
    // Spec leaves the methods' defaults open: all enabled, the buyer picks at checkout.
    pix: input.pix ?? true,
    creditCard: input.creditCard ?? true,
    boleto: input.boleto ?? true,
    installments: input.installments ?? 1,
    carne: mergeCarne(undefined, input.carne),
    isActive: true,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  assertSellable(product);
  const created = newEvent(deps, tenant, 'product.created', {
    id: product.id,
    name: product.name,
    value: centavosToReais(product.value),
    uuid: product.uuid,
    sellerId: tenant.sellerId,
  });
  await deps.products.create(product, [created]);
  return toView(product, deps.publicBaseUrl);
}

/** A product's path id: its integer id, or its uuid (accepted for convenience); null for neither. */
export function productRefOf(raw: string): { id: number } | { uuid: string } | null {
  if (looksLikeNumericId(raw)) return { id: Number(raw) };
  return looksLikeUuid(raw) ? { uuid: raw.toLowerCase() } : null;
}

/** `id` as the path gives it: the numeric id, or the uuid (accepted for convenience). */
export async function findProduct(
  deps: Pick<ProductDeps, 'products'>,
  tenant: Tenant,
  id: string,
  options: { includeArchived?: boolean } = {},
): Promise<Product> {
  const ref = productRefOf(id);
  let product: Product | null = null;
  if (ref && 'id' in ref) product = await deps.products.get(tenant, ref.id);
  else if (ref) {
    const found = await deps.products.findByUuid(ref.uuid);
    product = found && sameTenant(found.tenant, tenant) ? found : null;
  }
  if (!product || (!product.isActive && !options.includeArchived)) throw new NotFoundError(PRODUCT_NOT_FOUND);
  return product;
}

export async function updateProduct(
  deps: ProductDeps,
  tenant: Tenant,
  id: string,
  input: z.output<typeof updateProductSchema>,
) {
  const current = await findProduct(deps, tenant, id, { includeArchived: true });
  const next: Product = {
    ...current,
    name: input.name ?? current.name,
    image: input.image ?? current.image,
    // The price rule ran only if the body sent `value` (spec rule 2): a legacy 3.00 product keeps it.
    value: input.value ?? current.value,
    description: input.description === undefined ? current.description : input.description,
    pix: input.pix ?? current.pix,
    creditCard: input.creditCard ?? current.creditCard,
    boleto: input.boleto ?? current.boleto,
    installments: input.installments ?? current.installments,
    carne: input.carne ? mergeCarne(current.carne, input.carne) : current.carne,
    updatedAt: deps.clock.now().toISOString(),
    version: current.version + 1,
  };
  assertSellable(next);
  const view = toView(next, deps.publicBaseUrl);
  // A lost optimistic lock throws the repository's 409 concurrent_update.
  await deps.products.save(next, current.version, [newEvent(deps, tenant, 'product.updated', view)]);
  return view;
}

/** Deactivation is final: there is no way back (spec). A second DELETE answers the same product. */
export async function deactivateProduct(deps: ProductDeps, tenant: Tenant, product: Product) {
  if (!product.isActive) return toView(product, deps.publicBaseUrl);
  const next: Product = {
    ...product,
    isActive: false,
    updatedAt: deps.clock.now().toISOString(),
    version: product.version + 1,
  };
  const view = toView(next, deps.publicBaseUrl);
  await deps.products.save(next, product.version, [newEvent(deps, tenant, 'product.deleted', view)], {
    active: -1,
    archived: 1,
  });
  return view;
}

export const listQuerySchema = z.object({
  ...pageFields,
  search: z.string().trim().min(1).max(100).optional(),
  tab: z.enum(['active', 'archived', 'all']).default('active'),
});

export async function listProducts(
  deps: ProductDeps,
  tenant: Tenant,
  query: z.output<typeof listQuerySchema>,
) {
  const { items, totalCount } = await readNumberedPage(query, (at) =>
    deps.products.list(tenant, { ...query, ...at }),
  );
  return {
    data: items.map((p) => toView(p, deps.publicBaseUrl)),
    count: items.length,
    page: query.page,
    totalCount,
    totalPages: Math.ceil(totalCount / query.limit),
  };
}

export const pageQuerySchema = z.object({
  isActive: z
    .enum(['true', 'false'], { error: 'isActive must be true or false' })
    .optional()
    .transform((flag) => (flag === undefined ? undefined : flag === 'true')),
  limit: limitQuery,
  cursor: z.string().max(2048).optional(),
});

/** GET /api/v1/products: cursor pages, newest first, every product or only active or archived ones. */
export async function pageProducts(
  deps: Pick<ProductDeps, 'products' | 'publicBaseUrl'>,
  tenant: Tenant,
  query: z.output<typeof pageQuerySchema>,
) {
  const page = await deps.products.page(tenant, {
    active: query.isActive,
    limit: query.limit,
    cursor: query.cursor,
  });
  return {
    data: page.items.map((p) => toView(p, deps.publicBaseUrl)),
    nextCursor: page.cursor ?? null,
    hasMore: Boolean(page.cursor),
  };
}

/** What the buyer's checkout reads through the payment link; inactive or priceless products do not sell. */
export async function paymentLinkProduct(deps: Pick<ProductDeps, 'products'>, uuid: string) {
  const product = looksLikeUuid(uuid) ? await deps.products.findByUuid(uuid.toLowerCase()) : null;
  if (!product?.isActive) throw new NotFoundError(PRODUCT_NOT_FOUND);
  if (product.value === 0) {
    throw new BadRequestError(
      'This product has no price and does not sell through its payment link',
      'product_not_for_sale',
    );
  }
  return {
    uuid: product.uuid,
    name: product.name,
    image: product.image,
    description: product.description,
    value: centavosToReais(product.value),
    pix: product.pix,
    creditCard: product.creditCard,
    boleto: product.boleto,
    installments: product.installments,
    environment: product.tenant.environment,
  };
}

/** `includeArchived=true|1` shows a deactivated product too. */
export const readQuerySchema = z.object({
  includeArchived: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((flag) => flag === 'true' || flag === '1'),
});

export async function getProduct(
  deps: Pick<ProductDeps, 'products' | 'publicBaseUrl'>,
  tenant: Tenant,
  id: string,
  includeArchived: boolean,
) {
  return toView(await findProduct(deps, tenant, id, { includeArchived }), deps.publicBaseUrl);
}

/** Deactivates by integer id or uuid; a deactivated product answers as it is (no error). */
export async function deactivateProductById(deps: ProductDeps, tenant: Tenant, id: string) {
  return deactivateProduct(deps, tenant, await findProduct(deps, tenant, id, { includeArchived: true }));
}

/** The v1 form answers only {uuid, name, value, isActive, updatedAt} (spec). */
export async function deactivateProductV1(deps: ProductDeps, tenant: Tenant, uuid: string) {
  const view = await deactivateProductById(deps, tenant, uuid);
  return {
    uuid: view.uuid,
    name: view.name,
    value: view.value,
    isActive: view.isActive,
    updatedAt: view.updatedAt,
  };
}
