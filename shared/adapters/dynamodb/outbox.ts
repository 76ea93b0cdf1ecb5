import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { DomainEvent } from '#shared/domain/events/events';
import type { EventOutbox } from '#shared/domain/ports';
import { outboxEventEntity } from './entities/event-log';
import { alreadyExists, orConflict, type Table, type TransactItem } from './table';

/**
 * The outbox item of an event. Repositories add it to the TransactWriteItems that changes the
 * state, so the change and its event are saved together or not at all. The stream forwards items
 * with this entity to the publisher.
 */
export function outboxPut(event: DomainEvent): TransactItem {
  return {
    Put: {
      Item: outboxEventEntity.toItem(event),
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
