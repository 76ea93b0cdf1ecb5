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
 * One delivery attempt per record of a queue batch. Answers the ids of the records to return to
 * the queue (SQS partial batch response); the others are done, delivered or not.
 */
export async function processDeliveryBatch(
  deps: BatchDeps,
  records: readonly QueuedRecord[],
): Promise<string[]> {
  const failed: string[] = [];
  for (const record of records) {
    let body: unknown;
    try {
      body = JSON.parse(record.body);
    } catch {
      body = undefined;
    }
    const parsed = messageSchema.safeParse(body);
    if (!parsed.success) {
      deps.onMalformed(record);
      continue;
    }
    try {
      await processDeliveryMessage(deps, parsed.data);
    } catch (error) {
      deps.onFailure(record, error);
      failed.push(record.id);
    }
  }
  return failed;
}
