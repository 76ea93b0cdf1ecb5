import type { DynamoDBStreamEvent } from 'aws-lambda';
import { once } from '#shared/once';
import { getContainer } from '#shared/platform/current';

// The use case (with the event catalog and zod) loads on the first invocation, not at cold start.
const useCases = once(() => import('#shared/domain/events/publish'));

/**
 * Consumer of the table's stream, filtered to outbox items by the event source mapping. A thrown
 * error makes Lambda retry the batch, so an event is published at least once.
 */
export const handler = async (event: DynamoDBStreamEvent) => {
  const { deps, repos, unitOfWork } = await getContainer();
  const { publishOutbox } = await useCases();
  return unitOfWork(() => publishOutbox(deps, repos.outbox.fromStream(event.Records)));
};
