import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { once } from '#shared/once';
import { webhookEndpointRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

export const handler = createHttpHandler(webhookEndpointRoutes, (c) => {
  const deps = { endpoints: c.repos.webhookEndpoints, clock: c.clock, ids: c.ids, urlPolicy: c.urlPolicy };
  const deliveryDeps = {
    ...deps,
    deliveries: c.repos.deliveries,
    queue: c.queue,
    wallClock: c.wallClock,
    sender: c.sender,
    metrics: c.metrics,
  };
  return {
    createWebhookEndpoint: async ({ tenant, body }) =>
      reply(201, await (await useCases()).createEndpoint(deps, tenant, body)),
    listWebhookEndpoints: async ({ tenant, query }) => (await useCases()).listEndpoints(deps, tenant, query),
    getWebhookEndpoint: async ({ tenant, path }) =>
      (await useCases()).toView(await (await useCases()).getEndpoint(deps, tenant, path.id)),
    updateWebhookEndpoint: async ({ tenant, path, body }) =>
      (await useCases()).updateEndpoint(deps, tenant, path.id, body),
    deleteWebhookEndpoint: async ({ tenant, path }) =>
      (await useCases()).deleteEndpoint(deps, tenant, path.id),
    rotateWebhookSecret: async ({ tenant, path }) => (await useCases()).rotateSecret(deps, tenant, path.id),
    listWebhookDeliveries: async ({ tenant, path, query }) =>
      (await useCases()).listDeliveries(deliveryDeps, tenant, path.id, query),
    resendWebhookDelivery: async ({ tenant, path }) =>
      (await useCases()).resendDelivery(deliveryDeps, tenant, path.id),
  };
});
