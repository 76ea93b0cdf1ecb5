import * as z from 'zod';
import type { DeliveryWithEndpoint } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { type DeliveryDeps, type DeliveryMessage, endpointIdOf, processDeliveryMessage } from './deliveries';

const messageSchema = z.object({
  deliveryId: z.string().min(1),
  sellerId: z.number().int().positive(),
  environment: z.enum(['test', 'live']),
  attempt: z.number().int().positive(),
  first: z
    .object({
      eventId: z.string().min(1),
      eventName: z.string().min(1),
      body: z.string().min(1),
      createdAt: z.string().refine((t) => !Number.isNaN(Date.parse(t))),
    })
    .optional(),
});

export interface QueuedRecord {
  id: string;
  body: string;
}

export interface BatchDeps extends DeliveryDeps {
  /** A message that can never succeed: it is dropped rather than retried forever. */
  onMalformed: (record: QueuedRecord) => void;
  /** An attempt that could not run: its record goes back to the queue. */
  onFailure: (record: QueuedRecord, error: unknown) => void;
}

/**
 * One delivery attempt per record of a queue batch, the records side by side: each posts to its
 * own endpoint, so one slow endpoint costs the batch its own timeout, not the sum of all. The
 * batch's deliveries and endpoints are read first in one round trip (a batch of ten costs one read,
 * not ten); when that read fails, each record reads its own, so one failing record does not return
 * the others to the queue. Answers the ids of the records to return to the queue (SQS partial batch
 * response), in batch order; the others are done, delivered or not.
 */
export async function processDeliveryBatch(
  deps: BatchDeps,
  records: readonly QueuedRecord[],
): Promise<string[]> {
  const parsed = records.map(parseRecord);
  const readable = parsed.flatMap((p) => (p.kind === 'message' && p.endpointId ? [p] : []));
  let loaded: (DeliveryWithEndpoint | undefined)[] = [];
  if (readable.length > 1) {
    try {
      loaded = await deps.deliveries.getManyWithEndpoints(
        readable.map((p) => ({
          tenant: p.tenant,
          id: p.message.deliveryId,
          endpointId: p.endpointId as string,
        })),
      );
    } catch {
      loaded = [];
    }
  }
  const loadedOf = new Map<Parsed, DeliveryWithEndpoint | undefined>(readable.map((p, i) => [p, loaded[i]]));
  const outcomes = await Promise.all(
    records.map((record, i) => processRecord(deps, record, parsed[i], loadedOf.get(parsed[i]))),
  );
  return records.filter((_, i) => outcomes[i] === 'retry').map((r) => r.id);
}

type Parsed =
  | { kind: 'malformed' }
  | { kind: 'message'; message: DeliveryMessage; tenant: Tenant; endpointId: string | null };

function parseRecord(record: QueuedRecord): Parsed {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    body = undefined;
  }
  const parsed = messageSchema.safeParse(body);
  if (!parsed.success) return { kind: 'malformed' };
  const message = parsed.data;
  return {
    kind: 'message',
    message,
    tenant: { sellerId: message.sellerId, environment: message.environment },
    endpointId: endpointIdOf(message.deliveryId),
  };
}

async function processRecord(
  deps: BatchDeps,
  record: QueuedRecord,
  parsed: Parsed,
  loaded: DeliveryWithEndpoint | undefined,
): Promise<'done' | 'retry'> {
  if (parsed.kind === 'malformed') {
    deps.onMalformed(record);
    return 'done';
  }
  try {
    await processDeliveryMessage(deps, parsed.message, loaded);
    return 'done';
  } catch (error) {
    deps.onFailure(record, error);
    return 'retry';
  }
}
