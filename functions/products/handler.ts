import { createHttpHandler } from '#shared/http/pipeline';
import { productRoutes } from './routes';

// Use cases load on their route's first request, not at cold start (docs/decisions.md, "Cold start").
const affiliations = () => import('#shared/domain/affiliates/affiliations');
const portalConfig = () => import('#shared/domain/products/portal-config');
const products = () => import('#shared/domain/products/products');

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
    createProduct: async ({ tenant, body }) => (await products()).createProduct(deps, tenant, body),
    listProducts: async ({ tenant, query }) => (await products()).listProducts(deps, tenant, query),
    listProductsV1: async ({ tenant, query }) => (await products()).pageProducts(deps, tenant, query),
    getProductByUuid: async ({ tenant, path, query }) =>
      (await products()).getProduct(deps, tenant, path.uuid, query.includeArchived),
    getProduct: async ({ tenant, path, query }) =>
      (await products()).getProduct(deps, tenant, path.id, query.includeArchived),
    updateProduct: async ({ tenant, path, body }) =>
      (await products()).updateProduct(deps, tenant, path.id, body),
    deactivateProduct: async ({ tenant, path }) =>
      (await products()).deactivateProductById(deps, tenant, path.id),
    deactivateProductV1: async ({ tenant, path }) =>
      (await products()).deactivateProductV1(deps, tenant, path.uuid),
    getProductPortalConfig: async ({ tenant, path }) =>
      (await portalConfig()).getProductPortalConfig(configDeps, tenant, path.id),
    createProductPortalConfig: async ({ tenant, path, body }) =>
      (await portalConfig()).writeProductPortalConfig(configDeps, tenant, path.id, body, 'replace'),
    patchProductPortalConfig: async ({ tenant, path, body }) =>
      (await portalConfig()).writeProductPortalConfig(configDeps, tenant, path.id, body, 'merge'),
    deleteProductPortalConfig: async ({ tenant, path }) =>
      (await portalConfig()).deleteProductPortalConfig(configDeps, tenant, path.id),
    getEffectivePortalConfig: async ({ tenant, path }) =>
      (await portalConfig()).effectiveProductPortalConfig(configDeps, tenant, path.id),
    addProductAffiliate: async ({ tenant, path, body }) =>
      (await affiliations()).addAffiliation(affiliateDeps, tenant, path.id, body),
    listProductAffiliates: async ({ tenant, path, query }) =>
      (await affiliations()).listAffiliations(affiliateDeps, tenant, path.id, query.status),
    endProductAffiliate: async ({ tenant, path }) =>
      (await affiliations()).endAffiliation(affiliateDeps, tenant, path.id, path.affiliateId),
    getSellerPortalConfig: async ({ tenant }) =>
      (await portalConfig()).getSellerPortalConfig(configDeps, tenant),
    putSellerPortalConfig: async ({ tenant, body }) =>
      (await portalConfig()).putSellerPortalConfig(configDeps, tenant, body),
    getPaymentLink: async ({ path }) => (await products()).paymentLinkProduct(deps, path.uuid),
  };
});
