import { type AuthScheme, defineRoutes, lazySchemas } from '#shared/http/types';

// Request schemas load with the group's use cases on its first request (./use-cases.ts).
const schemas = lazySchemas(() => import('./use-cases'));

const responses = lazySchemas(() => import('#shared/domain/events/log-responses'));

/** Developers, Events: read-only API keys may read them too. */
const auth: AuthScheme[] = ['apiKey', 'jwt'];

export const eventRoutes = defineRoutes('events', [
  {
    operationId: 'listEvents',
    method: 'GET',
    path: '/api/events',
    auth,
    summary: 'List the events of the last 30 days, newest first',
    description:
      'Filter by `type`, by `resourceId` (the payload’s `id`) and by time (`from`, `to`). This is how to find an event a failing endpoint missed, and resend its delivery.',
    request: { query: schemas.listEventsQuery },
    responses: { 200: responses.eventListResponse },
  },
  {
    operationId: 'getEvent',
    method: 'GET',
    path: '/api/events/{id}',
    auth,
    summary: 'Read an event, with each of its webhook deliveries',
    request: { path: schemas.eventIdParam },
    notFound: 'Event not found',
    responses: { 200: responses.eventDetailResponse },
  },
]);
