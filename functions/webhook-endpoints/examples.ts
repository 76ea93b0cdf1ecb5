import { defineExamples } from '#shared/http/examples';
import { webhookEndpointRoutes } from './routes';

/** Calls of the webhook endpoint routes for the API reference (read by the OpenAPI generator and the tests only). */

const endpoint = {
  id: 'we_0Z4FNqdE5j7rKSgzWCD0',
  url: 'https://loja.example.com/webhooks',
  events: ['transaction.payment.succeeded', 'transaction.refunded', 'checkout.session.completed'],
  description: 'Pedidos pagos e reembolsados da loja',
  status: 'enabled',
  environment: 'test',
  createdAt: '2026-11-28T16:59:22.400Z',
  updatedAt: '2026-11-28T16:59:22.400Z',
} as const;
const everything = { ...endpoint, events: ['*'], updatedAt: '2026-11-28T17:05:10.490Z' };
const delivery = {
  id: 'whd_0Z4FNqdE5j7rKSgzWCD0_67971e0eb9dca7ba',
  endpointId: endpoint.id,
  eventId: 'evt_OzA0t9sEpX9BxA6ObA2rmwBx',
  event: 'transaction.payment.succeeded',
  status: 'pending',
  attemptCount: 1,
  lastStatusCode: 500,
  lastDurationMs: 84,
  lastError: null,
  lastResponseExcerpt: '<html><body><h1>500 Internal Server Error</h1></body></html>',
  lastAttemptAt: '2026-11-28T17:10:22.699Z',
  nextAttemptAt: '2026-11-28T17:11:22.671Z',
  createdAt: '2026-11-28T17:10:22.671Z',
  updatedAt: '2026-11-28T17:10:22.700Z',
} as const;

export const examples = defineExamples(webhookEndpointRoutes, {
  createWebhookEndpoint: {
    body: { url: endpoint.url, events: endpoint.events, description: endpoint.description },
    responses: { 201: { ...endpoint, secret: 'whsec_GQFDVjQ7Fbtw0hsGbliPfwGxiXcoCg3f' } },
  },
  listWebhookEndpoints: {
    query: { limit: 10 },
    responses: { 200: { data: [endpoint], nextCursor: null } },
  },
  getWebhookEndpoint: { path: { id: endpoint.id }, responses: { 200: endpoint } },
  updateWebhookEndpoint: {
    path: { id: endpoint.id },
    body: { events: ['*'] },
    responses: { 200: everything },
  },
  deleteWebhookEndpoint: {
    path: { id: 'we_NArSmnmang7j2RGYaNao' },
    responses: { 200: { id: 'we_NArSmnmang7j2RGYaNao', deleted: true } },
  },
  rotateWebhookSecret: {
    path: { id: endpoint.id },
    responses: {
      200: {
        ...everything,
        updatedAt: '2026-11-28T17:20:00.581Z',
        secret: 'whsec_p5G3IptWYmAHNphXR1lUrfaylE7lbZK3',
        previousSecretExpiresAt: '2026-11-29T17:20:00.581Z',
      },
    },
  },
  listWebhookDeliveries: {
    path: { id: endpoint.id },
    query: { limit: 10 },
    responses: { 200: { data: [delivery], nextCursor: null } },
  },
  resendWebhookDelivery: {
    path: { id: delivery.id },
    responses: {
      200: {
        ...delivery,
        status: 'succeeded',
        attemptCount: 2,
        lastStatusCode: 200,
        lastDurationMs: 63,
        lastResponseExcerpt: '{"received":true}',
        lastAttemptAt: '2026-11-28T17:10:51.195Z',
        nextAttemptAt: null,
        updatedAt: '2026-11-28T17:10:51.196Z',
      },
    },
  },
});
