import * as z from 'zod';
import type { EventEnvelope } from '#events/envelope';
import type { Assert, Equals, Extends } from '#shared/domain/type-assert';

/**
 * POST /api/test-helpers/events (201): the envelope written to the outbox, exactly as every
 * delivery of the event carries it. `data` is the payload sent, or `{ id, updatedAt }` by default.
 */
export const eventEnvelopeResponse = z.lazy(() =>
  z
    .object({
      id: z.string().describe('evt_…; the same on every retry and resend of the event'),
      event: z.string().describe('The event name, e.g. product.updated'),
      timestamp: z.iso.datetime(),
      data: z.record(z.string(), z.unknown()).describe("The event's payload (see the event catalog)"),
    })
    .meta({ id: 'EventEnvelope', description: 'A webhook event as every delivery of it carries it' }),
);

// The envelope types `data` as unknown; the test helper always emits an object.
type _Envelope = Assert<
  Equals<z.output<typeof eventEnvelopeResponse>, EventEnvelope<Record<string, unknown>>>
>;
type _Fits = Assert<Extends<z.output<typeof eventEnvelopeResponse>, EventEnvelope>>;
