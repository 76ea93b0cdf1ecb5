import { type Check, checkCron, checkDatabase, checkGateway, report } from '#shared/domain/health/health';
import type { HttpRequest, HttpResult } from '#shared/http/types';

const answer = (checks: Record<string, Check>, req: HttpRequest): HttpResult => {
  const body = report(checks, req.deps.clock.now());
  return { statusCode: body.status === 'unhealthy' ? 503 : 200, body };
};

const single = (name: string, check: Check, req: HttpRequest): HttpResult => {
  const body = report({ [name]: check }, req.deps.clock.now(), check.status);
  return { statusCode: check.status === 'healthy' ? 200 : 503, body };
};

const cronDeps = (req: HttpRequest) => ({
  health: req.deps.repos.health,
  clock: req.deps.clock,
  intervalSeconds: req.deps.config.heartbeatIntervalSeconds,
});

export const dbHealth = async (req: HttpRequest) =>
  single('database', await checkDatabase({ health: req.deps.repos.health, clock: req.deps.clock }), req);

export const cronHealth = async (req: HttpRequest) => single('cron', await checkCron(cronDeps(req)), req);

export const gatewayHealth = async (req: HttpRequest) =>
  single('gateway', await checkGateway({ gateway: req.deps.gateway }), req);

export const allHealth = async (req: HttpRequest) => {
  const [database, cron, gateway] = await Promise.all([
    checkDatabase({ health: req.deps.repos.health, clock: req.deps.clock }),
    checkCron(cronDeps(req)),
    checkGateway({ gateway: req.deps.gateway }),
  ]);
  return answer({ database, cron, gateway }, req);
};
