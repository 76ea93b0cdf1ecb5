import type { WebhookEndpoint } from '#shared/domain/webhooks/endpoints';
import { keys } from '../keys';
import { defineEntity } from './entity';

/** A tenant's webhook endpoint: url, events, secret, and the previous secret during a rotation. */
export const webhookEndpointEntity = defineEntity({
  entity: 'webhook-endpoint',
  version: 1,
  key: (e: WebhookEndpoint) => keys.webhookEndpoint(e.tenant, e.id),
  patterns: {},
  attributes: (e) => ({
    id: e.id,
    sellerId: e.tenant.sellerId,
    environment: e.tenant.environment,
    url: e.url,
    events: e.events,
    description: e.description ?? undefined,
    status: e.status,
    secret: e.secret,
    previousSecret: e.previousSecret ?? undefined,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  }),
  fromItem: (item): WebhookEndpoint => ({
    id: String(item.id),
    tenant: {
      sellerId: Number(item.sellerId),
      environment: item.environment as WebhookEndpoint['tenant']['environment'],
    },
    url: String(item.url),
    events: item.events as string[],
    description: (item.description as string | undefined) ?? null,
    status: item.status as WebhookEndpoint['status'],
    secret: String(item.secret),
    previousSecret: (item.previousSecret as WebhookEndpoint['previousSecret'] | undefined) ?? null,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  }),
});
