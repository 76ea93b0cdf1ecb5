import { connectProviderSchema } from '#shared/domain/provider-connections/connections';
import {
  asaasNotificationResponse,
  providerConnectedResponse,
  providerConnectionResponse,
} from '#shared/domain/provider-connections/responses';
import { defineRoutes } from '#shared/http/types';

/** Issue 16: a seller's live provider account (dashboard only) and that provider's webhooks. */
export const providerConnectionRoutes = defineRoutes('provider-connections', [
  {
    operationId: 'connectAsaas',
    method: 'PUT',
    path: '/api/provider-connections/asaas',
    auth: ['jwt'],
    summary: 'Connect the seller’s Asaas account (the key is checked, stored encrypted, never shown)',
    request: { body: connectProviderSchema },
    errors: [403, 503],
    responses: { 200: providerConnectedResponse },
  },
  {
    operationId: 'getAsaasConnection',
    method: 'GET',
    path: '/api/provider-connections/asaas',
    auth: ['jwt'],
    summary: 'The connected Asaas account, without its key',
    errors: [404],
    responses: { 200: providerConnectionResponse },
  },
  {
    operationId: 'disconnectAsaas',
    method: 'DELETE',
    path: '/api/provider-connections/asaas',
    auth: ['jwt'],
    summary: 'Disconnect the Asaas account (live sales answer 503 again)',
    description: '409 `concurrent_update` when the account was connected again during the call: retry.',
    errors: [404, 409],
    responses: { 200: providerConnectionResponse },
  },
  {
    operationId: 'receiveAsaasNotification',
    method: 'POST',
    path: '/api/provider-connections/asaas/notifications',
    auth: [],
    summary: 'Asaas webhook (authenticated by the asaas-access-token header)',
    description: 'Asaas API v3 webhook events; the seller is the owner of the token in asaas-access-token.',
    errors: [400, 401, 404],
    responses: { 200: asaasNotificationResponse },
  },
]);
