import { receiveVerifiedNotification } from '#shared/domain/checkout/sessions';
import { notificationFollowUps } from '#shared/domain/payments/paid-follow-ups';
import {
  connectProvider,
  disconnectProvider,
  getProviderConnection,
} from '#shared/domain/provider-connections/connections';
import { receiveAsaasNotification } from '#shared/domain/provider-connections/notifications';
import { createHttpHandler } from '#shared/http/pipeline';
import { providerConnectionRoutes } from './routes';

export const handler = createHttpHandler(providerConnectionRoutes, (c) => {
  const deps = {
    connections: c.providers.connections,
    cipher: c.providers.cipher,
    accounts: c.providers.accounts,
    clock: c.clock,
    webhookUrl: `${c.config.publicBaseUrl}/api/provider-connections/asaas/notifications`,
  };
  const saleDeps = {
    transactions: c.repos.transactions,
    payments: c.payments,
    clock: c.clock,
    ids: c.ids,
    products: c.repos.products,
    customers: c.repos.customers,
    affiliations: c.repos.affiliations,
    paymentMethods: c.repos.paymentMethods,
    scheduler: c.scheduler,
  };
  return {
    connectAsaas: ({ tenant, body }) => connectProvider(deps, tenant.sellerId, body),
    getAsaasConnection: ({ tenant }) => getProviderConnection(deps, tenant.sellerId),
    disconnectAsaas: ({ tenant }) => disconnectProvider(deps, tenant.sellerId),
    receiveAsaasNotification: ({ request }) =>
      receiveAsaasNotification(
        {
          connections: c.providers.connections,
          links: c.providers.links,
          clock: c.clock,
          // The same follow-ups as the sandbox's notifications (functions/transactions).
          apply: (n) =>
            receiveVerifiedNotification(
              {
                ...saleDeps,
                sessions: c.repos.checkoutSessions,
                subscriptions: c.repos.subscriptions,
                onScheduleError: (error) =>
                  request.log.error('could not schedule a subscription job', { error }),
                afterPayment: notificationFollowUps(
                  {
                    ...saleDeps,
                    scheduledCharges: c.repos.scheduledCharges,
                    installmentPlans: c.repos.installmentPlans,
                  },
                  request.log,
                ),
              },
              n,
            ),
        },
        request.headers['asaas-access-token'],
        request.rawBody,
      ),
  };
});
