import type { EventBridgeEvent } from 'aws-lambda';
import type { BusDetail } from '#shared/domain/events/events';
import { logger } from '#shared/logger';
import { once } from '#shared/once';
import { getContainer } from '#shared/platform/current';

// The use case (with the event catalog and zod) loads on the first invocation, not at cold start.
const useCases = once(() => import('#shared/domain/mail/receipts'));

/**
 * Target of the bus rule for the events that e-mail someone (NOTIFIED_EVENTS: a confirmed payment
 * sends the buyer a receipt). A thrown error makes the event retried; a duplicate delivery sends
 * nothing. The log line names the event, never the recipient.
 */
export const handler = async (event: EventBridgeEvent<string, BusDetail>) => {
  const c = await getContainer();
  const { notify } = await useCases();
  const result = await c.unitOfWork(() => notify(c.deps, event['detail-type'], event.detail));
  const fields = { event: event['detail-type'], eventId: event.detail?.envelope?.id, ...result };
  if (result.outcome === 'malformed') logger.error('notification not sent', fields);
  else logger.info('notification', fields);
  return result;
};
