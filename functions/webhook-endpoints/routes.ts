import { type AuthScheme, defineRoutes, lazySchemas } from '#shared/http/types';

// Request schemas load with the group's use cases on its first request (./use-cases.ts).
const schemas = lazySchemas(() => import('./use-cases'));

const webhooksResponses = lazySchemas(() => import('#shared/domain/webhooks/responses'));

/** Settings, Webhooks: the dashboard JWT and API keys both manage endpoints. */
const auth: AuthScheme[] = ['apiKey', 'jwt'];
const NOT_FOUND = 'Webhook endpoint not found';
const endpointRoute = { auth, request: { path: schemas.opaqueIdParam }, notFound: NOT_FOUND } as const;

export const webhookEndpointRoutes = defineRoutes('webhook-endpoints', [
  {
    operationId: 'createWebhookEndpoint',
    method: 'POST',
    path: '/api/webhook-endpoints',
    auth,
    idempotent: true,
    summary: 'Register a webhook endpoint (answers its signing secret once)',
    request: { body: schemas.createEndpointSchema },
    responses: { 201: webhooksResponses.webhookEndpointCreatedResponse },
  },
  {
    operationId: 'listWebhookEndpoints',
    method: 'GET',
    path: '/api/webhook-endpoints',
    auth,
    summary: 'List webhook endpoints',
    request: { query: schemas.pageQuerySchema },
    responses: { 200: webhooksResponses.webhookEndpointListResponse },
  },
  {
    ...endpointRoute,
    operationId: 'getWebhookEndpoint',
    method: 'GET',
    path: '/api/webhook-endpoints/{id}',
    summary: 'Read a webhook endpoint',
    responses: { 200: webhooksResponses.webhookEndpointResponse },
  },
  {
    ...endpointRoute,
    operationId: 'updateWebhookEndpoint',
    method: 'PATCH',
    path: '/api/webhook-endpoints/{id}',
    summary: 'Change a webhook endpoint',
    request: { path: schemas.opaqueIdParam, body: schemas.updateEndpointSchema },
    responses: { 200: webhooksResponses.webhookEndpointResponse },
  },
  {
    ...endpointRoute,
    operationId: 'deleteWebhookEndpoint',
    method: 'DELETE',
    path: '/api/webhook-endpoints/{id}',
    summary: 'Delete a webhook endpoint',
    responses: { 200: webhooksResponses.webhookEndpointDeletedResponse },
  },
  {
    ...endpointRoute,
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/api/webhook-endpoints/{id}/rotate-secret',
    summary: 'Rotate the signing secret (the old one signs too for 24 hours)',
    responses: { 200: webhooksResponses.webhookEndpointRotatedResponse },
  },
  {
    ...endpointRoute,
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/api/webhook-endpoints/{id}/deliveries',
    summary: 'Delivery log of an endpoint',
    request: { path: schemas.opaqueIdParam, query: schemas.pageQuerySchema },
    responses: { 200: webhooksResponses.webhookDeliveryListResponse },
  },
  {
    operationId: 'resendWebhookDelivery',
    method: 'POST',
    path: '/api/webhook-deliveries/{id}/resend',
    auth,
    summary: 'Attempt a delivery again now (same event id)',
    request: { path: schemas.opaqueIdParam },
    notFound: 'Webhook delivery not found',
    responses: { 200: webhooksResponses.webhookDeliveryResponse },
  },
]);
