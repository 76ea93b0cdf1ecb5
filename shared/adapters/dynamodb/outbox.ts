import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { DomainEvent } from '#shared/domain/events/events';
import type { EventOutbox } from '#shared/domain/ports';
import { eventLogAttributes } from './event-log-keys';
import { keys } from './keys';
import { alreadyExists, orConflict, type Table, type TransactItem } from './table';
import { TABLE } from './table-definition';

/** Outbox items stay 30 days (resends and audits), then TTL removes them. */
const RETENTION_SECONDS = 30 * 86_400;

/**
 * The outbox item of an event. Repositories add it to the TransactWriteItems that changes the
 * state, so the change and its event are saved together or not at all. The stream forwards items
 * with this entity to the publisher.
 */
export function outboxPut(event: DomainEvent): TransactItem {
  const at = Date.parse(event.envelope.timestamp);
  return {
    Put: {
      Item: {
        ...keys.outboxEvent(event.envelope.id),
        entity: TABLE.outboxEntity,
        version: 1,
        tenant: event.tenant,
        envelope: event.envelope,
        ...eventLogAttributes(event),
        ttl: Math.floor(at / 1000) + RETENTION_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * The events of the outbox items a stream batch inserted. The event source mapping lets only new
 * outbox items through, so anything else is malformed: it throws, and Lambda retries the batch.
 */
export function outboxEventsOf(records: readonly DynamoDBRecord[]): DomainEvent[] {
  return records.flatMap((record) => {
    if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return [];
    const item = unmarshall(record.dynamodb.NewImage as never) as Partial<DomainEvent> & { pk?: string };
    if (!item.tenant || typeof item.envelope?.event !== 'string')
      throw new Error(`stream record ${record.eventID} is not an outbox item (${item.pk})`);
    return [{ tenant: item.tenant, envelope: item.envelope }];
  });
}

/** The outbox port, plus the stream side: the publisher reads the items this module writes. */
export function createEventOutbox(table: Table): EventOutbox & { fromStream: typeof outboxEventsOf } {
  return {
    fromStream: outboxEventsOf,
    async write(events) {
      if (events.length === 0) return;
      await orConflict(table.transact(events.map(outboxPut)), alreadyExists('The event'));
    },
  };
}
