import { connectLiveProvider } from '#shared/domain/identity/live-gate';
import { disconnectProvider, getProviderConnection } from '#shared/domain/provider-connections/connections';
import { receiveAsaasNotification } from '#shared/domain/provider-connections/notifications';
import { getReconciliation, listReconciliations } from '#shared/domain/reconciliation/reconciliation';
import { receiveVerifiedNotification } from '#shared/domain/transactions/follow-ups';
import { defineHandlers } from '#shared/http/pipeline';
import { providerConnectionRoutes } from './routes';

export const group = defineHandlers(providerConnectionRoutes, (c) => {
  const deps = {
    ...c.deps,
    webhookUrl: `${c.deps.publicBaseUrl}/api/provider-connections/asaas/notifications`,
  };
  return {
    connectAsaas: ({ tenant, body, request }) =>
      connectLiveProvider(deps, tenant.sellerId, request.user, body),
    getAsaasConnection: ({ tenant }) => getProviderConnection(deps, tenant.sellerId),
    disconnectAsaas: ({ tenant }) => disconnectProvider(deps, tenant.sellerId),
    receiveAsaasNotification: ({ request }) =>
      receiveAsaasNotification(
        {
          ...deps,
          // The same follow-ups as the sandbox's notifications (functions/transactions).
          apply: (n) => receiveVerifiedNotification(c.deps, n),
        },
        request.headers['asaas-access-token'],
        request.rawBody,
      ),
    listReconciliations: ({ tenant, query }) => listReconciliations(deps, tenant, query),
    getReconciliation: ({ tenant, path }) => getReconciliation(deps, tenant, path.id),
  };
});
