import type { DomainEvent } from '#shared/domain/events/events';
import { outboxEventEntity, webhookDeliveryEntity } from '../entities/event-log';
import type { Item } from '../table';
import { TABLE } from '../table-definition';
import { addAttributes, type Migration } from './migration';

/** The delivery item's entity, as written since deliveries exist. */
const DELIVERY_ENTITY = webhookDeliveryEntity.entity;
const { byTenant } = outboxEventEntity.patterns;
const { byEvent } = webhookDeliveryEntity.patterns;

/** The event log's attributes of an outbox item: its index places and the resource it is about. */
function eventLogAttributes(event: DomainEvent): Item {
  const { resourceId } = outboxEventEntity.toItem(event);
  return { ...outboxEventEntity.indexAttributes(event), ...(resourceId === undefined ? {} : { resourceId }) };
}

/**
 * The events API lists a tenant's events through index attributes on the outbox item (by tenant,
 * by type, its resource id) and an event's deliveries through one on the delivery. Items written
 * before that change have none of them: GET /api/events leaves those events out and GET
 * /api/events/{id} shows them without deliveries, for the 30 days their TTL keeps them.
 *
 * Outbox items are keyed by event id alone and the old ones are in no index, so nothing lists
 * them but a Scan (filtered to the items still lacking the attributes). The attributes derive from
 * fields that never change (tenant, envelope; a delivery's tenant, event, creation and id).
 */
export const eventLogIndex: Migration = {
  id: 3,
  name: 'event-log-index',
  description: 'Outbox items and webhook deliveries written before the events API get its index attributes',
  async run(ctx) {
    await ctx.eachPage(
      {
        scan: {
          FilterExpression:
            '(#entity = :outbox AND attribute_not_exists(#eventPk)) OR (#entity = :delivery AND attribute_not_exists(#deliveryPk))',
          ExpressionAttributeNames: {
            '#entity': 'entity',
            '#eventPk': byTenant.partitionKey,
            '#deliveryPk': byEvent.partitionKey,
          },
          ExpressionAttributeValues: { ':outbox': TABLE.outboxEntity, ':delivery': DELIVERY_ENTITY },
        },
        segments: 4,
      },
      async (items) => {
        for (const item of items) {
          if (item.entity === TABLE.outboxEntity) {
            const event = { tenant: item.tenant, envelope: item.envelope } as DomainEvent;
            await addAttributes(ctx.table, item, eventLogAttributes(event), byTenant.partitionKey);
          } else {
            await addAttributes(
              ctx.table,
              item,
              webhookDeliveryEntity.indexAttributes(webhookDeliveryEntity.fromItem(item)),
              byEvent.partitionKey,
            );
          }
        }
      },
    );
  },
};
