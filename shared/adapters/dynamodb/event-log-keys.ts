import type { DomainEvent } from '#shared/domain/events/events';
import type { WebhookDelivery } from '#shared/domain/webhooks/deliveries';
import { keys } from './keys';
import type { Item } from './table';
import { TABLE } from './table-definition';

/** A tenant's events newest first; within one event type, through the second index. */
export const byTenant = TABLE.indexes.byUuidOrOwner;
export const byType = TABLE.indexes.byStatusOrName;
/** An event's deliveries share the second index under their event's key (they have no status key there). */
export const byEvent = TABLE.indexes.byStatusOrName;

/** The resource an event is about: its payload's `id` (a transaction, a product, a session…). */
const resourceIdOf = (data: unknown): string | undefined => {
  const id = (data as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
};

/**
 * The index attributes of an outbox item, written with it: the outbox item is the event log (it is
 * kept 30 days by its TTL), listed by tenant and by type, filtered by resource.
 */
export function eventLogAttributes(event: DomainEvent): Item {
  const sort = `${event.envelope.timestamp}#${event.envelope.id}`;
  const resourceId = resourceIdOf(event.envelope.data);
  return {
    [byTenant.partitionKey]: keys.eventsOfTenant(event.tenant),
    [byTenant.sortKey]: sort,
    [byType.partitionKey]: keys.eventsOfType(event.tenant, event.envelope.event),
    [byType.sortKey]: sort,
    ...(resourceId === undefined ? {} : { resourceId }),
  };
}

/** The index attributes that list a delivery under its event. */
export function eventDeliveryAttributes(
  d: Pick<WebhookDelivery, 'tenant' | 'eventId' | 'createdAt' | 'id'>,
): Item {
  return {
    [byEvent.partitionKey]: keys.deliveriesOfEvent(d.tenant, d.eventId),
    [byEvent.sortKey]: `${d.createdAt}#${d.id}`,
  };
}
