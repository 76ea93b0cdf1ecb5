import { EVENTS_BY_NAME, type EventName, type EventPayload } from '#events/catalog';
import { EVENT_ID_PREFIX, type EventEnvelope } from '#events/envelope';
import type { Deps } from '#shared/domain/deps';
import type { Tenant } from '#shared/domain/tenant';

export type { EventName, EventPayload, EventsOf, TrialEvent } from '#events/catalog';

/** An event a use case emits: it is written to the outbox in the same transaction as the change. */
export interface DomainEvent {
  tenant: Tenant;
  envelope: EventEnvelope;
}

/**
 * Builds an event of the catalog. The payload's type follows the event's schema (a wrong payload
 * does not compile); it is still checked at run time, since a loose schema's extra fields and its
 * refinements are not types. A mismatch is a programming error, so it throws a plain Error, not a 4xx.
 */
export function newEvent<N extends EventName>(
  deps: Pick<Deps, 'ids' | 'clock'>,
  tenant: Tenant,
  name: N,
  data: EventPayload<N>,
): DomainEvent {
  const definition = EVENTS_BY_NAME.get(name);
  if (!definition) throw new Error(`unknown event ${name}`);
  const parsed = definition.schema.safeParse(data);
  if (!parsed.success)
    throw new Error(`payload of ${name} does not match its schema: ${parsed.error.message}`);
  return {
    tenant,
    envelope: {
      id: deps.ids.prefixed(EVENT_ID_PREFIX, 24),
      event: name,
      timestamp: deps.clock.now().toISOString(),
      data,
    },
  };
}

/** What the publisher puts on the bus, and the fan-out reads back. */
export interface BusDetail {
  tenant: Tenant;
  envelope: EventEnvelope;
}

export const EVENT_SOURCE = 'payment-service';
