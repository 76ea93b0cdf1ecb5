import { defineExamples } from '#shared/http/examples';
import { providerConnectionRoutes } from './routes';

/** Calls of the provider connection routes for the API reference (read by the OpenAPI generator and the tests only). */

const connection = {
  provider: 'asaas',
  environment: 'production',
  accountName: 'Escola Harmonia LTDA',
  apiKeyLast4: 'oXzQ',
  connectedAt: '2026-11-28T17:10:56.725Z',
} as const;

export const examples = defineExamples(providerConnectionRoutes, {
  connectAsaas: {
    body: {
      apiKey: '$aact_YTU5YTE0M2M2N2I4MTliNzk0YTI5N2U5MzdjNWZmNDQ6OjAwMDAwMDAwMDAwMDAwNjQ3NTI6OiRhYWNoXzQ',
      environment: 'production',
    },
    responses: {
      200: {
        ...connection,
        webhook: {
          url: 'http://127.0.0.1:3000/api/provider-connections/asaas/notifications',
          authToken: 'whsec_asaas_35-hQ--PzwJMYDmePZ4TF_ifx50F57np',
          header: 'asaas-access-token',
        },
      },
    },
  },
  getAsaasConnection: { responses: { 200: connection } },
  disconnectAsaas: { responses: { 200: connection } },
  receiveAsaasNotification: {
    responses: {
      200: { received: true, applied: true, duplicate: false, transactionId: 1, status: 'payedPix' },
    },
  },
});
