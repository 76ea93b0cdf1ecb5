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
import { defineHandlers } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { webhookEndpointRoutes } from './routes';

export const group = defineHandlers(webhookEndpointRoutes, ({ deps }) => ({
  createWebhookEndpoint: async ({ tenant, body }) => reply(201, await createEndpoint(deps, tenant, body)),
  listWebhookEndpoints: ({ tenant, query }) => listEndpoints(deps, tenant, query),
  getWebhookEndpoint: async ({ tenant, path }) => toView(await getEndpoint(deps, tenant, path.id)),
  updateWebhookEndpoint: ({ tenant, path, body }) => updateEndpoint(deps, tenant, path.id, body),
  deleteWebhookEndpoint: ({ tenant, path }) => deleteEndpoint(deps, tenant, path.id),
  rotateWebhookSecret: ({ tenant, path }) => rotateSecret(deps, tenant, path.id),
  listWebhookDeliveries: ({ tenant, path, query }) => listDeliveries(deps, tenant, path.id, query),
  resendWebhookDelivery: ({ tenant, path }) => resendDelivery(deps, tenant, path.id),
}));
