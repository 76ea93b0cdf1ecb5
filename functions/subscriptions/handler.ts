import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { subscriptionRoutes } from './routes';

// Use cases load on their route's first request, not at cold start (docs/decisions.md, "Cold start").
const subscriptionsActions = () => import('#shared/domain/subscriptions/actions');
const subscriptionsPrices = () => import('#shared/domain/subscriptions/prices');
const subscriptionsQueries = () => import('#shared/domain/subscriptions/queries');
const subscriptionsStart = () => import('#shared/domain/subscriptions/start');

const seller = { by: 'seller' } as const;

export const handler = createHttpHandler(subscriptionRoutes, (c) => {
  const engine = {
    subscriptions: c.repos.subscriptions,
    transactions: c.repos.transactions,
    paymentMethods: c.repos.paymentMethods,
    payments: c.payments,
    scheduler: c.scheduler,
    clock: c.clock,
    ids: c.ids,
  };
  const prices = { prices: c.repos.prices, products: c.repos.products, clock: c.clock, ids: c.ids };
  // A change is saved before its due job is scheduled; a failed schedule is left to the heartbeat's sweep.
  const withLog = (log: Logger) => ({
    ...engine,
    onScheduleError: (error: unknown) => log.error('could not schedule a subscription due job', { error }),
  });
  return {
    createSubscriptionPrice: async ({ tenant, path, body }) =>
      reply(201, await (await subscriptionsPrices()).createPrice(prices, tenant, path.id, body)),
    listSubscriptionPrices: async ({ tenant, path, query }) =>
      (await subscriptionsPrices()).listPrices(prices, tenant, path.id, query.active),
    deactivateSubscriptionPrice: async ({ tenant, path }) =>
      (await subscriptionsPrices()).deactivatePrice(prices, tenant, path.id, path.priceId),
    createSubscription: async ({ tenant, body, request }) => {
      const deps = { ...withLog(request.log), customers: c.repos.customers, ...prices };
      return reply(201, await (await subscriptionsStart()).createSubscriptionByApi(deps, tenant, body));
    },
    listSubscriptions: async ({ tenant, query }) =>
      (await subscriptionsQueries()).listSubscriptions(engine, tenant, query),
    getSubscription: async ({ tenant, path }) =>
      (await subscriptionsQueries()).getSubscription(engine, tenant, Number(path.id)),
    listSubscriptionEvents: async ({ tenant, path }) =>
      (await subscriptionsQueries()).listSubscriptionEvents(engine, tenant, Number(path.id)),
    cancelSubscription: async ({ tenant, path, body, request }) =>
      (await subscriptionsActions()).cancelSubscription(withLog(request.log), tenant, Number(path.id), {
        ...body,
        ...seller,
      }),
    pauseSubscription: async ({ tenant, path, request }) =>
      (await subscriptionsActions()).pauseSubscription(withLog(request.log), tenant, Number(path.id), seller),
    resumeSubscription: async ({ tenant, path, request }) =>
      (await subscriptionsActions()).resumeSubscription(
        withLog(request.log),
        tenant,
        Number(path.id),
        seller,
      ),
    reactivateSubscription: async ({ tenant, path, request }) =>
      (await subscriptionsActions()).reactivateSubscription(
        withLog(request.log),
        tenant,
        Number(path.id),
        seller,
      ),
    changeSubscriptionPaymentMethod: async ({ tenant, path, body, request }) =>
      (await subscriptionsActions()).changeSubscriptionPaymentMethod(
        withLog(request.log),
        tenant,
        Number(path.id),
        { ...body, ...seller },
      ),
  };
});
