import { product, productUuid } from '#shared/http/example-story';
import { defineExamples } from '#shared/http/examples';
import { productRoutes } from './routes';

/** Calls of the product routes for the API reference (read by the OpenAPI generator and the tests only). */

const updated = {
  ...product,
  description: 'Curso online de violão para iniciantes: 40 aulas em vídeo e apostila em PDF.',
  installments: 10,
  updatedAt: '2026-11-28T17:05:38.751Z',
} as const;
const apostila = {
  ...product,
  id: 2,
  uuid: 'a6e5b328-611c-49e3-b5e8-e5213e858ebe',
  name: 'Apostila de Teoria Musical',
  image: 'https://example.com/apostila.png',
  value: 19.9,
  description: null,
  installments: 1,
  isActive: false,
  paymentLink: 'http://127.0.0.1:3000/pay/a6e5b328-611c-49e3-b5e8-e5213e858ebe',
  createdAt: '2026-11-28T17:05:38.787Z',
  updatedAt: '2026-11-28T17:05:38.843Z',
} as const;
const ukulele = {
  ...apostila,
  id: 3,
  uuid: 'a860ad3f-da47-45bf-8f5a-2e37a55c8b6d',
  name: 'Oficina de Ukulele',
  image: 'https://example.com/ukulele.png',
  value: 29.9,
  paymentLink: 'http://127.0.0.1:3000/pay/a860ad3f-da47-45bf-8f5a-2e37a55c8b6d',
  createdAt: '2026-11-28T17:05:38.882Z',
  updatedAt: '2026-11-28T17:05:38.912Z',
} as const;
const portalChoices = {
  businessName: 'Escola Harmonia',
  logoUrl: 'https://example.com/harmonia-logo.png',
  primaryColor: '#257264',
  cancelAtPeriodEndOnly: true,
  requireCancelReason: true,
  customWelcomeText: 'Olá! Aqui você gerencia a sua assinatura do Curso de Violão.',
} as const;
const productPortal = {
  productId: 1,
  ...portalChoices,
  createdAt: '2026-11-28T17:05:39.005Z',
  updatedAt: '2026-11-28T17:05:39.005Z',
} as const;
const sellerPortalChoices = {
  businessName: 'Escola Harmonia',
  primaryColor: '#257264',
  cancelAtPeriodEndOnly: true,
  sendCancellationEmail: true,
} as const;
const sellerPortal = {
  productId: null,
  ...sellerPortalChoices,
  createdAt: '2026-11-28T17:05:39.183Z',
  updatedAt: '2026-11-28T17:05:39.183Z',
} as const;
const affiliation = {
  productId: 1,
  affiliateId: 3,
  commissionPercent: 12.5,
  status: 'active',
  createdAt: '2026-11-28T17:05:39.141Z',
  updatedAt: '2026-11-28T17:05:39.141Z',
  endedAt: null,
} as const;

export const examples = defineExamples(productRoutes, {
  createProduct: [
    {
      name: 'course',
      summary: 'A course sold by pix, boleto and card in up to 6 installments',
      body: {
        name: 'Curso de Violão',
        description: 'Curso online de violão para iniciantes: 40 aulas em vídeo.',
        image: 'https://example.com/violao.png',
        value: 49.9,
        pix: true,
        boleto: true,
        creditCard: true,
        installments: 6,
      },
      responses: { 201: product },
    },
    {
      name: 'carne',
      summary: 'A guitar sold by carnê: up to 6 monthly boletos, with interest factors',
      body: {
        name: 'Violão Acústico Tagima',
        image: 'https://example.com/tagima.png',
        value: 1000,
        pix: false,
        creditCard: false,
        boleto: true,
        carne: { enabled: true, maxInstallments: 6, interestFactors: { '3': 1.0349, '6': 1.0712 } },
      },
      responses: {
        201: {
          ...product,
          id: 4,
          uuid: '32b16eb4-2d2e-423d-acd6-3a1afd46ff4d',
          name: 'Violão Acústico Tagima',
          image: 'https://example.com/tagima.png',
          value: 1000,
          description: null,
          pix: false,
          creditCard: false,
          boleto: true,
          installments: 1,
          carne: { enabled: true, maxInstallments: 6, interestFactors: { '3': 1.0349, '6': 1.0712 } },
          paymentLink: 'http://127.0.0.1:3000/pay/32b16eb4-2d2e-423d-acd6-3a1afd46ff4d',
          createdAt: '2026-12-03T17:05:57.756Z',
          updatedAt: '2026-12-03T17:05:57.756Z',
        },
      },
    },
  ],
  listProducts: {
    query: { page: 1, limit: 20, tab: 'active' },
    responses: { 200: { data: [updated], count: 1, page: 1, totalCount: 1, totalPages: 1 } },
  },
  listProductsAlias: {
    query: { page: 1, limit: 20 },
    responses: { 200: { data: [updated], count: 1, page: 1, totalCount: 1, totalPages: 1 } },
  },
  getProductByUuid: { path: { uuid: productUuid }, responses: { 200: product } },
  getProduct: { path: { id: '1' }, responses: { 200: product } },
  updateProduct: {
    path: { id: '1' },
    body: { description: updated.description, installments: 10 },
    responses: { 200: updated },
  },
  deactivateProduct: { path: { id: '2' }, responses: { 200: apostila } },
  listProductsV1: {
    query: { limit: 20 },
    responses: { 200: { data: [ukulele, apostila, updated], nextCursor: null, hasMore: false } },
  },
  deactivateProductV1: {
    path: { uuid: ukulele.uuid },
    responses: {
      200: {
        uuid: ukulele.uuid,
        name: ukulele.name,
        value: 29.9,
        isActive: false,
        updatedAt: ukulele.updatedAt,
      },
    },
  },
  getProductPortalConfig: [
    {
      name: 'configured',
      summary: 'The product has its own portal configuration',
      path: { id: '1' },
      responses: { 200: productPortal },
    },
    {
      name: 'none',
      summary: "None: the portal uses the seller's configuration",
      path: { id: '1' },
      responses: { 200: null },
    },
  ],
  createProductPortalConfig: {
    path: { id: '1' },
    body: portalChoices,
    responses: { 200: productPortal },
  },
  patchProductPortalConfig: {
    path: { id: '1' },
    body: { allowViewInvoices: false },
    responses: { 200: { ...productPortal, allowViewInvoices: false, updatedAt: '2026-11-28T17:05:39.090Z' } },
  },
  deleteProductPortalConfig: { path: { id: '1' }, responses: { 200: { productId: 1, deleted: true } } },
  getEffectivePortalConfig: {
    path: { id: '1' },
    responses: {
      200: {
        source: 'product',
        businessName: 'Escola Harmonia',
        logoUrl: 'https://example.com/harmonia-logo.png',
        primaryColor: '#257264',
        allowCancelSubscription: true,
        allowUpdatePaymentMethod: true,
        allowUpdateBillingInfo: true,
        allowViewInvoices: false,
        cancelAtPeriodEndOnly: true,
        requireCancelReason: true,
        sendCancellationEmail: true,
        sendPaymentMethodUpdatedEmail: true,
        customWelcomeText: 'Olá! Aqui você gerencia a sua assinatura do Curso de Violão.',
        customSuccessMessage: null,
        customCancellationMessage: null,
        lateCharges: { fine: { type: 'percentage', value: 2 }, interest: { percentPerMonth: 1 } },
      },
    },
  },
  addProductAffiliate: {
    path: { id: '1' },
    body: { affiliateId: 3, commissionPercent: 12.5 },
    responses: { 201: affiliation },
  },
  listProductAffiliates: {
    path: { id: '1' },
    query: { status: 'active' },
    responses: { 200: { data: [affiliation] } },
  },
  endProductAffiliate: {
    path: { id: '1', affiliateId: '3' },
    responses: {
      200: {
        ...affiliation,
        status: 'ended',
        updatedAt: '2027-01-04T17:06:05.051Z',
        endedAt: '2027-01-04T17:06:05.051Z',
      },
    },
  },
  getSellerPortalConfig: [
    {
      name: 'configured',
      summary: "The seller's portal configuration",
      responses: { 200: sellerPortal },
    },
    { name: 'none', summary: 'None yet: the portal uses the defaults', responses: { 200: null } },
  ],
  getEffectiveSellerPortalConfig: {
    responses: {
      200: {
        source: 'seller',
        businessName: 'Escola Harmonia',
        logoUrl: null,
        primaryColor: '#257264',
        allowCancelSubscription: true,
        allowUpdatePaymentMethod: true,
        allowUpdateBillingInfo: true,
        allowViewInvoices: true,
        cancelAtPeriodEndOnly: true,
        requireCancelReason: false,
        sendCancellationEmail: true,
        sendPaymentMethodUpdatedEmail: true,
        customWelcomeText: null,
        customSuccessMessage: null,
        customCancellationMessage: null,
        lateCharges: { fine: { type: 'percentage', value: 2 }, interest: { percentPerMonth: 1 } },
      },
    },
  },
  putSellerPortalConfig: { body: sellerPortalChoices, responses: { 200: sellerPortal } },
  getPaymentLink: {
    path: { uuid: productUuid },
    responses: {
      200: {
        uuid: productUuid,
        name: 'Curso de Violão',
        image: 'https://example.com/violao.png',
        description: updated.description,
        value: 49.9,
        pix: true,
        creditCard: true,
        boleto: true,
        installments: 10,
        environment: 'test',
      },
    },
  },
});
