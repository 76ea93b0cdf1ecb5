import * as z from 'zod';
import { EVENTS_BY_NAME } from '#events/catalog';
import { newEvent } from '#shared/domain/events/events';
import { BadRequestError, ForbiddenError, ValidationError } from '#shared/errors';
import { tenantOf } from '#shared/http/tenant';
import type { HttpRequest } from '#shared/http/types';
import { describeIssue, parseInput } from '#shared/validation';

const schema = z
  .object({
    event: z.string({ error: 'event must be a string' }),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/**
 * Sends a sandbox event through the real outbox, stream, bus, fan-out and queue, so an
 * integration can be tested before it has resources of its own (like Stripe's test webhooks).
 * Test environment only.
 */
export async function emitTestEvent(req: HttpRequest) {
  const tenant = tenantOf(req);
  if (tenant.environment !== 'test')
    throw new ForbiddenError('Test helpers work only in the test environment');
  const input = parseInput(schema, req.body);
  const definition = EVENTS_BY_NAME.get(input.event);
  if (!definition) throw new BadRequestError(`event ${input.event} is not a known event`, 'unknown_event');
  const now = req.deps.clock.now().toISOString();
  const data = input.data ?? { id: req.deps.ids.prefixed('test', 16), updatedAt: now };
  const parsed = definition.schema.safeParse(data);
  if (!parsed.success)
    throw new ValidationError(
      parsed.error.issues.map((i) => describeIssue({ ...i, path: ['data', ...i.path] })),
    );
  const event = newEvent(req.deps, tenant, input.event, data);
  await req.deps.repos.outbox.write([event]);
  return { statusCode: 201, body: event.envelope };
}
