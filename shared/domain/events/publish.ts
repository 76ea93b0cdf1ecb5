import type { Deps } from '#shared/domain/deps';
import { type BusDetail, type DomainEvent, EVENT_SOURCE } from './events';

/**
 * Puts the outbox's events on the bus; the detail-type is the event name, so rules can select by
 * it. The DynamoDB adapter reads the stream's outbox items (outboxEventsOf): this sees typed events.
 */
export async function publishOutbox(deps: Pick<Deps, 'bus'>, events: readonly DomainEvent[]) {
  const entries = events.map(({ tenant, envelope }) => {
    const detail: BusDetail = { tenant, envelope };
    return { source: EVENT_SOURCE, detailType: envelope.event, detail };
  });
  if (entries.length > 0) await deps.bus.put(entries);
  return { published: entries.length };
}
