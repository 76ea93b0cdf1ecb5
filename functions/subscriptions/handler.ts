import {
  cancelSubscription,
  changeSubscriptionPaymentMethod,
  pauseSubscription,
  reactivateSubscription,
  resumeSubscription,
} from '#shared/domain/subscriptions/actions';
import { createPrice, deactivatePrice, listPrices } from '#shared/domain/subscriptions/prices';
import {
  getSubscription,
  listSubscriptionEvents,
  listSubscriptions,
} from '#shared/domain/subscriptions/queries';
import { createSubscriptionByApi } from '#shared/domain/subscriptions/start';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { subscriptionRoutes } from './routes';

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
      reply(201, await createPrice(prices, tenant, path.id, body)),
    listSubscriptionPrices: ({ tenant, path, query }) => listPrices(prices, tenant, path.id, query.active),
    deactivateSubscriptionPrice: ({ tenant, path }) => deactivatePrice(prices, tenant, path.id, path.priceId),
    createSubscription: async ({ tenant, body, request }) => {
      const deps = { ...withLog(request.log), customers: c.repos.customers, ...prices };
      return reply(201, await createSubscriptionByApi(deps, tenant, body));
    },
    listSubscriptions: ({ tenant, query }) => listSubscriptions(engine, tenant, query),
    getSubscription: ({ tenant, path }) => getSubscription(engine, tenant, Number(path.id)),
    listSubscriptionEvents: ({ tenant, path }) => listSubscriptionEvents(engine, tenant, Number(path.id)),
    cancelSubscription: ({ tenant, path, body, request }) =>
      cancelSubscription(withLog(request.log), tenant, Number(path.id), { ...body, ...seller }),
    pauseSubscription: ({ tenant, path, request }) =>
      pauseSubscription(withLog(request.log), tenant, Number(path.id), seller),
    resumeSubscription: ({ tenant, path, request }) =>
      resumeSubscription(withLog(request.log), tenant, Number(path.id), seller),
    reactivateSubscription: ({ tenant, path, request }) =>
      reactivateSubscription(withLog(request.log), tenant, Number(path.id), seller),
    changeSubscriptionPaymentMethod: ({ tenant, path, body, request }) =>
      changeSubscriptionPaymentMethod(withLog(request.log), tenant, Number(path.id), { ...body, ...seller }),
  };
});
