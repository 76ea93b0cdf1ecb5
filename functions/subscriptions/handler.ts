import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { once } from '#shared/once';
import { subscriptionRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

const seller = { by: 'seller' } as const;

export const handler = createHttpHandler(subscriptionRoutes, (c) => {
  const engine = {
    subscriptions: c.repos.subscriptions,
    atomically: c.atomically,
    transactions: c.repos.transactions,
    paymentMethods: c.repos.paymentMethods,
    payments: c.payments,
    scheduler: c.scheduler,
    clock: c.clock,
    ids: c.ids,
    // A change is saved before its due job is scheduled; a failed schedule is left to the heartbeat's sweep.
    reporter: c.reporter,
  };
  const prices = { prices: c.repos.prices, products: c.repos.products, clock: c.clock, ids: c.ids };
  return {
    createSubscriptionPrice: async ({ tenant, path, body }) =>
      reply(201, await (await useCases()).createPrice(prices, tenant, path.id, body)),
    listSubscriptionPrices: async ({ tenant, path, query }) =>
      (await useCases()).listPrices(prices, tenant, path.id, query.active),
    deactivateSubscriptionPrice: async ({ tenant, path }) =>
      (await useCases()).deactivatePrice(prices, tenant, path.id, path.priceId),
    createSubscription: async ({ tenant, body }) => {
      const deps = { ...engine, startReader: c.repos.subscriptionStartReader };
      return reply(201, await (await useCases()).createSubscriptionByApi(deps, tenant, body));
    },
    listSubscriptions: async ({ tenant, query }) =>
      (await useCases()).listSubscriptions(engine, tenant, query),
    getSubscription: async ({ tenant, path }) =>
      (await useCases()).getSubscription(engine, tenant, Number(path.id)),
    listSubscriptionEvents: async ({ tenant, path }) =>
      (await useCases()).listSubscriptionEvents(engine, tenant, Number(path.id)),
    cancelSubscription: async ({ tenant, path, body }) =>
      (await useCases()).cancelSubscription(engine, tenant, Number(path.id), {
        ...body,
        ...seller,
      }),
    pauseSubscription: async ({ tenant, path }) =>
      (await useCases()).pauseSubscription(engine, tenant, Number(path.id), seller),
    resumeSubscription: async ({ tenant, path }) =>
      (await useCases()).resumeSubscription(engine, tenant, Number(path.id), seller),
    reactivateSubscription: async ({ tenant, path }) =>
      (await useCases()).reactivateSubscription(engine, tenant, Number(path.id), seller),
    changeSubscriptionPaymentMethod: async ({ tenant, path, body }) =>
      (await useCases()).changeSubscriptionPaymentMethod(engine, tenant, Number(path.id), {
        ...body,
        ...seller,
      }),
  };
});
