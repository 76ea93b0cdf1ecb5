import { portalSessionOf, usePortalTokens } from '#shared/domain/portal/verifier';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { once } from '#shared/once';
import { portalRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

usePortalTokens();

export const handler = createHttpHandler(portalRoutes, (c) => {
  const base = {
    portalSessions: c.repos.portalSessions,
    portalConfigs: c.repos.portalConfigs,
    customers: c.repos.customers,
    products: c.repos.products,
    subscriptions: c.repos.subscriptions,
    atomically: c.atomically,
    transactions: c.repos.transactions,
    paymentMethods: c.repos.paymentMethods,
    payments: c.payments,
    scheduler: c.scheduler,
    mailer: c.mailer,
    clock: c.clock,
    ids: c.ids,
    publicBaseUrl: c.config.publicBaseUrl,
    allowLocalHttp: c.urlPolicy.allowLocalHttp,
    // What never fails the customer's action (a schedule, an e-mail): the action is done when it happens.
    reporter: c.reporter,
  };
  const run = async <T>(work: (u: Awaited<ReturnType<typeof useCases>>) => Promise<T>) =>
    work(await useCases());
  return {
    createPortalSession: async ({ tenant, body }) =>
      reply(201, await run((u) => u.createPortalSession(base, tenant, body))),
    getPortal: async ({ request }) => run((u) => u.getPortal(base, portalSessionOf(request.subject))),
    portalCancelSubscription: async ({ path, body, request }) =>
      run((u) => u.portalCancel(base, portalSessionOf(request.subject), Number(path.id), body)),
    portalPauseSubscription: async ({ path, request }) =>
      run((u) => u.portalPause(base, portalSessionOf(request.subject), Number(path.id))),
    portalResumeSubscription: async ({ path, request }) =>
      run((u) => u.portalResume(base, portalSessionOf(request.subject), Number(path.id))),
    portalReactivateSubscription: async ({ path, request }) =>
      run((u) => u.portalReactivate(base, portalSessionOf(request.subject), Number(path.id))),
    portalUpdatePaymentMethod: async ({ path, body, request }) =>
      run((u) => u.portalUpdatePaymentMethod(base, portalSessionOf(request.subject), Number(path.id), body)),
    portalAddCardAndUpdate: async ({ path, body, request }) =>
      run((u) =>
        u.portalAddCardAndUpdate(
          {
            ...base,
            rateLimits: c.repos.rateLimits,
            cardKeys: c.cardKeys,
            buyerIp: request.sourceIp,
          },
          portalSessionOf(request.subject),
          Number(path.id),
          body,
          { ip: request.sourceIp, proof: request.headers[u.PROOF_HEADER] },
        ),
      ),
    portalSubscriptionEvents: async ({ path, request }) =>
      run((u) => u.portalEvents(base, portalSessionOf(request.subject), Number(path.id))),
    portalUpdateCustomerInfo: async ({ body, request }) =>
      run((u) => u.portalUpdateCustomerInfo(base, portalSessionOf(request.subject), body)),
  };
});
