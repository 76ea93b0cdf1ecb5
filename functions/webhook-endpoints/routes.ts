import type { AuthScheme, RouteGroup } from '#shared/http/types';
import { create, deliveries, get, list, remove, resend, rotate, update } from './endpoints';

/** Settings, Webhooks: the dashboard JWT and API keys both manage endpoints. */
const auth: AuthScheme[] = ['apiKey', 'jwt'];

export const webhookEndpointRoutes: RouteGroup = {
  name: 'webhook-endpoints',
  routes: [
    {
      method: 'POST',
      path: '/api/webhook-endpoints',
      auth,
      idempotent: true,
      summary: 'Register a webhook endpoint',
      handler: create,
    },
    { method: 'GET', path: '/api/webhook-endpoints', auth, summary: 'List webhook endpoints', handler: list },
    {
      method: 'GET',
      path: '/api/webhook-endpoints/{id}',
      auth,
      summary: 'Read a webhook endpoint',
      handler: get,
    },
    {
      method: 'PATCH',
      path: '/api/webhook-endpoints/{id}',
      auth,
      summary: 'Change a webhook endpoint',
      handler: update,
    },
    {
      method: 'DELETE',
      path: '/api/webhook-endpoints/{id}',
      auth,
      summary: 'Delete a webhook endpoint',
      handler: remove,
    },
    {
      method: 'POST',
      path: '/api/webhook-endpoints/{id}/rotate-secret',
      auth,
      summary: 'Rotate the signing secret (the old one signs too for 24 hours)',
      handler: rotate,
    },
    {
      method: 'GET',
      path: '/api/webhook-endpoints/{id}/deliveries',
      auth,
      summary: 'Delivery log of an endpoint',
      handler: deliveries,
    },
    {
      method: 'POST',
      path: '/api/webhook-deliveries/{id}/resend',
      auth,
      summary: 'Attempt a delivery again now (same event id)',
      handler: resend,
    },
  ],
};
