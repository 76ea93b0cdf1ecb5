import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { effectivePortalConfig, PortalSettings, toConfigView } from './portal-config';
import type { listProducts, ProductView, pageProducts, paymentLinkProduct, toView } from './products';

const environment = z.enum(['test', 'live']);
const reais = (what: string) => z.number().describe(`${what}, in Reais (decimal, e.g. 49.9)`);
const iso = () => z.iso.datetime();

/** Every product route that answers one product (create, read, change, deactivate). */
export const productResponse = z.lazy(() =>
  z
    .object({
      id: z.number().int(),
      uuid: z.string(),
      sellerId: z.number().int(),
      environment,
      name: z.string(),
      image: z.string(),
      value: reais('Price; 0 means no price (the product does not sell)'),
      description: z.string().nullable(),
      pix: z.boolean(),
      creditCard: z.boolean(),
      boleto: z.boolean(),
      installments: z.number().int().describe('Most card installments allowed (1..12)'),
      carne: z.object({
        enabled: z.boolean(),
        maxInstallments: z.number().int(),
        interestFactors: z
          .record(z.string(), z.number())
          .describe('Interest multiplier by number of installments ("2".."12"); absent means 1.0'),
      }),
      isActive: z.boolean().describe('False once deactivated (there is no reactivation)'),
      paymentLink: z.string().describe('The public payment link of the product'),
      createdAt: iso(),
      updatedAt: iso(),
    })
    .meta({ id: 'Product', description: 'A product of the seller' }),
);

/** GET /api/products/seller: numbered pages. */
export const productListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(productResponse),
      count: z.number().int().describe('Products on this page'),
      page: z.number().int(),
      totalCount: z.number().int().describe('Products of the tab (and search) in all pages'),
      totalPages: z.number().int(),
    })
    .meta({ id: 'ProductList', description: 'A page of products' }),
);

/** GET /api/v1/products: cursor pages, newest first, without a total. */
export const productPageResponse = z.lazy(() =>
  z
    .object({
      data: z.array(productResponse),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'),
      hasMore: z.boolean(),
    })
    .meta({ id: 'ProductPage', description: 'A cursor page of products' }),
);

/** DELETE /api/v1/products/{uuid}: the deactivated product, in the v1 form. */
export const productDeactivatedResponse = z.lazy(() =>
  z
    .object({
      uuid: z.string(),
      name: z.string(),
      value: reais('Price'),
      isActive: z.boolean().describe('Always false'),
      updatedAt: iso(),
    })
    .meta({ id: 'ProductDeactivated', description: 'A deactivated product (v1 answer)' }),
);

/** GET /api/payment-links/{uuid} (public): what the buyer's checkout shows. */
export const paymentLinkProductResponse = z.lazy(() =>
  z
    .object({
      uuid: z.string(),
      name: z.string(),
      image: z.string(),
      description: z.string().nullable(),
      value: reais('Price'),
      pix: z.boolean(),
      creditCard: z.boolean(),
      boleto: z.boolean(),
      installments: z.number().int(),
      environment,
    })
    .meta({ id: 'PaymentLinkProduct', description: 'A product as its public payment link shows it' }),
);

const portalSettings = {
  businessName: z.string().nullable(),
  logoUrl: z.string().nullable(),
  primaryColor: z.string().describe('Hex colour, e.g. #257264'),
  allowCancelSubscription: z.boolean(),
  allowUpdatePaymentMethod: z.boolean(),
  allowUpdateBillingInfo: z.boolean(),
  allowViewInvoices: z.boolean(),
  cancelAtPeriodEndOnly: z.boolean(),
  requireCancelReason: z.boolean(),
  sendCancellationEmail: z.boolean(),
  sendPaymentMethodUpdatedEmail: z.boolean(),
  customWelcomeText: z.string().nullable(),
  customSuccessMessage: z.string().nullable(),
  customCancellationMessage: z.string().nullable(),
  lateCharges: z
    .object({
      fine: z
        .object({ type: z.literal('percentage'), value: z.number() })
        .nullable()
        .optional(),
      interest: z.object({ percentPerMonth: z.number() }).nullable().optional(),
    })
    .nullable()
    .describe(
      "Fine (percent, at most 2%) and interest (at most 1% a month) of new charges that set none; a charge's own fields win, then the product's, then the seller's",
    ),
};

/**
 * A stored portal configuration (a product's, or the seller's with `productId` null). Only the
 * fields that were set are present: the portal takes the defaults for the rest (see the effective
 * configuration).
 */
export const portalConfigResponse = z.lazy(() =>
  z
    .object({
      productId: z
        .number()
        .int()
        .nullable()
        .describe("The product's id; null for the seller-level configuration"),
      ...z.object(portalSettings).partial().shape,
      createdAt: iso(),
      updatedAt: iso(),
    })
    .meta({ id: 'PortalConfiguration', description: 'A stored customer-portal configuration' }),
);

/** GET /api/products/{id}/portal-config and GET /api/portal/configuration: null when none is stored. */
export const portalConfigOrNullResponse = z.lazy(() =>
  portalConfigResponse.nullable().meta({
    id: 'PortalConfigurationOrNull',
    description: 'A stored portal configuration, or null when there is none',
  }),
);

/** GET /api/products/{id}/portal-config/effective: every field, resolved. */
export const effectivePortalConfigResponse = z.lazy(() =>
  z
    .object({
      source: z
        .enum(['product', 'seller', 'default'])
        .describe("Whose configuration applies: the product's, else the seller's, else the defaults"),
      ...portalSettings,
    })
    .meta({
      id: 'EffectivePortalConfiguration',
      description: 'The configuration the portal uses for a product; fields left unset take the defaults',
    }),
);

/** DELETE /api/products/{id}/portal-config. */
export const portalConfigDeletedResponse = z.lazy(() =>
  z
    .object({
      productId: z.number().int(),
      deleted: z
        .boolean()
        .describe('Whether a configuration was removed (false: the product had none; still a 200)'),
    })
    .meta({ id: 'PortalConfigurationDeleted', description: "A product's removed portal configuration" }),
);

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

type _Product = Assert<Equals<z.output<typeof productResponse>, ReturnType<typeof toView>>>;
type _List = Assert<Equals<z.output<typeof productListResponse>, Out<typeof listProducts>>>;
type _Page = Assert<Equals<z.output<typeof productPageResponse>, Out<typeof pageProducts>>>;
type _Deactivated = Assert<
  Equals<
    z.output<typeof productDeactivatedResponse>,
    Pick<ProductView, 'uuid' | 'name' | 'value' | 'isActive' | 'updatedAt'>
  >
>;
type _Link = Assert<Equals<z.output<typeof paymentLinkProductResponse>, Out<typeof paymentLinkProduct>>>;
type _Config = Assert<Equals<z.output<typeof portalConfigOrNullResponse>, ReturnType<typeof toConfigView>>>;
type _Effective = Assert<
  Equals<z.output<typeof effectivePortalConfigResponse>, ReturnType<typeof effectivePortalConfig>>
>;
type _Settings = Assert<
  Equals<{ [K in keyof typeof portalSettings]: z.output<(typeof portalSettings)[K]> }, PortalSettings>
>;
