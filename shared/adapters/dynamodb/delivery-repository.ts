import type { DeliveryRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';
import { webhookDeliveryEntity } from './entities/event-log';
import { keys } from './keys';
import {
  alreadyExists,
  ConditionFailedError,
  type Item,
  orConflict,
  patchExpression,
  type Table,
} from './table';
import { toEndpoint } from './webhook-endpoint-repository';

const { byEndpoint } = webhookDeliveryEntity.patterns;
export const toDelivery = webhookDeliveryEntity.fromItem;

const attemptAlreadyRecorded = (cause: unknown) =>
  new ConflictError('The attempt was already recorded', 'attempt_already_recorded', {
    reason: 'changed',
    cause,
  });

const itemOf = webhookDeliveryEntity.toItem;

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
          IndexName: byEndpoint.name,
          KeyConditionExpression: '#pk = :pk',
          FilterExpression: 'sellerId = :seller AND environment = :env',
          ExpressionAttributeNames: { '#pk': byEndpoint.partitionKey },
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
