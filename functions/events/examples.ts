import { defineExamples } from '#shared/http/examples';
import { eventRoutes } from './routes';

/** Calls of the events routes for the API reference (read by the OpenAPI generator and the tests only). */

const paid = {
  id: 'evt_4kQm9TzR2bWcX7vN1pL8sD3f',
  event: 'transaction.updated',
  timestamp: '2026-11-28T17:42:05.310Z',
  data: { id: 1042, uuid: '3f1c2a9e-8b7d-4c6e-9a1f-2d3e4f5a6b7c', status: 'paid', value: 49.9 },
} as const;

const request = {
  id: '0b7c5e2a-3f4d-4e1b-9a6c-8d2f1e0a9b3c',
  method: 'POST',
  path: '/api/transactions/{id}/refund',
  status: 200,
  latencyMs: 87,
  idempotencyKey: 'refund-pedido-1042',
  environment: 'test',
  authenticatedWith: 'apiKey',
  timestamp: '2026-11-28T17:42:05.310Z',
} as const;

export const examples = defineExamples(eventRoutes, {
  listRequestLogs: {
    query: { status: 200, method: 'POST', limit: 20 },
    responses: {
      200: {
        data: [request],
        nextCursor: 'eyJwayI6IlNFTExFUiM0MiN0ZXN0I1JFUVVFU1RTIiwic2siOiIyMDI2LTExLTI4VDE3OjQyOjA1LjMxMFoifQ',
      },
    },
  },
  listEvents: {
    query: { type: 'transaction.updated', from: '2026-11-28T00:00:00Z' },
    responses: { 200: { data: [paid], nextCursor: null } },
  },
  getEvent: {
    path: { id: paid.id },
    responses: {
      200: {
        ...paid,
        deliveries: [
          {
            id: 'whd_Xa81kd02LmQp_9f2c1e7a3b4d5c6e',
            endpointId: 'we_Xa81kd02LmQp',
            eventId: paid.id,
            event: paid.event,
            status: 'failed',
            attemptCount: 7,
            lastStatusCode: 500,
            lastDurationMs: 212,
            lastError: 'HTTP 500',
            lastResponseExcerpt: '{"error":"internal server error"}',
            lastAttemptAt: '2026-11-30T03:12:44.001Z',
            nextAttemptAt: null,
            createdAt: paid.timestamp,
            updatedAt: '2026-11-30T03:12:44.001Z',
          },
        ],
      },
    },
  },
});
