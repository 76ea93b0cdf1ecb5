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

const reconciliation = {
  id: 'rcn_20261127_5d1f0c2a9e3b7a41',
  provider: 'asaas',
  day: '2026-11-27',
  environment: 'live',
  status: 'differences',
  providerPayments: 3,
  transactions: 3,
  differenceCount: 2,
  repairedCount: 1,
  differences: [
    {
      kind: 'status_mismatch',
      providerPaymentId: 'pay_080225913261',
      gatewayPayId: 482913570112846,
      transactionId: 41,
      providerAmount: 49.9,
      ourAmount: 49.9,
      providerStatus: 'paid',
      ourStatus: 'pendingPix',
      repair: 'charge.paid',
    },
    {
      kind: 'unknown_payment',
      providerPaymentId: 'pay_080225913270',
      gatewayPayId: null,
      transactionId: null,
      providerAmount: 120,
      ourAmount: null,
      providerStatus: 'paid',
      ourStatus: null,
      repair: null,
    },
  ],
  createdAt: '2026-11-28T06:00:04.118Z',
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
  listReconciliations: { responses: { 200: { data: [reconciliation], nextCursor: null } } },
  getReconciliation: { path: { id: reconciliation.id }, responses: { 200: reconciliation } },
});
