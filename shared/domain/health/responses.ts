import * as z from 'zod';
import type { Assert, Equals, Extends } from '#shared/domain/type-assert';
import type { Check, HealthAnswer } from './health';

const checkStatus = z.enum(['healthy', 'unhealthy']);

/**
 * One dependency's check. Every check has a status; the rest depends on the dependency (the
 * database gives its latency, the cron its heartbeat, the gateway its provider), and `detail`
 * names what failed (never hosts or stacks).
 */
export const healthCheckResponse = z.lazy(() =>
  z
    .object({
      status: checkStatus,
      latencyMs: z.number().optional().describe('database and gateway checks'),
      detail: z.string().optional().describe('why the check failed (or is stale)'),
      provider: z.string().optional().describe('gateway check: the payment provider'),
      lastRunAt: z.iso.datetime().optional().describe('cron check: the last heartbeat'),
      ageSeconds: z.number().optional().describe('cron check: seconds since the last heartbeat'),
      intervalSeconds: z.number().optional().describe('cron check: the heartbeat interval'),
      providers: z
        .array(
          z.object({
            provider: z.string(),
            status: checkStatus,
            latencyMs: z.number().optional(),
            detail: z.string().optional(),
            serves: z
              .enum(['test', 'live'])
              .describe('the environment it charges: the sandbox serves test tenants, Asaas live ones'),
          }),
        )
        .optional()
        .describe(
          'gateway check: every configured payment provider, checked without credentials; the check is unhealthy while any provider serving live sales is',
        ),
    })
    .meta({ id: 'HealthCheck', description: "One dependency's health check" }),
);

/**
 * GET /api/health (all three checks: 200 healthy or degraded, 503 unhealthy) and
 * GET /api/health/{db,cron,gateway} (that check alone: 200 healthy, 503 unhealthy).
 */
export const healthResponse = z.lazy(() =>
  z
    .object({
      status: z.enum(['healthy', 'degraded', 'unhealthy']),
      checks: z
        .object({
          database: healthCheckResponse.optional(),
          cron: healthCheckResponse.optional(),
          gateway: healthCheckResponse.optional(),
        })
        .describe('The checks run, by dependency: all three on /api/health, one on each single route'),
      timestamp: z.iso.datetime(),
      version: z.string().describe("The service's release number (the OpenAPI document's info.version)"),
    })
    .meta({
      id: 'HealthReport',
      description:
        'Health report: degraded when the cron or the gateway is down, unhealthy (503) when the database is',
    }),
);

// `Check` keeps an index signature for its per-dependency fields, so equality is out of reach:
// a check and the report must at least fit the schemas.
type _Check = Assert<Extends<Check, z.input<typeof healthCheckResponse>>>;
type _HealthReport = Assert<Extends<HealthAnswer, z.input<typeof healthResponse>>>;
type _Status = Assert<Equals<z.output<typeof healthResponse>['status'], HealthAnswer['status']>>;
