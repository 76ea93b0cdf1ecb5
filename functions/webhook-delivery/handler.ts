import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { processDeliveryMessage } from '#shared/domain/webhooks/deliveries';
import { logger } from '#shared/logger';
import { getContainer } from '#shared/platform/container';

const messageSchema = z.object({
  deliveryId: z.string().min(1),
  sellerId: z.number().int().positive(),
  environment: z.enum(['test', 'live']),
  attempt: z.number().int().positive(),
});

/** Consumer of the delivery queue; a failed record returns to the queue (partial batch response). */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = getContainer();
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const parsed = messageSchema.safeParse(JSON.parse(record.body));
    if (!parsed.success) {
      // A malformed message can never succeed: log it and let it go rather than retry forever.
      logger.error('malformed delivery message', { messageId: record.messageId });
      continue;
    }
    try {
      await processDeliveryMessage(
        {
          deliveries: deps.repos.deliveries,
          endpoints: deps.repos.webhookEndpoints,
          queue: deps.queue,
          clock: deps.clock,
          sender: deps.sender,
          urlPolicy: deps.urlPolicy,
          metrics: deps.metrics,
        },
        parsed.data,
      );
    } catch (error) {
      logger.error('delivery attempt failed to run', { error, messageId: record.messageId });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
};
