import * as z from 'zod';
import { type DeliveryDeps, processDeliveryMessage } from './deliveries';

const messageSchema = z.object({
  deliveryId: z.string().min(1),
  sellerId: z.number().int().positive(),
  environment: z.enum(['test', 'live']),
  attempt: z.number().int().positive(),
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
 * own endpoint, so one slow endpoint costs the batch its own timeout, not the sum of all. Answers
 * the ids of the records to return to the queue (SQS partial batch response), in batch order; the
 * others are done, delivered or not.
 */
export async function processDeliveryBatch(
  deps: BatchDeps,
  records: readonly QueuedRecord[],
): Promise<string[]> {
  const outcomes = await Promise.all(records.map((record) => processRecord(deps, record)));
  return records.filter((_, i) => outcomes[i] === 'retry').map((r) => r.id);
}

async function processRecord(deps: BatchDeps, record: QueuedRecord): Promise<'done' | 'retry'> {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    body = undefined;
  }
  const parsed = messageSchema.safeParse(body);
  if (!parsed.success) {
    deps.onMalformed(record);
    return 'done';
  }
  try {
    await processDeliveryMessage(deps, parsed.data);
    return 'done';
  } catch (error) {
    deps.onFailure(record, error);
    return 'retry';
  }
}
