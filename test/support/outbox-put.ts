import type { DomainEvent } from '#shared/domain/events/events';

/**
 * The outbox item every state change carries in its TransactWriteItems, written out as the adapter
 * must write it: the event, its 30-day TTL, and the event log's index attributes (the tenant's
 * events by time, the same by type, the resource the payload's id names).
 */
export function outboxPut(e: DomainEvent, tableName: string, ttl: number) {
  const { sellerId, environment } = e.tenant;
  const sort = `${e.envelope.timestamp}#${e.envelope.id}`;
  const id = (e.envelope.data as { id?: string | number } | null)?.id;
  return {
    Put: {
      TableName: tableName,
      Item: {
        pk: `EVENT#${e.envelope.id}`,
        sk: 'EVENT',
        entity: 'outbox-event',
        version: 1,
        tenant: e.tenant,
        envelope: e.envelope,
        ttl,
        gsi1pk: `SELLER#${sellerId}#${environment}#EVENTS`,
        gsi1sk: sort,
        gsi2pk: `SELLER#${sellerId}#${environment}#EVENTTYPE#${e.envelope.event}`,
        gsi2sk: sort,
        ...(id === undefined ? {} : { resourceId: String(id) }),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}
