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
import { defineHandlers } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { subscriptionRoutes } from './routes';

const seller = { by: 'seller' } as const;

export const group = defineHandlers(subscriptionRoutes, ({ deps }) => {
  // A change is saved before its due job is scheduled; a failed schedule is left to the heartbeat's sweep.
  const logged = (log: Logger) => ({
    ...deps,
    onScheduleError: (error: unknown) => log.error('could not schedule a subscription due job', { error }),
  });
  return {
    createSubscriptionPrice: async ({ tenant, path, body }) =>
      reply(201, await createPrice(deps, tenant, path.id, body)),
    listSubscriptionPrices: ({ tenant, path, query }) => listPrices(deps, tenant, path.id, query.active),
    deactivateSubscriptionPrice: ({ tenant, path }) => deactivatePrice(deps, tenant, path.id, path.priceId),
    createSubscription: async ({ tenant, body, request }) =>
      reply(201, await createSubscriptionByApi(logged(request.log), tenant, body)),
    listSubscriptions: ({ tenant, query }) => listSubscriptions(deps, tenant, query),
    getSubscription: ({ tenant, path }) => getSubscription(deps, tenant, Number(path.id)),
    listSubscriptionEvents: ({ tenant, path }) => listSubscriptionEvents(deps, tenant, Number(path.id)),
    cancelSubscription: ({ tenant, path, body, request }) =>
      cancelSubscription(logged(request.log), tenant, Number(path.id), { ...body, ...seller }),
    pauseSubscription: ({ tenant, path, request }) =>
      pauseSubscription(logged(request.log), tenant, Number(path.id), seller),
    resumeSubscription: ({ tenant, path, request }) =>
      resumeSubscription(logged(request.log), tenant, Number(path.id), seller),
    reactivateSubscription: ({ tenant, path, request }) =>
      reactivateSubscription(logged(request.log), tenant, Number(path.id), seller),
    changeSubscriptionPaymentMethod: ({ tenant, path, body, request }) =>
      changeSubscriptionPaymentMethod(logged(request.log), tenant, Number(path.id), { ...body, ...seller }),
  };
});
