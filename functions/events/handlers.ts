import { getEvent, listEvents } from '#shared/domain/events/event-log';
import { listRequestLogs } from '#shared/domain/request-log/request-log';
import { defineHandlers } from '#shared/http/pipeline';
import { eventRoutes } from './routes';

// Events are stamped on business time (the test clock locally), so the 30 days count on it too.
export const group = defineHandlers(eventRoutes, ({ deps }) => ({
  listEvents: ({ tenant, query }) => listEvents(deps, tenant, query),
  getEvent: ({ tenant, path }) => getEvent(deps, tenant, path.id),
  listRequestLogs: ({ tenant, query }) => listRequestLogs(deps, tenant, query),
}));
