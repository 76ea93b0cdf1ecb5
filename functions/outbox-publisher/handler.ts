import type { DynamoDBStreamEvent } from 'aws-lambda';
import { publishOutbox } from '#shared/domain/events/publish';
import { getContainer } from '#shared/platform/current';

/**
 * Consumer of the table's stream, filtered to outbox items by the event source mapping. A thrown
 * error makes Lambda retry the batch, so an event is published at least once.
 */
export const handler = async (event: DynamoDBStreamEvent) => {
  const { bus, repos } = await getContainer();
  return publishOutbox({ bus }, repos.outbox.fromStream(event.Records));
};
