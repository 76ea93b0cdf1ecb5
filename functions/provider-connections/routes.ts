import { connectProviderSchema } from '#shared/domain/provider-connections/connections';
import {
  asaasNotificationResponse,
  providerConnectedResponse,
  providerConnectionResponse,
} from '#shared/domain/provider-connections/responses';
import {
  listReconciliationsQuery,
  reconciliationIdParam,
} from '#shared/domain/reconciliation/reconciliation';
import { reconciliationListResponse, reconciliationResponse } from '#shared/domain/reconciliation/responses';
import { defineRoutes } from '#shared/http/types';

/**
 * A seller's live provider account (dashboard only), that provider's webhooks, and the daily
 * reconciliations with it (read by the seller's server too).
 */
export const providerConnectionRoutes = defineRoutes('provider-connections', [
  {
    operationId: 'connectAsaas',
    method: 'PUT',
    access: 'admin',
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
    access: 'admin',
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
  {
    operationId: 'listReconciliations',
    method: 'GET',
    path: '/api/reconciliations',
    auth: ['apiKey', 'jwt'],
    summary: 'List the daily reconciliations with the live provider, newest day first',
    description:
      "Each day (03:00 Sao Paulo, for the day before) the provider's payments are compared with the transactions: a status the provider moved forward is applied as its notification would be (with its events), and every difference is listed here.",
    request: { query: listReconciliationsQuery },
    responses: { 200: reconciliationListResponse },
  },
  {
    operationId: 'getReconciliation',
    method: 'GET',
    path: '/api/reconciliations/{id}',
    auth: ['apiKey', 'jwt'],
    summary: 'Read one daily reconciliation, with its differences',
    request: { path: reconciliationIdParam },
    notFound: 'Reconciliation not found',
    responses: { 200: reconciliationResponse },
  },
]);
