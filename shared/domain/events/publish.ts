import type { EventEnvelope } from '#events/envelope';
import type { EventBus } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { type BusDetail, EVENT_SOURCE } from './events';

/** Puts outbox items on the bus; the detail-type is the event name, so rules can select by it. */
export async function publishOutbox(deps: { bus: EventBus }, items: Record<string, unknown>[]) {
  const events = items.map((item) => {
    const detail: BusDetail = { tenant: item.tenant as Tenant, envelope: item.envelope as EventEnvelope };
    return { source: EVENT_SOURCE, detailType: detail.envelope.event, detail };
  });
  if (events.length > 0) await deps.bus.put(events);
  return { published: events.length };
}
