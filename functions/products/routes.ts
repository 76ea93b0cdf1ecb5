import type { AuthScheme, RouteGroup } from '#shared/http/types';
import {
  deleteProductConfig,
  effectiveProductConfig,
  getProductConfig,
  getSellerConfig,
  patchProductConfig,
  putSellerConfig,
  replaceProductConfig,
} from './portal-config';
import { create, get, getByUuid, list, paymentLink, remove, removeByUuid, update } from './products';

/** Spec rule 3: product routes accept an API key or the dashboard bearer token. */
const auth: AuthScheme[] = ['apiKey', 'jwt'];
const config = '/api/products/{id}/portal-config';

export const productRoutes: RouteGroup = {
  name: 'products',
  routes: [
    { method: 'POST', path: '/api/products', auth, summary: 'Create a product', handler: create },
    {
      method: 'GET',
      path: '/api/products/seller',
      auth,
      summary: "List the seller's products",
      handler: list,
    },
    {
      method: 'GET',
      path: '/api/products/uuid/{uuid}',
      auth,
      summary: 'Read a product by uuid',
      handler: getByUuid,
    },
    { method: 'GET', path: '/api/products/{id}', auth, summary: 'Read a product', handler: get },
    { method: 'PATCH', path: '/api/products/{id}', auth, summary: 'Change a product', handler: update },
    { method: 'DELETE', path: '/api/products/{id}', auth, summary: 'Deactivate a product', handler: remove },
    {
      method: 'DELETE',
      path: '/api/v1/products/{uuid}',
      auth,
      summary: 'Deactivate a product by uuid',
      handler: removeByUuid,
    },
    {
      method: 'GET',
      path: config,
      auth,
      summary: "A product's own portal configuration or null",
      handler: getProductConfig,
    },
    {
      method: 'POST',
      path: config,
      auth,
      summary: "Create or replace a product's portal configuration",
      handler: replaceProductConfig,
    },
    {
      method: 'PATCH',
      path: config,
      auth,
      summary: "Change fields of a product's portal configuration",
      handler: patchProductConfig,
    },
    {
      method: 'DELETE',
      path: config,
      auth,
      summary: "Remove a product's portal configuration",
      handler: deleteProductConfig,
    },
    {
      method: 'GET',
      path: `${config}/effective`,
      auth,
      summary: 'The configuration the portal uses for this product (product, else seller, else defaults)',
      handler: effectiveProductConfig,
    },
    {
      method: 'GET',
      path: '/api/portal/configuration',
      auth,
      summary: 'Seller-level portal configuration',
      handler: getSellerConfig,
    },
    {
      method: 'PUT',
      path: '/api/portal/configuration',
      auth,
      summary: 'Set the seller-level portal configuration',
      handler: putSellerConfig,
    },
    {
      method: 'GET',
      path: '/api/payment-links/{uuid}',
      auth: [],
      summary: "A product's public payment link",
      handler: paymentLink,
    },
  ],
};
