import type { EventBridgeEvent } from 'aws-lambda';
import type { BusDetail } from '#shared/domain/events/events';
import { fanOut } from '#shared/domain/webhooks/deliveries';
import { getContainer } from '#shared/platform/current';

/** Target of the bus rule for every service event: one queued delivery per subscribed endpoint. */
export const handler = async (event: EventBridgeEvent<string, BusDetail>) => {
  const deps = await getContainer();
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
