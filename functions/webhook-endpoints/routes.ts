import { opaqueIdParam } from '#shared/domain/params';
import {
  createEndpointSchema,
  pageQuerySchema,
  updateEndpointSchema,
} from '#shared/domain/webhooks/endpoints';
import {
  webhookDeliveryListResponse,
  webhookDeliveryResponse,
  webhookEndpointCreatedResponse,
  webhookEndpointDeletedResponse,
  webhookEndpointListResponse,
  webhookEndpointResponse,
  webhookEndpointRotatedResponse,
} from '#shared/domain/webhooks/responses';
import { type AuthScheme, defineRoutes } from '#shared/http/types';

/** Settings, Webhooks: the dashboard JWT and API keys both manage endpoints. */
const auth: AuthScheme[] = ['apiKey', 'jwt'];
const NOT_FOUND = 'Webhook endpoint not found';
const endpointRoute = { auth, request: { path: opaqueIdParam }, notFound: NOT_FOUND } as const;

export const webhookEndpointRoutes = defineRoutes('webhook-endpoints', [
  {
    operationId: 'createWebhookEndpoint',
    method: 'POST',
    access: 'developer',
    path: '/api/webhook-endpoints',
    auth,
    idempotent: true,
    summary: 'Register a webhook endpoint (answers its signing secret once)',
    request: { body: createEndpointSchema },
    responses: { 201: webhookEndpointCreatedResponse },
  },
  {
    operationId: 'listWebhookEndpoints',
    method: 'GET',
    path: '/api/webhook-endpoints',
    auth,
    summary: 'List webhook endpoints',
    request: { query: pageQuerySchema },
    responses: { 200: webhookEndpointListResponse },
  },
  {
    ...endpointRoute,
    operationId: 'getWebhookEndpoint',
    method: 'GET',
    path: '/api/webhook-endpoints/{id}',
    summary: 'Read a webhook endpoint',
    responses: { 200: webhookEndpointResponse },
  },
  {
    ...endpointRoute,
    operationId: 'updateWebhookEndpoint',
    method: 'PATCH',
    access: 'developer',
    path: '/api/webhook-endpoints/{id}',
    summary: 'Change a webhook endpoint',
    request: { path: opaqueIdParam, body: updateEndpointSchema },
    responses: { 200: webhookEndpointResponse },
  },
  {
    ...endpointRoute,
    operationId: 'deleteWebhookEndpoint',
    method: 'DELETE',
    access: 'developer',
    path: '/api/webhook-endpoints/{id}',
    summary: 'Delete a webhook endpoint',
    responses: { 200: webhookEndpointDeletedResponse },
  },
  {
    ...endpointRoute,
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    access: 'developer',
    path: '/api/webhook-endpoints/{id}/rotate-secret',
    summary: 'Rotate the signing secret (the old one signs too for 24 hours)',
    responses: { 200: webhookEndpointRotatedResponse },
  },
  {
    ...endpointRoute,
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/api/webhook-endpoints/{id}/deliveries',
    summary: 'Delivery log of an endpoint',
    request: { path: opaqueIdParam, query: pageQuerySchema },
    responses: { 200: webhookDeliveryListResponse },
  },
  {
    operationId: 'resendWebhookDelivery',
    method: 'POST',
    access: 'developer',
    path: '/api/webhook-deliveries/{id}/resend',
    auth,
    summary: 'Attempt a delivery again now (same event id)',
    request: { path: opaqueIdParam },
    notFound: 'Webhook delivery not found',
    responses: { 200: webhookDeliveryResponse },
  },
]);
