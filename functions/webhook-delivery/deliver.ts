import type { AttemptReport, DeliveryDeps } from '#shared/domain/webhooks/deliveries';
import { processDeliveryBatch, type QueuedRecord } from '#shared/domain/webhooks/delivery-batch';
import type { Logger } from '#shared/logger';

/** The message of the one log line written per delivery attempt. */
export const DELIVERY_ATTEMPT_LOG = 'webhook delivery attempt';

/** The fields of an attempt's line: identifiers, status and timing; never the body or a secret. */
export const attemptFieldsOf = (a: AttemptReport) => ({
  eventId: a.eventId,
  endpointId: a.endpointId,
  deliveryId: a.deliveryId,
  attempt: a.attempt,
  status: a.statusCode,
  durationMs: a.durationMs,
  outcome: a.outcome,
  error: a.error,
});

/**
 * Runs the records of one queue batch and answers the ids to return to the queue (SQS partial
 * batch response). The records run concurrently (processDeliveryBatch): the mapping hands over up to ten,
 * and one slow seller endpoint (up to DELIVERY_TIMEOUT_MS) must cost the batch one timeout, not
 * ten in a row, or the function's timeout would have to grow with the batch size.
 */
export async function deliverBatch(
  deps: DeliveryDeps,
  records: readonly QueuedRecord[],
  log: Logger,
): Promise<string[]> {
  const batchDeps = {
    ...deps,
    onAttempt: (a: AttemptReport) =>
      log[a.outcome === 'retry' || a.outcome === 'failed' ? 'warn' : 'info'](
        DELIVERY_ATTEMPT_LOG,
        attemptFieldsOf(a),
      ),
    onMalformed: (record: QueuedRecord) =>
      log.error('malformed delivery message', { messageId: record.id, outcome: 'dropped' }),
    onFailure: (record: QueuedRecord, error: unknown) =>
      log.error('delivery attempt failed to run', { error, messageId: record.id, outcome: 'requeued' }),
  };
  return processDeliveryBatch(batchDeps, records);
}
