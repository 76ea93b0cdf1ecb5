import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import { webhookDeliveryResponse } from '#shared/domain/webhooks/responses';
import type { getEvent, listEvents } from './event-log';

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

const eventFields = {
  id: z.string().describe('The event id, the same in every delivery of it (`evt_…`)'),
  event: z.string().describe('The event name, from the catalog'),
  timestamp: z.iso.datetime(),
  data: z.unknown().describe("The event's payload, as its webhooks carry it"),
};

/** An item of GET /api/events: the envelope its webhooks carry. */
export const eventResponse = z.lazy(() =>
  z
    .object(eventFields)
    .meta({ id: 'Event', description: 'An event of the last 30 days, as its webhooks carry it' }),
);

export const eventListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(eventResponse),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'),
    })
    .meta({ id: 'EventList', description: 'A page of events, newest first' }),
);

/** GET /api/events/{id}: the event and its deliveries, one per endpoint it was sent to. */
export const eventDetailResponse = z.lazy(() =>
  z
    .object({
      ...eventFields,
      deliveries: z
        .array(webhookDeliveryResponse)
        .describe('One per endpoint the event was sent to (none when no endpoint wanted it)'),
    })
    .meta({ id: 'EventDetail', description: 'An event with each of its webhook deliveries' }),
);

type _List = Assert<Equals<z.output<typeof eventListResponse>, Out<typeof listEvents>>>;
type _Detail = Assert<Equals<z.output<typeof eventDetailResponse>, Out<typeof getEvent>>>;
