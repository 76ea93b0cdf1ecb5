import { defineExamples } from '#shared/http/examples';
import { RELEASE } from '#shared/release';
import { healthRoutes } from './routes';

/** Calls of the health routes for the API reference (read by the OpenAPI generator and the tests only). */

const at = '2026-11-28T16:59:21.921Z';
const database = { status: 'healthy', latencyMs: 12 } as const;
const cron = {
  status: 'healthy',
  lastRunAt: '2026-11-28T16:57:20.281Z',
  ageSeconds: 121,
  intervalSeconds: 300,
} as const;
const sandboxUp = { provider: 'sandbox', status: 'healthy', latencyMs: 0, serves: 'test' } as const;
const gateway = {
  status: 'healthy',
  provider: 'asaas',
  latencyMs: 184,
  providers: [sandboxUp, { provider: 'asaas', status: 'healthy', latencyMs: 184, serves: 'live' }],
} as const;
/** Asaas unreachable: its circuit opened after consecutive failures, so no call is made. */
const gatewayDown = {
  status: 'unhealthy',
  provider: 'asaas',
  latencyMs: 0,
  detail: 'asaas: circuit_open',
  providers: [
    sandboxUp,
    { provider: 'asaas', status: 'unhealthy', latencyMs: 0, detail: 'circuit_open', serves: 'live' },
  ],
} as const;
const databaseDown = { status: 'unhealthy', latencyMs: 2500, detail: 'timed out' } as const;

export const examples = defineExamples(healthRoutes, {
  getHealth: [
    {
      name: 'healthy',
      summary: 'Every dependency answers',
      responses: {
        200: { status: 'healthy', checks: { database, cron, gateway }, timestamp: at, version: RELEASE },
      },
    },
    {
      name: 'degraded',
      summary: 'The scheduled jobs stopped: degraded, still 200',
      responses: {
        200: {
          status: 'degraded',
          checks: {
            database,
            cron: {
              ...cron,
              status: 'unhealthy',
              ageSeconds: 1260,
              detail: 'no heartbeat for 1260s (limit 600s)',
            },
            gateway,
          },
          timestamp: at,
          version: RELEASE,
        },
      },
    },
    {
      name: 'provider down',
      summary: 'Asaas, which serves live sales, is unreachable: degraded, still 200',
      responses: {
        200: {
          status: 'degraded',
          checks: { database, cron, gateway: gatewayDown },
          timestamp: at,
          version: RELEASE,
        },
      },
    },
    {
      name: 'unhealthy',
      summary: 'The database does not answer: 503',
      responses: {
        503: {
          status: 'unhealthy',
          checks: { database: databaseDown, cron, gateway },
          timestamp: at,
          version: RELEASE,
        },
      },
    },
  ],
  getDatabaseHealth: [
    {
      name: 'healthy',
      summary: 'The table answers',
      responses: { 200: { status: 'healthy', checks: { database }, timestamp: at, version: RELEASE } },
    },
    {
      name: 'unhealthy',
      summary: 'The table does not answer within 2.5 s',
      responses: {
        503: { status: 'unhealthy', checks: { database: databaseDown }, timestamp: at, version: RELEASE },
      },
    },
  ],
  getCronHealth: [
    {
      name: 'healthy',
      summary: 'The heartbeat ran 2 minutes ago',
      responses: { 200: { status: 'healthy', checks: { cron }, timestamp: at, version: RELEASE } },
    },
    {
      name: 'unhealthy',
      summary: 'No heartbeat for 21 minutes',
      responses: {
        503: {
          status: 'unhealthy',
          checks: {
            cron: {
              ...cron,
              status: 'unhealthy',
              ageSeconds: 1260,
              detail: 'no heartbeat for 1260s (limit 600s)',
            },
          },
          timestamp: at,
          version: RELEASE,
        },
      },
    },
  ],
  getGatewayHealth: [
    {
      name: 'healthy',
      summary: 'The sandbox and Asaas answer',
      responses: {
        200: {
          status: 'healthy',
          checks: { gateway },
          timestamp: at,
          version: RELEASE,
        },
      },
    },
    {
      name: 'unhealthy',
      summary: 'Asaas, which serves live sales, cannot be reached (the sandbox is reported apart)',
      responses: {
        503: {
          status: 'unhealthy',
          checks: { gateway: gatewayDown },
          timestamp: at,
          version: RELEASE,
        },
      },
    },
  ],
});
