import { addAffiliation, endAffiliation, listAffiliations } from '#shared/domain/affiliates/affiliations';
import {
  deleteProductPortalConfig,
  effectiveProductPortalConfig,
  effectiveSellerPortalConfig,
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
import { defineHandlers } from '#shared/http/pipeline';
import { productRoutes } from './routes';

export const group = defineHandlers(productRoutes, (c) => {
  const deps = { ...c.deps, nextId: () => c.sequences.next('product') };
  return {
    createProduct: ({ tenant, body }) => createProduct(deps, tenant, body),
    listProducts: ({ tenant, query }) => listProducts(deps, tenant, query),
    listProductsAlias: ({ tenant, query }) => listProducts(deps, tenant, query),
    listProductsV1: ({ tenant, query }) => pageProducts(deps, tenant, query),
    getProductByUuid: ({ tenant, path, query }) => getProduct(deps, tenant, path.uuid, query.includeArchived),
    getProduct: ({ tenant, path, query }) => getProduct(deps, tenant, path.id, query.includeArchived),
    updateProduct: ({ tenant, path, body }) => updateProduct(deps, tenant, path.id, body),
    deactivateProduct: ({ tenant, path }) => deactivateProductById(deps, tenant, path.id),
    deactivateProductV1: ({ tenant, path }) => deactivateProductV1(deps, tenant, path.uuid),
    getProductPortalConfig: ({ tenant, path }) => getProductPortalConfig(deps, tenant, path.id),
    createProductPortalConfig: ({ tenant, path, body }) =>
      writeProductPortalConfig(deps, tenant, path.id, body, 'replace'),
    patchProductPortalConfig: ({ tenant, path, body }) =>
      writeProductPortalConfig(deps, tenant, path.id, body, 'merge'),
    deleteProductPortalConfig: ({ tenant, path }) => deleteProductPortalConfig(deps, tenant, path.id),
    getEffectivePortalConfig: ({ tenant, path }) => effectiveProductPortalConfig(deps, tenant, path.id),
    addProductAffiliate: ({ tenant, path, body }) => addAffiliation(deps, tenant, path.id, body),
    listProductAffiliates: ({ tenant, path, query }) => listAffiliations(deps, tenant, path.id, query.status),
    endProductAffiliate: ({ tenant, path }) => endAffiliation(deps, tenant, path.id, path.affiliateId),
    getSellerPortalConfig: ({ tenant }) => getSellerPortalConfig(deps, tenant),
    getEffectiveSellerPortalConfig: ({ tenant }) => effectiveSellerPortalConfig(deps, tenant),
    putSellerPortalConfig: ({ tenant, body }) => putSellerPortalConfig(deps, tenant, body),
    getPaymentLink: ({ path }) => paymentLinkProduct(deps, path.uuid),
  };
});
