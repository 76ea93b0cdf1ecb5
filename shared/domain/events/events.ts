import { EVENTS_BY_NAME } from '#events/catalog';
import { EVENT_ID_PREFIX, type EventEnvelope } from '#events/envelope';
import type { Clock, Ids } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';

/** An event a use case emits: it is written to the outbox in the same transaction as the change. */
export interface DomainEvent {
  tenant: Tenant;
  envelope: EventEnvelope;
}

/**
 * Builds an event after checking its payload against the catalog. A mismatch is a programming
 * error (the use case built the wrong payload), so it throws a plain Error, not a 4xx.
 */
export function newEvent(
  deps: { ids: Ids; clock: Clock },
  tenant: Tenant,
  name: string,
  data: unknown,
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
