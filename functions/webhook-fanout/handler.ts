import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '#shared/logger';
import { once } from '#shared/once';
import { getContainer } from '#shared/platform/current';

// The use case (with the event catalog and zod) loads on the first invocation, not at cold start.
const useCases = once(() => import('./fan-out'));

/**
 * Consumer of the fan-out queue (every service event, put there by the bus rule): one queued
 * delivery per subscribed endpoint; an event whose fan-out failed returns to the queue alone.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const c = await getContainer();
  const { fanOutMessages } = await useCases();
  const failed = await c.unitOfWork(() =>
    fanOutMessages(
      c.deps,
      event.Records.map((r) => ({ messageId: r.messageId, body: r.body })),
      logger,
    ),
  );
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
};
