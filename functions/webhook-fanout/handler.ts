import type { EventBridgeEvent } from 'aws-lambda';
import type { BusDetail } from '#shared/domain/events/events';
import { getContainer } from '#shared/platform/current';

// The use case (with the event catalog and zod) loads on the first invocation, not at cold start.
const useCases = () => import('#shared/domain/webhooks/deliveries');

/** Target of the bus rule for every service event: one queued delivery per subscribed endpoint. */
export const handler = async (event: EventBridgeEvent<string, BusDetail>) => {
  const deps = await getContainer();
  const { fanOut } = await useCases();
  return fanOut(
    {
      deliveries: deps.repos.deliveries,
      endpoints: deps.repos.webhookEndpoints,
      queue: deps.queue,
      clock: deps.clock,
    },
    event.detail,
  );
};
