import type { RouteGroup } from '#shared/http/types';
import { allHealth, cronHealth, dbHealth, gatewayHealth } from './health';

export const healthRoutes: RouteGroup = {
  name: 'health',
  routes: [
    {
      method: 'GET',
      path: '/api/health',
      auth: [],
      rateLimited: false,
      summary: 'Overall health',
      handler: allHealth,
    },
    {
      method: 'GET',
      path: '/api/health/db',
      auth: [],
      rateLimited: false,
      summary: 'Database reachability',
      handler: dbHealth,
    },
    {
      method: 'GET',
      path: '/api/health/cron',
      auth: [],
      rateLimited: false,
      summary: 'Scheduled work heartbeat',
      handler: cronHealth,
    },
    {
      method: 'GET',
      path: '/api/health/gateway',
      auth: [],
      rateLimited: false,
      summary: 'Payment gateway',
      handler: gatewayHealth,
    },
  ],
};
