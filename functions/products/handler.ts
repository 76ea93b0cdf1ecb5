import { createHttpHandler } from '#shared/http/pipeline';
import { once } from '#shared/once';
import { productRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

export const handler = createHttpHandler(productRoutes, (c) => {
  const deps = {
    products: c.repos.products,
    clock: c.clock,
    ids: c.ids,
    publicBaseUrl: c.config.publicBaseUrl,
    nextId: () => c.sequences.next('product'),
  };
  const configDeps = { portalConfigs: c.repos.portalConfigs, products: c.repos.products, clock: c.clock };
  const affiliateDeps = { affiliations: c.repos.affiliations, products: c.repos.products, clock: c.clock };
  return {
    createProduct: async ({ tenant, body }) => (await useCases()).createProduct(deps, tenant, body),
    listProducts: async ({ tenant, query }) => (await useCases()).listProducts(deps, tenant, query),
    listProductsAlias: async ({ tenant, query }) => (await useCases()).listProducts(deps, tenant, query),
    listProductsV1: async ({ tenant, query }) => (await useCases()).pageProducts(deps, tenant, query),
    getProductByUuid: async ({ tenant, path, query }) =>
      (await useCases()).getProduct(deps, tenant, path.uuid, query.includeArchived),
    getProduct: async ({ tenant, path, query }) =>
      (await useCases()).getProduct(deps, tenant, path.id, query.includeArchived),
    updateProduct: async ({ tenant, path, body }) =>
      (await useCases()).updateProduct(deps, tenant, path.id, body),
    deactivateProduct: async ({ tenant, path }) =>
      (await useCases()).deactivateProductById(deps, tenant, path.id),
    deactivateProductV1: async ({ tenant, path }) =>
      (await useCases()).deactivateProductV1(deps, tenant, path.uuid),
    getProductPortalConfig: async ({ tenant, path }) =>
      (await useCases()).getProductPortalConfig(configDeps, tenant, path.id),
    createProductPortalConfig: async ({ tenant, path, body }) =>
      (await useCases()).writeProductPortalConfig(configDeps, tenant, path.id, body, 'replace'),
    patchProductPortalConfig: async ({ tenant, path, body }) =>
      (await useCases()).writeProductPortalConfig(configDeps, tenant, path.id, body, 'merge'),
    deleteProductPortalConfig: async ({ tenant, path }) =>
      (await useCases()).deleteProductPortalConfig(configDeps, tenant, path.id),
    getEffectivePortalConfig: async ({ tenant, path }) =>
      (await useCases()).effectiveProductPortalConfig(configDeps, tenant, path.id),
    addProductAffiliate: async ({ tenant, path, body }) =>
      (await useCases()).addAffiliation(affiliateDeps, tenant, path.id, body),
    listProductAffiliates: async ({ tenant, path, query }) =>
      (await useCases()).listAffiliations(affiliateDeps, tenant, path.id, query.status),
    endProductAffiliate: async ({ tenant, path }) =>
      (await useCases()).endAffiliation(affiliateDeps, tenant, path.id, path.affiliateId),
    getSellerPortalConfig: async ({ tenant }) => (await useCases()).getSellerPortalConfig(configDeps, tenant),
    putSellerPortalConfig: async ({ tenant, body }) =>
      (await useCases()).putSellerPortalConfig(configDeps, tenant, body),
    getPaymentLink: async ({ path }) => (await useCases()).paymentLinkProduct(deps, path.uuid),
  };
});
