import { fanOutBatch } from '#shared/domain/webhooks/deliveries';
import { busDetailOf } from '#shared/domain/webhooks/fan-out-message';
import type { Logger } from '#shared/logger';

type FanOutDeps = Parameters<typeof fanOutBatch>[0];

export interface QueuedEvent {
  messageId: string;
  body: string;
}

/**
 * Fans out one queue batch of bus events and answers the message ids to return to the queue (SQS
 * partial batch response). A message that is not a bus event of a tenant can never succeed: it is
 * logged and dropped. The rest go to fanOutBatch together, which reads each tenant's endpoints
 * once for the batch.
 */
export async function fanOutMessages(
  deps: FanOutDeps,
  records: readonly QueuedEvent[],
  log: Logger,
): Promise<string[]> {
  const ids: string[] = [];
  const details = [];
  for (const record of records) {
    const detail = busDetailOf(record.body);
    if (detail) {
      ids.push(record.messageId);
      details.push(detail);
    } else {
      log.error('malformed fan-out message', { messageId: record.messageId, outcome: 'dropped' });
    }
  }
  if (details.length === 0) return [];
  const failed = await fanOutBatch(deps, details);
  return failed.map((i) => ids[i] as string);
}
