import type { EventLog } from '#shared/domain/ports';
import { outboxEventEntity, webhookDeliveryEntity } from './entities/event-log';
import { keys } from './keys';
import type { Item, Table } from './table';

const toEvent = outboxEventEntity.fromItem;
const { byTenant, byType } = outboxEventEntity.patterns;
const { byEvent } = webhookDeliveryEntity.patterns;

/** Pages of a filtered list read at most this many index pages to fill one (then answer a cursor). */
const MAX_READS_PER_PAGE = 5;

export function createEventLog(table: Table): EventLog {
  return {
    async list(tenant, query) {
      const index = query.type ? byType : byTenant;
      const partition = query.type ? keys.eventsOfType(tenant, query.type) : keys.eventsOfTenant(tenant);
      const items: Item[] = [];
      let cursor = query.cursor;
      for (let reads = 0; reads < MAX_READS_PER_PAGE; reads++) {
        const page = await table.queryPage<Item>(
          {
            IndexName: index.name,
            KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
            ...(query.resourceId ? { FilterExpression: 'resourceId = :resource' } : {}),
            ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
            ExpressionAttributeValues: {
              ':pk': partition,
              ':from': query.from,
              // `#` sorts before every id character, `~` after: the whole last instant is in.
              ':to': `${query.to}#~`,
              ...(query.resourceId ? { ':resource': query.resourceId } : {}),
            },
            ScanIndexForward: false,
            cursor,
          },
          query.limit - items.length,
        );
        items.push(...page.items);
        cursor = page.cursor;
        if (!cursor || items.length >= query.limit) break;
      }
      return { items: items.map(toEvent), cursor };
    },

    async get(tenant, id) {
      const [item, deliveries] = await Promise.all([
        table.get<Item>(keys.outboxEvent(id), { consistent: true }),
        table.query<Item>({
          IndexName: byEvent.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': byEvent.partitionKey },
          ExpressionAttributeValues: { ':pk': keys.deliveriesOfEvent(tenant, id) },
        }),
      ]);
      if (!item || item.entity !== outboxEventEntity.entity) return null;
      const event = toEvent(item);
      // Another tenant's event is not there, exactly as a missing one.
      if (event.tenant.sellerId !== tenant.sellerId || event.tenant.environment !== tenant.environment)
        return null;
      return { event, deliveries: deliveries.items.map(webhookDeliveryEntity.fromItem) };
    },
  };
}
