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
import { subscriptionRoutes } from './routes';

const seller = { by: 'seller' } as const;

export const group = defineHandlers(subscriptionRoutes, ({ deps }) => {
  // A change is saved before its due job is scheduled; a failed schedule is left to the heartbeat's sweep.
  return {
    createSubscriptionPrice: async ({ tenant, path, body }) =>
      reply(201, await createPrice(deps, tenant, path.id, body)),
    listSubscriptionPrices: ({ tenant, path, query }) => listPrices(deps, tenant, path.id, query.active),
    deactivateSubscriptionPrice: ({ tenant, path }) => deactivatePrice(deps, tenant, path.id, path.priceId),
    createSubscription: async ({ tenant, body }) =>
      reply(201, await createSubscriptionByApi(deps, tenant, body)),
    listSubscriptions: ({ tenant, query }) => listSubscriptions(deps, tenant, query),
    getSubscription: ({ tenant, path }) => getSubscription(deps, tenant, Number(path.id)),
    listSubscriptionEvents: ({ tenant, path }) => listSubscriptionEvents(deps, tenant, Number(path.id)),
    cancelSubscription: ({ tenant, path, body }) =>
      cancelSubscription(deps, tenant, Number(path.id), { ...body, ...seller }),
    pauseSubscription: ({ tenant, path }) => pauseSubscription(deps, tenant, Number(path.id), seller),
    resumeSubscription: ({ tenant, path }) => resumeSubscription(deps, tenant, Number(path.id), seller),
    reactivateSubscription: ({ tenant, path }) =>
      reactivateSubscription(deps, tenant, Number(path.id), seller),
    changeSubscriptionPaymentMethod: ({ tenant, path, body }) =>
      changeSubscriptionPaymentMethod(deps, tenant, Number(path.id), { ...body, ...seller }),
  };
});
