import * as z from 'zod';
import type { Deps } from '#shared/domain/deps';
import { lateChargeDefaultsInput } from '#shared/domain/payments/late-charge-settings';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError } from '#shared/errors';
import { textField } from '#shared/validation';
import { PORTAL_DEFAULTS, type PortalFields } from './portal-defaults';
import { findProduct, PRODUCT_NOT_FOUND, productRefOf } from './products';

export {
  PORTAL_DEFAULTS,
  type PortalFields,
  type PortalSettings,
} from './portal-defaults';

/** Portal texts; the custom messages keep their line breaks, the business name is one line. */
const text = (field: string, max: number) =>
  textField(field, { max, multiline: field !== 'businessName' }).nullable();

export const portalConfigSchema = z
  .object({
    businessName: text('businessName', 200),
    logoUrl: z.url({ protocol: /^https?$/, error: 'logoUrl must be a valid URL' }).nullable(),
    primaryColor: z
      .string()
      .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'primaryColor must be a hex colour like #257264'),
    allowCancelSubscription: z.boolean(),
    allowUpdatePaymentMethod: z.boolean(),
    allowUpdateBillingInfo: z.boolean(),
    allowViewInvoices: z.boolean(),
    cancelAtPeriodEndOnly: z.boolean(),
    requireCancelReason: z.boolean(),
    sendCancellationEmail: z.boolean(),
    sendPaymentMethodUpdatedEmail: z.boolean(),
    customWelcomeText: text('customWelcomeText', 2_000),
    customSuccessMessage: text('customSuccessMessage', 2_000),
    customCancellationMessage: text('customCancellationMessage', 2_000),
    lateCharges: lateChargeDefaultsInput.nullable(),
  })
  .partial()
  .strict();

export interface StoredPortalConfig {
  /** null for the seller-level configuration. */
  productId: number | null;
  fields: PortalFields;
  createdAt: string;
  updatedAt: string;
}

export function toConfigView(config: StoredPortalConfig | null) {
  if (!config) return null;
  return {
    productId: config.productId,
    ...config.fields,
    createdAt: config.createdAt,
    updatedAt: config.updatedAt,
  };
}

/**
 * The one resolution every reader uses: the product's own configuration, else the seller's,
 * else the defaults; fields a chosen configuration leaves out take the defaults.
 */
export function effectivePortalConfig(
  product: StoredPortalConfig | null,
  seller: StoredPortalConfig | null,
  brand: { name: string; logoUrl: string | null; brandColor: string | null } | null = null,
) {
  const chosen = product ?? seller;
  const merged = {
    source: product ? ('product' as const) : seller ? ('seller' as const) : ('default' as const),
    ...PORTAL_DEFAULTS,
    ...(chosen?.fields ?? {}),
  };
  if (!brand) return merged;
  // What the configuration leaves unset shows the seller's business profile (Settings → Perfil do negócio).
  return {
    ...merged,
    businessName: merged.businessName ?? brand.name,
    logoUrl: merged.logoUrl ?? brand.logoUrl,
    primaryColor: chosen?.fields.primaryColor ?? brand.brandColor ?? PORTAL_DEFAULTS.primaryColor,
  };
}

/** The product of a portal-configuration route, by integer id or uuid; archived products keep theirs. */
async function productOf(deps: PortalConfigDeps, tenant: Tenant, ref: string) {
  return findProduct(deps, tenant, ref, { includeArchived: true });
}

export type PortalConfigDeps = Pick<Deps, 'portalConfigs' | 'products' | 'clock'>;

/** Reads the product and its configuration together. */
async function readConfig(deps: PortalConfigDeps, tenant: Tenant, ref: string, withSeller: boolean) {
  const productRef = productRefOf(ref);
  if (!productRef) throw new NotFoundError(PRODUCT_NOT_FOUND);
  const found = await deps.portalConfigs.readForProduct(tenant, productRef, withSeller);
  if (found.productId === null) throw new NotFoundError(PRODUCT_NOT_FOUND);
  return found;
}

/** A product's own configuration, or null when it has none. */
export async function getProductPortalConfig(deps: PortalConfigDeps, tenant: Tenant, ref: string) {
  return toConfigView((await readConfig(deps, tenant, ref, false)).product);
}

/** What the portal uses for this product: its own configuration, else the seller's, else the defaults. */
export async function effectiveProductPortalConfig(deps: PortalConfigDeps, tenant: Tenant, ref: string) {
  const { product, seller } = await readConfig(deps, tenant, ref, true);
  return effectivePortalConfig(product, seller);
}

/** `replace` sets the whole configuration (POST, PUT); `merge` only the fields given (PATCH). */
export async function writeProductPortalConfig(
  deps: PortalConfigDeps,
  tenant: Tenant,
  ref: string,
  fields: PortalFields,
  mode: 'replace' | 'merge',
) {
  const product = await productOf(deps, tenant, ref);
  const now = deps.clock.now().toISOString();
  return toConfigView(await deps.portalConfigs[mode](tenant, product.id, fields, now, product.uuid));
}

export async function deleteProductPortalConfig(deps: PortalConfigDeps, tenant: Tenant, ref: string) {
  const product = await productOf(deps, tenant, ref);
  // Idempotent, as a DELETE is (spec: "removes the per-product config; 200"): a product without a
  // configuration of its own answers 200 too, and `deleted` says whether one was removed.
  const deleted = await deps.portalConfigs.delete(tenant, product.id);
  return { productId: product.id, deleted };
}

export async function getSellerPortalConfig(deps: Pick<PortalConfigDeps, 'portalConfigs'>, tenant: Tenant) {
  return toConfigView(await deps.portalConfigs.get(tenant));
}

/** What the portal uses when a product has no configuration of its own: the seller's, else the defaults. */
export async function effectiveSellerPortalConfig(
  deps: Pick<PortalConfigDeps, 'portalConfigs'>,
  tenant: Tenant,
) {
  return effectivePortalConfig(null, await deps.portalConfigs.get(tenant));
}

export async function putSellerPortalConfig(
  deps: Pick<PortalConfigDeps, 'portalConfigs' | 'clock'>,
  tenant: Tenant,
  fields: PortalFields,
) {
  const now = deps.clock.now().toISOString();
  return toConfigView(await deps.portalConfigs.replace(tenant, undefined, fields, now));
}
