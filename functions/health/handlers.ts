import { type HealthScope, healthReport } from '#shared/domain/health/health';
import { defineHandlers } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { RELEASE } from '#shared/release';
import { healthRoutes } from './routes';

export const group = defineHandlers(healthRoutes, ({ deps, config }) => {
  const health = {
    ...deps,
    live: [deps.liveGateway],
    intervalSeconds: config.heartbeatIntervalSeconds,
    release: RELEASE,
  };
  /** The overall answer fails only when unhealthy; a single check fails unless healthy. */
  const answer = (scope: HealthScope) => async () => {
    const report = await healthReport(health, scope);
    const failed = scope === 'all' ? report.status === 'unhealthy' : report.status !== 'healthy';
    return reply(failed ? 503 : 200, report);
  };
  return {
    getHealth: answer('all'),
    getDatabaseHealth: answer('database'),
    getCronHealth: answer('cron'),
    getGatewayHealth: answer('gateway'),
  };
});
