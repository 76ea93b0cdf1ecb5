import * as z from 'zod';
import { EVENTS_BY_NAME, type EventPayload, isKnownEvent } from '#events/catalog';
import type { Deps } from '#shared/domain/deps';
import type { Tenant } from '#shared/domain/tenant';
import { BadRequestError, ValidationError } from '#shared/errors';
import { describeIssue } from '#shared/validation';
import { newEvent } from './events';

export const testEventSchema = z
  .object({
    event: z.string({ error: 'event must be a string' }).max(100),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/**
 * Sends a sandbox event through the real outbox, stream, bus, fan-out and queue, so an
 * integration can be tested before it has resources of its own (like Stripe's test webhooks).
 */
export async function emitTestEvent(
  deps: Pick<Deps, 'outbox' | 'clock' | 'ids'>,
  tenant: Tenant,
  input: z.output<typeof testEventSchema>,
) {
  const definition = EVENTS_BY_NAME.get(input.event);
  if (!definition || !isKnownEvent(input.event))
    throw new BadRequestError(`event ${input.event} is not a known event`, 'unknown_event');
  const now = deps.clock.now().toISOString();
  const data = input.data ?? { id: deps.ids.prefixed('test', 16), updatedAt: now };
  const parsed = definition.schema.safeParse(data);
  if (!parsed.success)
    throw new ValidationError(
      parsed.error.issues.map((i) => describeIssue({ ...i, path: ['data', ...i.path] })),
    );
  // Any event of the catalog, with the seller's payload: checked against its schema just above.
  const event = newEvent(deps, tenant, input.event, data as EventPayload<typeof input.event>);
  await deps.outbox.write([event]);
  return event.envelope;
}
