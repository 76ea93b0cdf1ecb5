import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { processDeliveryBatch } from '#shared/domain/webhooks/delivery-batch';
import { logger } from '#shared/logger';
import { getContainer } from '#shared/platform/container';

/** Consumer of the delivery queue; a failed record returns to the queue (partial batch response). */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const c = getContainer();
  const failed = await processDeliveryBatch(
    {
      deliveries: c.repos.deliveries,
      endpoints: c.repos.webhookEndpoints,
      queue: c.queue,
      clock: c.clock,
      sender: c.sender,
      urlPolicy: c.urlPolicy,
      metrics: c.metrics,
      onMalformed: (record) => logger.error('malformed delivery message', { messageId: record.id }),
      onFailure: (record, error) =>
        logger.error('delivery attempt failed to run', { error, messageId: record.id }),
    },
    event.Records.map((r) => ({ id: r.messageId, body: r.body })),
  );
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
};
