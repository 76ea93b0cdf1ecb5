import type { DomainEvent } from '#shared/domain/events/events';
import type { EventOutbox } from '#shared/domain/ports';
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
        ttl: Math.floor(at / 1000) + RETENTION_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export function createEventOutbox(table: Table): EventOutbox {
  return {
    async write(events) {
      if (events.length === 0) return;
      await orConflict(table.transact(events.map(outboxPut)), alreadyExists('The event'));
    },
  };
}
