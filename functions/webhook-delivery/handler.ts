import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '#shared/logger';
import { once } from '#shared/once';
import { getContainer } from '#shared/platform/current';

// The use case (with the event catalog and zod) loads on the first invocation, not at cold start.
const useCases = once(() => import('./deliver'));

/** Consumer of the delivery queue; a failed record returns to the queue (partial batch response). */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const c = await getContainer();
  const { deliverBatch } = await useCases();
  const failed = await c.unitOfWork(() =>
    deliverBatch(
      c.deps,
      event.Records.map((r) => ({ id: r.messageId, body: r.body })),
      logger,
    ),
  );
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
};
