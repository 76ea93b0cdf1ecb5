import type { Deps } from '#shared/domain/deps';
import type { PaymentGateway } from '#shared/domain/ports';

export type Status = 'healthy' | 'degraded' | 'unhealthy';

export interface Check {
  status: 'healthy' | 'unhealthy';
  latencyMs?: number;
  detail?: string;
  [extra: string]: unknown;
}

export interface HealthReport {
  status: Status;
  checks: Record<string, Check>;
  timestamp: string;
}

/** A health answer: the report and the service's release number (package.json). */
export type HealthAnswer = HealthReport & { version: string };

/** The database check gives up after this long so a dead endpoint answers 503 quickly. */
export const DB_CHECK_TIMEOUT_MS = 2_500;

export async function checkDatabase(deps: Pick<HealthDeps, 'health' | 'clock'>): Promise<Check> {
  const started = Date.now();
  try {
    await deps.health.ping(AbortSignal.timeout(DB_CHECK_TIMEOUT_MS));
    return { status: 'healthy', latencyMs: Date.now() - started };
  } catch (error) {
    return { status: 'unhealthy', latencyMs: Date.now() - started, detail: describe(error) };
  }
}

/** Stale after two heartbeat intervals without a run. */
export async function checkCron(
  deps: Pick<HealthDeps, 'health' | 'clock' | 'intervalSeconds'>,
): Promise<Check> {
  try {
    const beat = await deps.health.readHeartbeat();
    if (!beat)
      return { status: 'unhealthy', detail: 'no heartbeat recorded', intervalSeconds: deps.intervalSeconds };
    const ageSeconds = Math.floor((deps.clock.now().getTime() - beat.lastRunAt.getTime()) / 1000);
    const stale = ageSeconds > 2 * deps.intervalSeconds;
    return {
      status: stale ? 'unhealthy' : 'healthy',
      lastRunAt: beat.lastRunAt.toISOString(),
      ageSeconds,
      intervalSeconds: deps.intervalSeconds,
      ...(stale ? { detail: `no heartbeat for ${ageSeconds}s (limit ${2 * deps.intervalSeconds}s)` } : {}),
    };
  } catch (error) {
    return { status: 'unhealthy', detail: describe(error) };
  }
}

/**
 * The payment gateways: unhealthy while any provider serving live sales is unreachable (its circuit
 * open, or its ping failing), whatever the sandbox says. Every provider is listed with the
 * environment it serves; the in-process sandbox, which serves test tenants only, is reported there
 * apart and never fails the check. Without a live provider the sandbox's own status is the check's.
 */
export async function checkGateway(deps: Pick<HealthDeps, 'gateway' | 'live'>): Promise<Check> {
  const [sandbox, ...live] = await checkProviders([deps.gateway, ...deps.live]);
  const providers = [
    { ...sandbox, serves: 'test' as const },
    ...live.map((p) => ({ ...p, serves: 'live' as const })),
  ];
  if (live.length === 0) return { ...sandbox, providers };
  const down = live.filter((p) => p.status === 'unhealthy');
  return {
    status: down.length > 0 ? 'unhealthy' : 'healthy',
    provider: live.map((p) => p.provider).join(', '),
    latencyMs: Math.max(...live.map((p) => p.latencyMs ?? 0)),
    ...(down.length > 0
      ? { detail: down.map((p) => `${p.provider}: ${p.detail ?? 'unreachable'}`).join('; ') }
      : {}),
    providers,
  };
}

/** Database down: unhealthy (nothing works). Cron or gateway down: degraded (reads still work). */
export function overallStatus(checks: Record<string, Check>): Status {
  if (checks.database?.status === 'unhealthy') return 'unhealthy';
  return Object.values(checks).some((c) => c.status === 'unhealthy') ? 'degraded' : 'healthy';
}

export function report(
  checks: Record<string, Check>,
  now: Date,
  status = overallStatus(checks),
): HealthReport {
  return { status, checks, timestamp: now.toISOString() };
}

/** Health answers name the failing dependency but never echo internals such as hosts or stacks. */
function describe(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'timed out';
  return error instanceof Error ? error.name : 'error';
}

export async function recordHeartbeat(deps: Pick<Deps, 'health' | 'clock'>): Promise<{ at: string }> {
  const at = deps.clock.now();
  await deps.health.writeHeartbeat(at);
  return { at: at.toISOString() };
}

export type HealthScope = 'all' | 'database' | 'cron' | 'gateway';

/** `gateway`: the in-process sandbox (test tenants), reported apart. */
export type HealthDeps = Pick<Deps, 'health' | 'clock' | 'gateway'> & {
  /**
   * The providers serving live sales (Asaas), each checked without any seller's credentials: the
   * gateway check fails while any of them is unreachable.
   */
  live: PaymentGateway[];
  intervalSeconds: number;
  /** The service's release number, answered as `version`. */
  release: string;
};

/** Each provider's own check, side by side (a provider that throws is unhealthy, named only). */
export async function checkProviders(providers: PaymentGateway[]) {
  return Promise.all(
    providers.map(async (p) => {
      try {
        const h = await p.health();
        return { provider: h.provider, status: h.status, latencyMs: h.latencyMs, detail: h.detail };
      } catch (error) {
        return { provider: p.provider, status: 'unhealthy' as const, detail: describe(error) };
      }
    }),
  );
}

/**
 * One health answer: every check (`all`, whose status follows overallStatus), or a single one
 * (whose status is that check's own). The caller answers 503 when the status is not healthy
 * enough: `unhealthy` for all, anything but `healthy` for a single check.
 */
export async function healthReport(deps: HealthDeps, scope: HealthScope): Promise<HealthAnswer> {
  const run = {
    database: () => checkDatabase(deps),
    cron: () => checkCron(deps),
    gateway: () => checkGateway(deps),
  };
  if (scope !== 'all') {
    const check = await run[scope]();
    return { ...report({ [scope]: check }, deps.clock.now(), check.status), version: deps.release };
  }
  const [database, cron, gateway] = await Promise.all([run.database(), run.cron(), run.gateway()]);
  return { ...report({ database, cron, gateway }, deps.clock.now()), version: deps.release };
}
