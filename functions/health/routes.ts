import { healthResponse } from '#shared/domain/health/responses';
import { defineRoutes } from '#shared/http/types';

const check = <const Id extends string>(operationId: Id, path: string, summary: string) =>
  ({
    operationId,
    method: 'GET',
    path,
    auth: [],
    rateLimited: false,
    summary,
    responses: { 200: healthResponse, 503: healthResponse },
  }) as const;

export const healthRoutes = defineRoutes('health', [
  check('getHealth', '/api/health', 'Overall health'),
  check('getDatabaseHealth', '/api/health/db', 'Database reachability'),
  check('getCronHealth', '/api/health/cron', 'Scheduled work heartbeat'),
  check('getGatewayHealth', '/api/health/gateway', 'Payment gateway'),
]);
