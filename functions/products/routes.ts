import { affiliationListResponse, affiliationResponse } from '#shared/domain/affiliates/responses';
import {
  addAffiliationSchema,
  affiliationPathSchema,
  listAffiliationsQuerySchema,
} from '#shared/domain/affiliates/schemas';
import { numericOrUuidParam, uuidParam } from '#shared/domain/params';
import { PRODUCT_NOT_FOUND } from '#shared/domain/products/not-found';
import { portalConfigSchema } from '#shared/domain/products/portal-config';
import {
  createProductSchema,
  listQuerySchema,
  pageQuerySchema,
  readQuerySchema,
  updateProductSchema,
} from '#shared/domain/products/products';
import {
  effectivePortalConfigResponse,
  paymentLinkProductResponse,
  portalConfigDeletedResponse,
  portalConfigOrNullResponse,
  portalConfigResponse,
  productDeactivatedResponse,
  productListResponse,
  productPageResponse,
  productResponse,
} from '#shared/domain/products/responses';
import { type AuthScheme, defineRoutes } from '#shared/http/types';

/** Spec rule 3: product routes accept an API key or the dashboard bearer token. */
const auth: AuthScheme[] = ['apiKey', 'jwt'];
const config = '/api/products/{id}/portal-config';
const affiliates = '/api/products/{id}/affiliates';
/** A product route by integer id or uuid: a malformed id names no product. */
const byId = { auth, notFound: PRODUCT_NOT_FOUND, request: { path: numericOrUuidParam } } as const;
const byUuid = { auth, notFound: PRODUCT_NOT_FOUND, request: { path: uuidParam } } as const;
const configBody = {
  path: numericOrUuidParam,
  body: portalConfigSchema,
  optionalBody: true,
} as const;

export const productRoutes = defineRoutes('products', [
  {
    operationId: 'createProduct',
    method: 'POST',
    path: '/api/products',
    auth,
    summary: 'Create a product',
    request: { body: createProductSchema },
    responses: { 201: productResponse },
  },
  {
    operationId: 'listProducts',
    method: 'GET',
    path: '/api/products/seller',
    auth,
    summary: "List the seller's products",
    request: { query: listQuerySchema },
    responses: { 200: productListResponse },
  },
  {
    operationId: 'listProductsAlias',
    method: 'GET',
    path: '/api/products',
    auth,
    summary: "List the seller's products (as GET /api/products/seller)",
    description:
      'The collection URL answers the same numbered page as `GET /api/products/seller`, with the same ' +
      'query (`page`, `limit`, `search`, `tab`); `GET /api/v1/products` pages the same products by cursor.',
    request: { query: listQuerySchema },
    responses: { 200: productListResponse },
  },
  {
    ...byUuid,
    operationId: 'getProductByUuid',
    method: 'GET',
    path: '/api/products/uuid/{uuid}',
    summary: 'Read a product by uuid',
    request: { path: uuidParam, query: readQuerySchema },
    responses: { 200: productResponse },
  },
  {
    ...byId,
    operationId: 'getProduct',
    method: 'GET',
    path: '/api/products/{id}',
    summary: 'Read a product',
    request: { path: numericOrUuidParam, query: readQuerySchema },
    responses: { 200: productResponse },
  },
  {
    ...byId,
    operationId: 'updateProduct',
    method: 'PATCH',
    path: '/api/products/{id}',
    summary: 'Change a product',
    request: { path: numericOrUuidParam, body: updateProductSchema },
    errors: [409],
    responses: { 200: productResponse },
  },
  {
    ...byId,
    operationId: 'deactivateProduct',
    method: 'DELETE',
    path: '/api/products/{id}',
    summary: 'Deactivate a product',
    responses: { 200: productResponse },
  },
  {
    operationId: 'listProductsV1',
    method: 'GET',
    path: '/api/v1/products',
    auth,
    summary: "The seller's products, cursor pages",
    description:
      'Newest first, each with its `uuid`. `isActive` true or false lists only active or only deactivated ' +
      "products (every product when absent); `limit` 1..100 (20); `cursor` is the previous page's " +
      '`nextCursor` (null on the last page). A cursor of another list or seller is a 400.',
    request: { query: pageQuerySchema },
    responses: { 200: productPageResponse },
  },
  {
    ...byUuid,
    operationId: 'deactivateProductV1',
    method: 'DELETE',
    path: '/api/v1/products/{uuid}',
    summary: 'Deactivate a product by uuid',
    responses: { 200: productDeactivatedResponse },
  },
  {
    ...byId,
    operationId: 'getProductPortalConfig',
    method: 'GET',
    path: config,
    summary: "A product's own portal configuration or null",
    responses: { 200: portalConfigOrNullResponse },
  },
  {
    ...byId,
    operationId: 'createProductPortalConfig',
    method: 'POST',
    path: config,
    summary: "Create or replace a product's portal configuration",
    request: configBody,
    responses: { 200: portalConfigResponse },
  },
  {
    ...byId,
    operationId: 'patchProductPortalConfig',
    method: 'PATCH',
    path: config,
    summary: "Change fields of a product's portal configuration",
    request: configBody,
    responses: { 200: portalConfigResponse },
  },
  {
    ...byId,
    operationId: 'deleteProductPortalConfig',
    method: 'DELETE',
    path: config,
    summary: "Remove a product's portal configuration",
    responses: { 200: portalConfigDeletedResponse },
  },
  {
    ...byId,
    operationId: 'getEffectivePortalConfig',
    method: 'GET',
    path: `${config}/effective`,
    summary: 'The configuration the portal uses for this product (product, else seller, else defaults)',
    responses: { 200: effectivePortalConfigResponse },
  },
  {
    ...byId,
    operationId: 'addProductAffiliate',
    method: 'POST',
    path: affiliates,
    summary: 'Add an affiliate (a seller) to a product, with its commission',
    description:
      'The affiliate must be an existing seller other than the product owner. Re-adding an ended ' +
      'affiliation starts it again with the new commission; an active one answers 409.',
    request: { path: numericOrUuidParam, body: addAffiliationSchema },
    errors: [400, 409],
    idempotent: true,
    responses: { 201: affiliationResponse },
  },
  {
    ...byId,
    operationId: 'listProductAffiliates',
    method: 'GET',
    path: affiliates,
    summary: "A product's affiliations, by affiliate id",
    request: { path: numericOrUuidParam, query: listAffiliationsQuerySchema },
    responses: { 200: affiliationListResponse },
  },
  {
    ...byId,
    operationId: 'endProductAffiliate',
    method: 'DELETE',
    path: `${affiliates}/{affiliateId}`,
    summary: 'End an affiliation (ending an ended one answers it unchanged)',
    request: { path: affiliationPathSchema },
    responses: { 200: affiliationResponse },
  },
  {
    operationId: 'getSellerPortalConfig',
    method: 'GET',
    path: '/api/portal/configuration',
    auth,
    summary: 'Seller-level portal configuration',
    responses: { 200: portalConfigOrNullResponse },
  },
  {
    operationId: 'getEffectiveSellerPortalConfig',
    method: 'GET',
    path: '/api/portal/configuration/effective',
    auth,
    summary: 'The configuration the portal uses for a product without its own (seller, else defaults)',
    description:
      "Every field filled: the seller-level configuration's fields, the defaults for the rest. " +
      '`source` is `seller` when the seller saved one, `default` otherwise.',
    responses: { 200: effectivePortalConfigResponse },
  },
  {
    operationId: 'putSellerPortalConfig',
    method: 'PUT',
    path: '/api/portal/configuration',
    auth,
    summary: 'Set the seller-level portal configuration',
    request: { body: portalConfigSchema, optionalBody: true },
    responses: { 200: portalConfigResponse },
  },
  {
    operationId: 'getPaymentLink',
    method: 'GET',
    path: '/api/payment-links/{uuid}',
    auth: [],
    summary: "A product's public payment link",
    request: { path: uuidParam },
    notFound: PRODUCT_NOT_FOUND,
    errors: [400],
    responses: { 200: paymentLinkProductResponse },
  },
]);
