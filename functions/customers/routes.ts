import type { AuthScheme, RouteGroup } from '#shared/http/types';
import { create, list, setBillingEmailOverride, update } from './customers';

/** Spec: public API (API keys); the dashboard manages the same customers with its JWT. */
const auth: AuthScheme[] = ['apiKey', 'jwt'];

export const customerRoutes: RouteGroup = {
  name: 'customers',
  routes: [
    {
      method: 'POST',
      path: '/api/v1/customers',
      auth,
      idempotent: true,
      summary: 'Register a customer (reuses the global customer of a known document)',
      handler: create,
    },
    {
      method: 'GET',
      path: '/api/v1/customers',
      auth,
      summary: 'List customers, newest first',
      handler: list,
    },
    {
      method: 'PATCH',
      path: '/api/v1/customers/{uuid}',
      auth,
      summary: "Change this seller's view of a customer",
      handler: update,
    },
    {
      method: 'PATCH',
      path: '/api/v1/customers/{uuid}/billing-email-override',
      auth,
      summary: 'Set or clear the billing e-mail override',
      handler: setBillingEmailOverride,
    },
  ],
};
