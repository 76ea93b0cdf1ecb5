import { createHttpHandler } from '#shared/http/pipeline';
import { once } from '#shared/once';
import { notificationDeps } from '#shared/platform/notification-deps';
import { providerConnectionRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

export const handler = createHttpHandler(providerConnectionRoutes, (c) => {
  const deps = {
    connections: c.providers.connections,
    cipher: c.providers.cipher,
    accounts: c.providers.accounts,
    clock: c.clock,
    sellerLogins: c.sellerAccounts,
    webhookUrl: `${c.config.publicBaseUrl}/api/provider-connections/asaas/notifications`,
  };
  return {
    connectAsaas: async ({ tenant, body }) =>
      (await useCases()).connectLiveProvider(deps, tenant.sellerId, body),
    getAsaasConnection: async ({ tenant }) => (await useCases()).getProviderConnection(deps, tenant.sellerId),
    disconnectAsaas: async ({ tenant }) => (await useCases()).disconnectProvider(deps, tenant.sellerId),
    receiveAsaasNotification: async ({ request }) =>
      (await useCases()).receiveAsaasNotification(
        {
          connections: c.providers.connections,
          links: c.providers.links,
          clock: c.clock,
          // The same follow-ups as the sandbox's notifications (functions/transactions).
          apply: async (n) => {
            const u = await useCases();
            return u.receiveVerifiedNotification(notificationDeps(c), n);
          },
        },
        request.headers['asaas-access-token'],
        request.rawBody,
      ),
  };
});
