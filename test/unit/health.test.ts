import { describe, expect, it } from 'vitest';
import {
  type Check,
  checkCron,
  checkDatabase,
  checkGateway,
  DB_CHECK_TIMEOUT_MS,
  overallStatus,
  recordHeartbeat,
  report,
} from '#shared/domain/health/health';
import type { Clock, HealthRepository, PaymentGateway } from '#shared/domain/ports';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const clock: Clock = { now: () => NOW };

function fakeHealth(overrides: Partial<HealthRepository> = {}): HealthRepository & { beats: Date[] } {
  const beats: Date[] = [];
  return {
    beats,
    ping: async () => {},
    readHeartbeat: async () => null,
    writeHeartbeat: async (at) => {
      beats.push(at);
    },
    ...overrides,
  };
}

const beatSecondsAgo = (seconds: number) =>
  fakeHealth({
    readHeartbeat: async () => ({ lastRunAt: new Date(NOW.getTime() - seconds * 1000), runs: 3 }),
  });

describe('checkDatabase', () => {
  it('is healthy with a latency when the ping answers', async () => {
    let signal: AbortSignal | undefined;
    const check = await checkDatabase({
      health: fakeHealth({
        ping: async (s) => {
          signal = s;
        },
      }),
      clock,
    });
    expect(check.status).toBe('healthy');
    expect(check.latencyMs).toEqual(expect.any(Number));
    expect(check.detail).toBeUndefined();
    expect(signal).toBeInstanceOf(AbortSignal);
  });

  it('is unhealthy naming only the error class, never its message', async () => {
    const failure = new Error('connect ECONNREFUSED 10.0.0.7:8000');
    failure.name = 'NetworkingError';
    const check = await checkDatabase({
      health: fakeHealth({
        ping: async () => {
          throw failure;
        },
      }),
      clock,
    });
    expect(check).toMatchObject({ status: 'unhealthy', detail: 'NetworkingError' });
    expect(JSON.stringify(check)).not.toContain('10.0.0.7');
  });

  it('is unhealthy with detail "error" when something that is not an Error is thrown', async () => {
    const check = await checkDatabase({
      health: fakeHealth({
        ping: async () => {
          throw 'boom';
        },
      }),
      clock,
    });
    expect(check).toMatchObject({ status: 'unhealthy', detail: 'error' });
  });

  it.each(['AbortError', 'TimeoutError'])('reports an abort (%s) as "timed out"', async (name) => {
    const check = await checkDatabase({
      health: fakeHealth({
        ping: async () => {
          throw new DOMException('The operation was aborted', name);
        },
      }),
      clock,
    });
    expect(check).toMatchObject({ status: 'unhealthy', detail: 'timed out' });
  });

  it(`gives up after ${DB_CHECK_TIMEOUT_MS} ms when the database never answers`, async () => {
    const check = await checkDatabase({
      health: fakeHealth({
        ping: (signal) =>
          new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      }),
      clock,
    });
    expect(check).toMatchObject({ status: 'unhealthy', detail: 'timed out' });
    expect(check.latencyMs).toBeGreaterThanOrEqual(DB_CHECK_TIMEOUT_MS - 50);
    expect(check.latencyMs).toBeLessThan(DB_CHECK_TIMEOUT_MS + 2_000);
  }, 10_000);
});

describe('checkCron', () => {
  it('is healthy at exactly two intervals (600 s with an interval of 300 s)', async () => {
    const check = await checkCron({ health: beatSecondsAgo(600), clock, intervalSeconds: 300 });
    expect(check).toEqual({
      status: 'healthy',
      lastRunAt: '2026-11-21T11:50:00.000Z',
      ageSeconds: 600,
      intervalSeconds: 300,
    });
  });

  it('is unhealthy one second past two intervals (601 s)', async () => {
    const check = await checkCron({ health: beatSecondsAgo(601), clock, intervalSeconds: 300 });
    expect(check).toEqual({
      status: 'unhealthy',
      lastRunAt: '2026-11-21T11:49:59.000Z',
      ageSeconds: 601,
      intervalSeconds: 300,
      detail: 'no heartbeat for 601s (limit 600s)',
    });
  });

  it('counts whole seconds, so 600.9 s is still healthy', async () => {
    const health = fakeHealth({
      readHeartbeat: async () => ({ lastRunAt: new Date(NOW.getTime() - 600_900), runs: 1 }),
    });
    const check = await checkCron({ health, clock, intervalSeconds: 300 });
    expect(check.status).toBe('healthy');
    expect(check.ageSeconds).toBe(600);
  });

  it('is healthy right after a run', async () => {
    const check = await checkCron({ health: beatSecondsAgo(0), clock, intervalSeconds: 60 });
    expect(check.status).toBe('healthy');
  });

  it('is unhealthy when no heartbeat was ever recorded', async () => {
    const check = await checkCron({ health: fakeHealth(), clock, intervalSeconds: 300 });
    expect(check).toEqual({ status: 'unhealthy', detail: 'no heartbeat recorded', intervalSeconds: 300 });
  });

  it('is unhealthy when the heartbeat cannot be read', async () => {
    const health = fakeHealth({
      readHeartbeat: async () => {
        throw new DOMException('aborted', 'TimeoutError');
      },
    });
    expect(await checkCron({ health, clock, intervalSeconds: 300 })).toEqual({
      status: 'unhealthy',
      detail: 'timed out',
    });
  });
});

describe('checkGateway', () => {
  const sandbox: PaymentGateway = {
    provider: 'sandbox',
    health: async () => ({ status: 'healthy', provider: 'sandbox', latencyMs: 3 }),
  };
  const asaas = (status: 'healthy' | 'unhealthy', detail?: string): PaymentGateway => ({
    provider: 'asaas',
    health: async () => ({ status, provider: 'asaas', latencyMs: 120, ...(detail ? { detail } : {}) }),
  });
  const sandboxRow = {
    provider: 'sandbox',
    status: 'healthy',
    latencyMs: 3,
    detail: undefined,
    serves: 'test',
  };

  it('passes the sandbox answer through when no provider serves live sales', async () => {
    expect(await checkGateway({ gateway: sandbox, live: [] })).toEqual({
      status: 'healthy',
      provider: 'sandbox',
      latencyMs: 3,
      detail: undefined,
      providers: [sandboxRow],
    });
  });

  it('is healthy when every live provider answers, listing the sandbox apart', async () => {
    expect(await checkGateway({ gateway: sandbox, live: [asaas('healthy')] })).toEqual({
      status: 'healthy',
      provider: 'asaas',
      latencyMs: 120,
      providers: [
        sandboxRow,
        { provider: 'asaas', status: 'healthy', latencyMs: 120, detail: undefined, serves: 'live' },
      ],
    });
  });

  it('is unhealthy while a live provider is unreachable, even with the sandbox up', async () => {
    const check = await checkGateway({ gateway: sandbox, live: [asaas('unhealthy', 'circuit_open')] });
    expect(check).toMatchObject({ status: 'unhealthy', provider: 'asaas', detail: 'asaas: circuit_open' });
    expect(check.providers).toEqual([
      sandboxRow,
      { provider: 'asaas', status: 'unhealthy', latencyMs: 120, detail: 'circuit_open', serves: 'live' },
    ]);
  });

  it('is unhealthy naming the provider when the gateway throws', async () => {
    const gateway: PaymentGateway = {
      provider: 'sandbox',
      health: async () => {
        throw new TypeError('fetch failed https://internal-host');
      },
    };
    expect(await checkGateway({ gateway, live: [] })).toEqual({
      status: 'unhealthy',
      provider: 'sandbox',
      detail: 'TypeError',
      providers: [{ provider: 'sandbox', status: 'unhealthy', detail: 'TypeError', serves: 'test' }],
    });
  });
});

describe('overallStatus', () => {
  const up: Check = { status: 'healthy' };
  const down: Check = { status: 'unhealthy' };

  it.each<[string, Record<string, Check>, string]>([
    ['everything up', { database: up, cron: up, gateway: up }, 'healthy'],
    ['the database down', { database: down, cron: up, gateway: up }, 'unhealthy'],
    ['the database and cron down', { database: down, cron: down, gateway: up }, 'unhealthy'],
    ['cron down', { database: up, cron: down, gateway: up }, 'degraded'],
    ['the gateway down', { database: up, cron: up, gateway: down }, 'degraded'],
    ['only cron checked and down', { cron: down }, 'degraded'],
    ['only the database checked and up', { database: up }, 'healthy'],
  ])('with %s is %s', (_, checks, status) => {
    expect(overallStatus(checks)).toBe(status);
  });

  it('builds a report with the clock time', () => {
    expect(report({ database: up }, NOW)).toEqual({
      status: 'healthy',
      checks: { database: up },
      timestamp: '2026-11-21T12:00:00.000Z',
    });
    expect(report({ database: up }, NOW, 'degraded').status).toBe('degraded');
  });
});

describe('recordHeartbeat', () => {
  it('writes the clock time', async () => {
    const health = fakeHealth();
    expect(await recordHeartbeat({ health, clock })).toEqual({ at: '2026-11-21T12:00:00.000Z' });
    expect(health.beats).toEqual([NOW]);
  });
});
