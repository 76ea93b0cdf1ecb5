import { listDeliveries, resendDelivery } from '#shared/domain/webhooks/deliveries';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  toView,
  updateEndpoint,
} from '#shared/domain/webhooks/endpoints';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { webhookEndpointRoutes } from './routes';

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
    createWebhookEndpoint: async ({ tenant, body }) => reply(201, await createEndpoint(deps, tenant, body)),
    listWebhookEndpoints: ({ tenant, query }) => listEndpoints(deps, tenant, query),
    getWebhookEndpoint: async ({ tenant, path }) => toView(await getEndpoint(deps, tenant, path.id)),
    updateWebhookEndpoint: ({ tenant, path, body }) => updateEndpoint(deps, tenant, path.id, body),
    deleteWebhookEndpoint: ({ tenant, path }) => deleteEndpoint(deps, tenant, path.id),
    rotateWebhookSecret: ({ tenant, path }) => rotateSecret(deps, tenant, path.id),
    listWebhookDeliveries: ({ tenant, path, query }) => listDeliveries(deliveryDeps, tenant, path.id, query),
    resendWebhookDelivery: ({ tenant, path }) => resendDelivery(deliveryDeps, tenant, path.id),
  };
});
