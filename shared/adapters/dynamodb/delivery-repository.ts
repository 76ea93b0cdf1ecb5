import type { DeliveryRepository } from '#shared/domain/ports';
import type { WebhookDelivery } from '#shared/domain/webhooks/deliveries';
import { ConflictError } from '#shared/errors';
import { eventDeliveryAttributes } from './event-log-keys';
import { keys } from './keys';
import {
  alreadyExists,
  ConditionFailedError,
  type Item,
  orConflict,
  patchExpression,
  type Table,
} from './table';
import { TABLE } from './table-definition';
import { toEndpoint } from './webhook-endpoint-repository';

const ENTITY = 'webhook-delivery';
/** Delivery logs are kept 30 days. */
const RETENTION_SECONDS = 30 * 86_400;
/** An endpoint's deliveries, newest first. */
const byOwner = TABLE.indexes.byUuidOrOwner;

const FIELDS = [
  'id',
  'endpointId',
  'eventId',
  'eventName',
  'body',
  'status',
  'scheduledAttempts',
  'manualAttempts',
  'lastStatusCode',
  'lastDurationMs',
  'lastError',
  'lastResponseExcerpt',
  'lastAttemptAt',
  'nextAttemptAt',
  'createdAt',
  'updatedAt',
] as const;

export function toDelivery(item: Item): WebhookDelivery {
  const out: Record<string, unknown> = {
    tenant: { sellerId: Number(item.sellerId), environment: item.environment },
  };
  for (const f of FIELDS) out[f] = item[f] ?? null;
  return out as unknown as WebhookDelivery;
}

const attemptAlreadyRecorded = (cause: unknown) =>
  new ConflictError('The attempt was already recorded', 'attempt_already_recorded', {
    reason: 'changed',
    cause,
  });

function itemOf(d: WebhookDelivery): Item {
  const item: Item = {
    ...keys.webhookDelivery(d.tenant, d.id),
    [byOwner.partitionKey]: keys.deliveriesOfEndpoint(d.endpointId),
    [byOwner.sortKey]: `${d.createdAt}#${d.id}`,
    ...eventDeliveryAttributes(d),
    entity: ENTITY,
    version: 1,
    sellerId: d.tenant.sellerId,
    environment: d.tenant.environment,
    ttl: Math.floor(Date.parse(d.createdAt) / 1000) + RETENTION_SECONDS,
  };
  for (const f of FIELDS) item[f] = d[f] ?? undefined;
  return item;
}

export function createDeliveryRepository(table: Table): DeliveryRepository {
  return {
    async createIfAbsent(d) {
      const item = itemOf(d);
      try {
        await table.put(item, { ConditionExpression: 'attribute_not_exists(pk)' });
        return d;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        if (error.existing) return toDelivery(error.existing);
        throw alreadyExists('The delivery')(error);
      }
    },

    async recordFirstAttempt(d) {
      await orConflict(
        table.put(itemOf(d), { ConditionExpression: 'attribute_not_exists(pk)' }),
        attemptAlreadyRecorded,
      );
    },

    async get(tenant, id) {
      const item = await table.get<Item>(keys.webhookDelivery(tenant, id), { consistent: true });
      return item ? toDelivery(item) : null;
    },

    async getWithEndpoint(tenant, id, endpointId) {
      const deliveryKey = keys.webhookDelivery(tenant, id);
      const endpointKey = keys.webhookEndpoint(tenant, endpointId);
      const items = await table.batchGet<Item>([deliveryKey, endpointKey], { consistent: true });
      const delivery = items.find((i) => i.sk === deliveryKey.sk);
      const endpoint = items.find((i) => i.sk === endpointKey.sk);
      return {
        delivery: delivery ? toDelivery(delivery) : null,
        endpoint: endpoint ? toEndpoint(endpoint) : null,
      };
    },

    async getManyWithEndpoints(refs) {
      const pairs = refs.map((r) => ({
        delivery: keys.webhookDelivery(r.tenant, r.id),
        endpoint: keys.webhookEndpoint(r.tenant, r.endpointId),
      }));
      const id = (k: { pk: string; sk: string }) => `${k.pk}\n${k.sk}`;
      const unique = new Map(pairs.flatMap((p) => [p.delivery, p.endpoint]).map((k) => [id(k), k]));
      if (unique.size === 0) return [];
      const items = await table.batchGet<Item>([...unique.values()], { consistent: true });
      const found = new Map(items.map((i) => [id(i as { pk: string; sk: string }), i]));
      return pairs.map((p) => {
        const delivery = found.get(id(p.delivery));
        const endpoint = found.get(id(p.endpoint));
        return {
          delivery: delivery ? toDelivery(delivery) : null,
          endpoint: endpoint ? toEndpoint(endpoint) : null,
        };
      });
    },

    async listByEndpoint(tenant, endpointId, page) {
      const out = await table.queryPage<Item>(
        {
          IndexName: byOwner.name,
          KeyConditionExpression: '#pk = :pk',
          FilterExpression: 'sellerId = :seller AND environment = :env',
          ExpressionAttributeNames: { '#pk': byOwner.partitionKey },
          ExpressionAttributeValues: {
            ':pk': keys.deliveriesOfEndpoint(endpointId),
            ':seller': tenant.sellerId,
            ':env': tenant.environment,
          },
          ScanIndexForward: false,
          cursor: page.cursor,
        },
        page.limit,
      );
      return { items: out.items.map(toDelivery), cursor: out.cursor };
    },

    async recordAttempt(tenant, id, expected, changes) {
      const { tenant: _tenant, id: _id, ...fields } = changes;
      const patch = patchExpression(fields);
      const update = table.update({
        Key: keys.webhookDelivery(tenant, id),
        UpdateExpression: patch.expression,
        ConditionExpression: '#sa = :sa AND #ma = :ma',
        ExpressionAttributeNames: { ...patch.names, '#sa': 'scheduledAttempts', '#ma': 'manualAttempts' },
        ExpressionAttributeValues: {
          ...patch.values,
          ':sa': expected.scheduledAttempts,
          ':ma': expected.manualAttempts,
        },
      });
      await orConflict(update, attemptAlreadyRecorded);
    },
  };
}
