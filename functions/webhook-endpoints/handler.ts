import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { webhookEndpointRoutes } from './routes';

// Use cases load on their route's first request, not at cold start (docs/decisions.md, "Cold start").
const webhooksDeliveries = () => import('#shared/domain/webhooks/deliveries');
const webhooksEndpoints = () => import('#shared/domain/webhooks/endpoints');

export const handler = createHttpHandler(webhookEndpointRoutes, (c) => {
  const deps = { endpoints: c.repos.webhookEndpoints, clock: c.clock, ids: c.ids, urlPolicy: c.urlPolicy };
  const deliveryDeps = {
    ...deps,
    deliveries: c.repos.deliveries,
    queue: c.queue,
    sender: c.sender,
    metrics: c.metrics,
  };
  return {
    createWebhookEndpoint: async ({ tenant, body }) =>
      reply(201, await (await webhooksEndpoints()).createEndpoint(deps, tenant, body)),
    listWebhookEndpoints: async ({ tenant, query }) =>
      (await webhooksEndpoints()).listEndpoints(deps, tenant, query),
    getWebhookEndpoint: async ({ tenant, path }) =>
      (await webhooksEndpoints()).toView(
        await (await webhooksEndpoints()).getEndpoint(deps, tenant, path.id),
      ),
    updateWebhookEndpoint: async ({ tenant, path, body }) =>
      (await webhooksEndpoints()).updateEndpoint(deps, tenant, path.id, body),
    deleteWebhookEndpoint: async ({ tenant, path }) =>
      (await webhooksEndpoints()).deleteEndpoint(deps, tenant, path.id),
    rotateWebhookSecret: async ({ tenant, path }) =>
      (await webhooksEndpoints()).rotateSecret(deps, tenant, path.id),
    listWebhookDeliveries: async ({ tenant, path, query }) =>
      (await webhooksDeliveries()).listDeliveries(deliveryDeps, tenant, path.id, query),
    resendWebhookDelivery: async ({ tenant, path }) =>
      (await webhooksDeliveries()).resendDelivery(deliveryDeps, tenant, path.id),
  };
});
