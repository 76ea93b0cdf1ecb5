import * as z from 'zod';
import { isKnownEvent } from '#events/catalog';
import { EVENT_ID_PREFIX } from '#events/envelope';
import type { Deps } from '#shared/domain/deps';
import { limitQuery } from '#shared/domain/paging';
import type { Tenant } from '#shared/domain/tenant';
import { toDeliveryView } from '#shared/domain/webhooks/deliveries';
import { NotFoundError, ValidationError } from '#shared/errors';
import type { DomainEvent } from './events';

/** Events are kept this long (the outbox items' TTL), so no list reaches further back. */
export const EVENT_RETENTION_DAYS = 30;

export const listEventsQuery = z.object({
  type: z
    .string()
    .refine(isKnownEvent, 'type must be an event name of the catalog (GET /api/docs lists them)')
    .optional()
    .describe('Only events of this name, e.g. `transaction.paid`'),
  resourceId: z
    .string()
    .trim()
    .min(1)
    .max(100, 'resourceId must be at most 100 characters')
    .optional()
    .describe("Only events about this resource: its payload's `id` (a transaction id, a session id…)"),
  from: z.iso
    .datetime({ error: 'from must be an ISO 8601 instant' })
    .optional()
    .describe('Events at or after this instant'),
  to: z.iso
    .datetime({ error: 'to must be an ISO 8601 instant' })
    .optional()
    .describe('Events at or before this instant'),
  limit: limitQuery,
  cursor: z.string().max(2048).optional(),
});

export const eventIdParam = z.object({
  id: z.string().regex(new RegExp(`^${EVENT_ID_PREFIX}_[0-9A-Za-z]{8,64}$`)),
});

const toEventView = (e: DomainEvent) => ({
  id: e.envelope.id,
  event: e.envelope.event,
  timestamp: e.envelope.timestamp,
  data: e.envelope.data,
});

export type EventLogDeps = Pick<Deps, 'events' | 'clock'>;

/** A tenant's events of the last 30 days, newest first, filtered by type, resource and time. */
export async function listEvents(
  deps: EventLogDeps,
  tenant: Tenant,
  query: z.output<typeof listEventsQuery>,
) {
  const now = deps.clock.now();
  const oldest = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000).toISOString();
  const from = query.from && query.from > oldest ? new Date(query.from).toISOString() : oldest;
  const to = query.to ? new Date(query.to).toISOString() : now.toISOString();
  if (from > to) throw new ValidationError(['from must not be after to']);
  const page = await deps.events.list(tenant, {
    type: query.type,
    resourceId: query.resourceId,
    from,
    to,
    limit: query.limit,
    cursor: query.cursor,
  });
  return { data: page.items.map(toEventView), nextCursor: page.cursor ?? null };
}

/** One event with every delivery of it; another tenant's answers as a missing one. */
export async function getEvent(deps: EventLogDeps, tenant: Tenant, id: string) {
  const found = await deps.events.get(tenant, id);
  if (!found) throw new NotFoundError('Event not found');
  return { ...toEventView(found.event), deliveries: found.deliveries.map(toDeliveryView) };
}
