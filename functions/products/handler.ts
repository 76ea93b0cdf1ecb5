import { addAffiliation, endAffiliation, listAffiliations } from '#shared/domain/affiliates/affiliations';
import {
  deleteProductPortalConfig,
  effectiveProductPortalConfig,
  getProductPortalConfig,
  getSellerPortalConfig,
  putSellerPortalConfig,
  writeProductPortalConfig,
} from '#shared/domain/products/portal-config';
import {
  createProduct,
  deactivateProductById,
  deactivateProductV1,
  getProduct,
  listProducts,
  pageProducts,
  paymentLinkProduct,
  updateProduct,
} from '#shared/domain/products/products';
import { createHttpHandler } from '#shared/http/pipeline';
import { productRoutes } from './routes';

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
    createProduct: ({ tenant, body }) => createProduct(deps, tenant, body),
    listProducts: ({ tenant, query }) => listProducts(deps, tenant, query),
    listProductsV1: ({ tenant, query }) => pageProducts(deps, tenant, query),
    getProductByUuid: ({ tenant, path, query }) => getProduct(deps, tenant, path.uuid, query.includeArchived),
    getProduct: ({ tenant, path, query }) => getProduct(deps, tenant, path.id, query.includeArchived),
    updateProduct: ({ tenant, path, body }) => updateProduct(deps, tenant, path.id, body),
    deactivateProduct: ({ tenant, path }) => deactivateProductById(deps, tenant, path.id),
    deactivateProductV1: ({ tenant, path }) => deactivateProductV1(deps, tenant, path.uuid),
    getProductPortalConfig: ({ tenant, path }) => getProductPortalConfig(configDeps, tenant, path.id),
    createProductPortalConfig: ({ tenant, path, body }) =>
      writeProductPortalConfig(configDeps, tenant, path.id, body, 'replace'),
    patchProductPortalConfig: ({ tenant, path, body }) =>
      writeProductPortalConfig(configDeps, tenant, path.id, body, 'merge'),
    deleteProductPortalConfig: ({ tenant, path }) => deleteProductPortalConfig(configDeps, tenant, path.id),
    getEffectivePortalConfig: ({ tenant, path }) => effectiveProductPortalConfig(configDeps, tenant, path.id),
    addProductAffiliate: ({ tenant, path, body }) => addAffiliation(affiliateDeps, tenant, path.id, body),
    listProductAffiliates: ({ tenant, path, query }) =>
      listAffiliations(affiliateDeps, tenant, path.id, query.status),
    endProductAffiliate: ({ tenant, path }) =>
      endAffiliation(affiliateDeps, tenant, path.id, path.affiliateId),
    getSellerPortalConfig: ({ tenant }) => getSellerPortalConfig(configDeps, tenant),
    putSellerPortalConfig: ({ tenant, body }) => putSellerPortalConfig(configDeps, tenant, body),
    getPaymentLink: ({ path }) => paymentLinkProduct(deps, path.uuid),
  };
});
