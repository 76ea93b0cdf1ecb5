import { eventIdParam, listEventsQuery } from '#shared/domain/events/event-log';
import { eventDetailResponse, eventListResponse } from '#shared/domain/events/log-responses';
import { listRequestLogsQuery } from '#shared/domain/request-log/request-log';
import { requestLogListResponse } from '#shared/domain/request-log/responses';
import { type AuthScheme, defineRoutes } from '#shared/http/types';

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
    request: { query: listEventsQuery },
    responses: { 200: eventListResponse },
  },
  {
    operationId: 'getEvent',
    method: 'GET',
    path: '/api/events/{id}',
    auth,
    summary: 'Read an event, with each of its webhook deliveries',
    request: { path: eventIdParam },
    notFound: 'Event not found',
    responses: { 200: eventDetailResponse },
  },
  {
    operationId: 'listRequestLogs',
    method: 'GET',
    path: '/api/request-logs',
    auth,
    summary: "List the seller's API requests of the last 7 days, newest first",
    description:
      'Every request made with an API key or a dashboard session of this environment: method, route template, status, latency and idempotency key. Bodies, headers, tokens and query strings are never kept. A request shows here a few seconds after its answer. Filter by `status` and `method`.',
    request: { query: listRequestLogsQuery },
    responses: { 200: requestLogListResponse },
  },
]);
