import * as z from 'zod';
import type { Tenant } from '#shared/domain/tenant';

/**
 * The customer portal's look and allowed actions, per product or per seller. The spec gives the
 * defaults of primaryColor and the four allow… flags; the rest default to off / empty.
 */
export const PORTAL_DEFAULTS = {
  businessName: null as string | null,
  logoUrl: null as string | null,
  primaryColor: '#257264',
  allowCancelSubscription: true,
  allowUpdatePaymentMethod: true,
  allowUpdateBillingInfo: true,
  allowViewInvoices: true,
  cancelAtPeriodEndOnly: false,
  requireCancelReason: false,
  sendCancellationEmail: true,
  sendPaymentMethodUpdatedEmail: true,
  customWelcomeText: null as string | null,
  customSuccessMessage: null as string | null,
  customCancellationMessage: null as string | null,
};

export type PortalSettings = typeof PORTAL_DEFAULTS;
export type PortalFields = Partial<PortalSettings>;

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .max(max)
    .nullable();

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

export interface PortalConfigRepository {
  get(tenant: Tenant, productId?: number): Promise<StoredPortalConfig | null>;
  /**
   * A product (by id or uuid) with its own configuration and, on request, the seller's, in as few
   * reads as the keys allow. `productId` is null when the tenant has no such product.
   */
  readForProduct(
    tenant: Tenant,
    ref: { id: number } | { uuid: string },
    withSeller: boolean,
  ): Promise<{
    productId: number | null;
    product: StoredPortalConfig | null;
    seller: StoredPortalConfig | null;
  }>;
  /** Replaces the whole configuration (POST, PUT). */
  replace(
    tenant: Tenant,
    productId: number | undefined,
    fields: PortalFields,
    now: string,
    /** Indexes a product's configuration next to the product, so a read by uuid finds both. */
    productUuid?: string,
  ): Promise<StoredPortalConfig>;
  /** Writes only the fields given, creating the configuration when there is none (PATCH). */
  merge(
    tenant: Tenant,
    productId: number | undefined,
    fields: PortalFields,
    now: string,
    /** Indexes a product's configuration next to the product, so a read by uuid finds both. */
    productUuid?: string,
  ): Promise<StoredPortalConfig>;
  delete(tenant: Tenant, productId?: number): Promise<boolean>;
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
export function effectivePortalConfig(product: StoredPortalConfig | null, seller: StoredPortalConfig | null) {
  const chosen = product ?? seller;
  return {
    source: product ? ('product' as const) : seller ? ('seller' as const) : ('default' as const),
    ...PORTAL_DEFAULTS,
    ...(chosen?.fields ?? {}),
  };
}
