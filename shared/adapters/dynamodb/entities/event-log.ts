import type { DomainEvent } from '#shared/domain/events/events';
import type { Tenant } from '#shared/domain/tenant';
import type { WebhookDelivery } from '#shared/domain/webhooks/deliveries';
import { keys } from '../keys';
import type { Item } from '../table';
import { TABLE } from '../table-definition';
import { defineEntity } from './entity';

/** Outbox items stay 30 days (resends and audits), then TTL removes them. */
const EVENT_RETENTION_SECONDS = 30 * 86_400;
/** Delivery logs are kept 30 days. */
const DELIVERY_RETENTION_SECONDS = 30 * 86_400;

/** The resource an event is about: its payload's `id` (a transaction, a product, a session…). */
const resourceIdOf = (data: unknown): string | undefined => {
  const id = (data as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
};

const eventOrder = (e: DomainEvent) => `${e.envelope.timestamp}#${e.envelope.id}`;

/**
 * An event in the outbox, put in the TransactWriteItems of the change that emits it; the stream
 * forwards these items (by `entity`) to the publisher. It is also the event log (GET /api/events):
 * kept 30 days by its TTL, listed by tenant and by type, filtered by `resourceId`.
 */
export const outboxEventEntity = defineEntity({
  entity: TABLE.outboxEntity,
  version: 1,
  key: (e: DomainEvent) => keys.outboxEvent(e.envelope.id),
  patterns: {
    byTenant: {
      index: 'gsi1',
      doc: "`SELLER#<id>#<env>#EVENTS` / `<timestamp>#<evt id>`: a tenant's events, newest first",
      at: (e) => ({ pk: keys.eventsOfTenant(e.tenant), sk: eventOrder(e) }),
    },
    byType: {
      index: 'gsi2',
      doc: "`SELLER#<id>#<env>#EVENTTYPE#<name>` / `<timestamp>#<evt id>`: a tenant's events of one type, newest first",
      at: (e) => ({ pk: keys.eventsOfType(e.tenant, e.envelope.event), sk: eventOrder(e) }),
    },
  },
  attributes: (e): Item => {
    const resourceId = resourceIdOf(e.envelope.data);
    return {
      tenant: e.tenant,
      envelope: e.envelope,
      ...(resourceId === undefined ? {} : { resourceId }),
      ttl: Math.floor(Date.parse(e.envelope.timestamp) / 1000) + EVENT_RETENTION_SECONDS,
    };
  },
  fromItem: (item): DomainEvent => ({
    tenant: item.tenant as Tenant,
    envelope: item.envelope as DomainEvent['envelope'],
  }),
});

const DELIVERY_FIELDS = [
  'id',
  'endpointId',
  'eventId',
  'eventName',
  'body',
  'status',
  'scheduledAttempts',
  'manualAttempts',
  'lastStatusCode',
  'lastDurationMs',
  'lastError',
  'lastResponseExcerpt',
  'lastAttemptAt',
  'nextAttemptAt',
  'createdAt',
  'updatedAt',
] as const;

/** One event sent to one webhook endpoint: its attempts so far, kept 30 days. */
export const webhookDeliveryEntity = defineEntity({
  entity: 'webhook-delivery',
  version: 1,
  key: (d: WebhookDelivery) => keys.webhookDelivery(d.tenant, d.id),
  patterns: {
    byEndpoint: {
      index: 'gsi1',
      doc: "`WHENDPOINT#<endpoint id>` / `<createdAt>#<id>`: an endpoint's deliveries, newest first (the tenant is a filter)",
      at: (d) => ({ pk: keys.deliveriesOfEndpoint(d.endpointId), sk: `${d.createdAt}#${d.id}` }),
    },
    byEvent: {
      index: 'gsi2',
      doc: "`SELLER#<id>#<env>#EVENTDELIVERIES#<evt id>` / `<createdAt>#<id>`: an event's deliveries, one per endpoint it was sent to",
      at: (d) => ({ pk: keys.deliveriesOfEvent(d.tenant, d.eventId), sk: `${d.createdAt}#${d.id}` }),
    },
  },
  attributes: (d) => {
    const item: Item = {
      sellerId: d.tenant.sellerId,
      environment: d.tenant.environment,
      ttl: Math.floor(Date.parse(d.createdAt) / 1000) + DELIVERY_RETENTION_SECONDS,
    };
    for (const f of DELIVERY_FIELDS) item[f] = d[f] ?? undefined;
    return item;
  },
  fromItem: (item) => {
    const out: Record<string, unknown> = {
      tenant: { sellerId: Number(item.sellerId), environment: item.environment },
    };
    for (const f of DELIVERY_FIELDS) out[f] = item[f] ?? null;
    return out as unknown as WebhookDelivery;
  },
});
