import type { WebhookEndpointRepository } from '#shared/domain/ports';
import {
  type EndpointPatch,
  type WebhookEndpoint,
  WebhookEndpointLimitError,
} from '#shared/domain/webhooks/endpoints';
import { WEBHOOK_ENDPOINT_NOT_FOUND } from '#shared/domain/webhooks/not-found';
import { NotFoundError } from '#shared/errors';
import { countOneLess, countOneMore } from './capped-count';
import { webhookEndpointEntity } from './entities/webhook-endpoint';
import { keys } from './keys';
import {
  alreadyExists,
  ConditionFailedError,
  type Item,
  orConflict,
  patchExpression,
  type Table,
} from './table';

export const toEndpoint = webhookEndpointEntity.fromItem;

/** The item that counts a tenant's webhook endpoints (capped-count.ts). */
const ENDPOINT_COUNT_ENTITY = 'webhook-endpoint-count';

export function createWebhookEndpointRepository(table: Table): WebhookEndpointRepository {
  const queryPage = (tenant: WebhookEndpoint['tenant'], limit: number, cursor?: string) =>
    table.queryPage<Item>(
      {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.tenant(tenant), ':prefix': keys.webhookEndpointPrefix },
        cursor,
      },
      limit,
    );

  return {
    async create(e, max) {
      // The endpoint and the tenant's count in one transaction (capped-count.ts).
      const write = table.transact([
        {
          Put: {
            Item: webhookEndpointEntity.toItem(e),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        countOneMore(keys.webhookEndpointCount(e.tenant), 'endpoints', ENDPOINT_COUNT_ENTITY, max),
      ]);
      await orConflict(write, (failure) =>
        failure.failedIndexes.includes(0) || max === undefined
          ? alreadyExists('The webhook endpoint')(failure)
          : new WebhookEndpointLimitError(max),
      );
    },

    async get(tenant, id) {
      const item = await table.get<Item>(keys.webhookEndpoint(tenant, id), { consistent: true });
      return item ? toEndpoint(item) : null;
    },

    async list(tenant, page) {
      const out = await queryPage(tenant, page.limit, page.cursor);
      return { items: out.items.map(toEndpoint), cursor: out.cursor };
    },

    async all(tenant) {
      const items: WebhookEndpoint[] = [];
      let cursor: string | undefined;
      do {
        const out = await queryPage(tenant, 100, cursor);
        items.push(...out.items.map(toEndpoint));
        cursor = out.cursor;
      } while (cursor);
      return items;
    },

    async update(tenant, id, patch: EndpointPatch) {
      const { expression, names, values } = patchExpression({ ...patch });
      try {
        const item = await table.update<Item>({
          Key: keys.webhookEndpoint(tenant, id),
          UpdateExpression: expression,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
          ReturnValues: 'ALL_NEW',
        });
        return item ? toEndpoint(item) : null;
      } catch (error) {
        // attribute_exists(pk) failed: no such endpoint, answered like a read.
        if (error instanceof ConditionFailedError) return null;
        throw error;
      }
    },

    async delete(tenant, id) {
      const write = table.transact([
        { Delete: { Key: keys.webhookEndpoint(tenant, id), ConditionExpression: 'attribute_exists(pk)' } },
        countOneLess(keys.webhookEndpointCount(tenant), 'endpoints'),
      ]);
      await orConflict(write, () => new NotFoundError(WEBHOOK_ENDPOINT_NOT_FOUND));
    },
  };
}
