import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { once } from '#shared/once';
import { checkoutRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

export const handler = createHttpHandler(checkoutRoutes, (c) => {
  const base = {
    sessions: c.repos.checkoutSessions,
    transactions: c.repos.transactions,
    products: c.repos.products,
    customers: c.repos.customers,
    atomically: c.atomically,
    affiliations: c.repos.affiliations,
    paymentMethods: c.repos.paymentMethods,
    prices: c.repos.prices,
    subscriptions: c.repos.subscriptions,
    payments: c.payments,
    scheduler: c.scheduler,
    clock: c.clock,
    ids: c.ids,
    publicBaseUrl: c.config.publicBaseUrl,
    allowLocalHttp: c.urlPolicy.allowLocalHttp,
    reporter: c.reporter,
  };
  return {
    createCheckoutSession: async ({ tenant, body }) =>
      reply(201, await (await useCases()).createSession(base, tenant, body)),
    listCheckoutSessions: async ({ tenant, query }) => (await useCases()).listSessions(base, tenant, query),
    getCheckoutSession: async ({ tenant, path }) => (await useCases()).getSession(base, tenant, path.id),
    expireCheckoutSession: async ({ tenant, path }) =>
      (await useCases()).expireSession(base, tenant, path.id),
    getCheckoutPage: async ({ path }) => (await useCases()).checkoutView(base, path.ref),
    payCheckout: async ({ path, body, request }) => {
      const u = await useCases();
      return reply(
        201,
        await u.payCheckoutAsBuyer(
          {
            ...base,
            rateLimits: c.repos.rateLimits,
            cardKeys: c.cardKeys,
            buyerIp: request.sourceIp,
          },
          path.ref,
          body,
          { ip: request.sourceIp, proof: request.headers[u.PROOF_HEADER] },
        ),
      );
    },
    getCheckoutPayment: async ({ path }) =>
      (await useCases()).checkoutPayment(base, path.ref, path.paymentId),
    payTestCheckoutSession: async ({ tenant, path, body }) =>
      (await useCases()).payTestSession({ ...base, sandbox: c.sandbox }, tenant, path.id, body),
  };
});
