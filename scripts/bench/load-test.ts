import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { type Runtime, startRuntime } from '#infra/local/runtime';
import { createApiKey } from '#shared/domain/auth/api-keys';
import { RATE_LIMIT, rateWindow } from '#shared/domain/auth/rate-limit';
import { cpfCheckDigits } from '#shared/domain/documents';
import { configureLogs } from '#shared/logger';
import { percentile } from './endpoints';
import { createProducts, productBody, sandbox } from './fixtures';
import type { LoadPlan, Outcome, PlannedRequest } from './load-client';
import {
  type CpuShare,
  cpuMeter,
  formatCpuShare,
  formatJitWarmUp,
  type JitWarmUp,
  warmUntilJitSettles,
} from './process-cpu';
import type { BenchContext } from './recipes';
import { buy, buyer, checkoutBody, type TransactionView } from './transaction-recipes';

/** Requests per second the second process sends, open-loop. */
const RATE_PER_SECOND = 100;
/** LOAD_TEST_SECONDS shortens the run for a quick look; the report's figure is the full minute. */
const DEFAULT_SECONDS = 60;
/**
 * 100 sellers with one sk_test_ key each: at 100 requests/s, 80% of them authenticated, each seller
 * sees 48 a minute, under its limit of 100 (a seller's keys share one limit), so the limit is not
 * what is measured.
 */
const SELLERS = 100;
const KEYS_PER_SELLER = 1;
/**
 * The checkout (POST /api/transactions) is public and limited per source address: its 20% of the
 * load leaves from 24 loopback addresses (127.0.0.2-25), 50 a minute each, as many buyers would.
 */
const PUBLIC_ADDRESSES = 24;
/** Then one key alone: 150 requests within one rate window, 50 of them past the limit. */
const OVER_LIMIT_REQUESTS = 150;
const OVER_LIMIT_RATE = 50;
/**
 * A rate is sustained when every request answered as expected and p99 stayed within
 * SUSTAINED_P99_MS: a run with 0 errors whose requests queued for seconds did not keep up. When the
 * full rate is not sustained, the same mix runs for STEP_SECONDS at each of STEP_RATES, lowest
 * first, up to the first not sustained, so the report says what this machine sustains.
 */
const STEP_RATES = [50, 60, 70, 80, 90];
const STEP_SECONDS = 20;
const SUSTAINED_P99_MS = 1_000;
/** Error-level log lines of the runtime kept for the report (all are counted). */
const ERROR_LOGS_KEPT = 3;

interface LatencySummary {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers other than the expected status and other than 503: a 500 is always one (a bug). */
  errors: number;
  /** 503 answers (with Retry-After): the service shed the request under overload, counted apart. */
  shed: number;
}

/** The service's answer to overload (shared/deadline.ts, unavailableOf in shared/errors.ts). */
const SHED_STATUS = 503;

export interface LoadTest {
  durationSeconds: number;
  ratePerSecond: number;
  sellers: number;
  apiKeys: number;
  publicAddresses: number;
  /** Every request of the mix: answered count, latency and errors (anything but the expected status). */
  overall: LatencySummary;
  byRoute: Record<string, LatencySummary>;
  /** The latest any request left after its slot: large values mean the client, not the service, lagged. */
  maxSendLagMs: number;
  /** Status -> count of the answers that were errors (0 expected); 503s are `overall.shed`. */
  errorStatuses: Record<string, number>;
  /** What the runtime logged at error level during the whole test (the cause of a 500): count and the first few. */
  errorLogs: { count: number; first: string[] };
  /** Where the CPU went per request: the runtime, DynamoDB Local, the load client. */
  cpu: CpuShare;
  /** DynamoDB calls per answered request of the mix, by command (the jobs' included, not the stream poller's reads). */
  roundTripsPerRequest: Record<string, number>;
  /** The unmeasured warm-up at half the rate, and how DynamoDB Local's JIT stood after it. */
  warmUp: JitWarmUp & { seconds: number };
  overLimit: { sent: number; ok: number; limited: number; other: number; expectedLimited: number };
  /** Lower rates tried when the full rate was not sustained (STEP_RATES), up to the first not sustained; else empty. */
  steps: RateStep[];
  dynamoLocalStopped: boolean;
}

export interface RateStep {
  ratePerSecond: number;
  summary: LatencySummary;
  sustained: boolean;
  /** Status (or network error) -> count of the step's answers that were errors. */
  errorStatuses: Record<string, number>;
}

interface Seller {
  sellerId: number;
  keys: string[];
  product: Awaited<ReturnType<typeof createProducts>>[number];
  transaction: TransactionView;
}

function contextOf(runtime: Runtime): BenchContext {
  return {
    runtime,
    async newSeller() {
      const now = runtime.clock.now();
      const sellerId = await runtime.deps.repos.sellers.create(`Load seller ${now.getTime()}`, now);
      return { sellerId, token: await runtime.issuer.sign(sellerId, { now }) };
    },
    async createKeys(sellerId, count) {
      return (await keysOf(runtime, sellerId, count)).map((k) => k.id);
    },
  };
}

async function keysOf(runtime: Runtime, sellerId: number, count: number, name = 'load') {
  const deps = { apiKeys: runtime.deps.repos.apiKeys, clock: runtime.wallClock, ids: runtime.deps.ids };
  const out: { id: string; key: string }[] = [];
  for (let i = 0; i < count; i++) {
    const created = await createApiKey(deps, sellerId, { name: `${name} ${i}`, environment: 'test' });
    out.push({ id: created.id, key: created.key });
  }
  return out;
}

/** Sellers with their keys, a test product taking pix and one transaction to read back. */
async function seed(ctx: BenchContext): Promise<Seller[]> {
  const sellers: Seller[] = [];
  for (let s = 0; s < SELLERS; s++) {
    const { sellerId, token } = await ctx.newSeller();
    const keys = (await keysOf(ctx.runtime, sellerId, KEYS_PER_SELLER)).map((k) => k.key);
    const [product] = await createProducts(ctx, sandbox(sellerId), 1);
    const [transaction] = await buy(ctx, { sellerId, token, key: keys[0], product }, 'pix', 1);
    sellers.push({ sellerId, keys, product, transaction });
  }
  return sellers;
}

/** A CPF of its own per request, so every customer creation is new. */
function customerDocument(i: number): string {
  const base = `3${String(i).padStart(8, '0')}`;
  return `${base}${cpfCheckDigits(base)}`;
}

/** Ten requests, repeated: 3 creates (customer x2, product), 2 pix checkouts, 5 reads. */
const MIX = ['customer', 'checkout', 'list', 'get', 'product', 'get', 'customer', 'checkout', 'list', 'get'];

function planRequest(sellers: Seller[], i: number): PlannedRequest {
  const seller = sellers[i % SELLERS];
  const token = seller.keys[Math.floor(i / SELLERS) % KEYS_PER_SELLER];
  const local = { localAddress: '127.0.0.1', token };
  switch (MIX[i % MIX.length]) {
    case 'customer':
      return {
        ...local,
        route: 'POST /api/v1/customers',
        method: 'POST',
        path: '/api/v1/customers',
        body: {
          name: `Load Customer ${i}`,
          email: `load${i}@example.com`,
          document: customerDocument(i),
          phone: '11987654321',
          personType: 'fisica',
          zipCode: '01310100',
          city: 'São Paulo',
          state: 'SP',
        },
        expect: [201],
      };
    case 'product':
      return {
        ...local,
        route: 'POST /api/products',
        method: 'POST',
        path: '/api/products',
        body: productBody(i),
        expect: [201],
      };
    case 'checkout':
      return {
        route: 'POST /api/transactions',
        method: 'POST',
        path: '/api/transactions',
        body: checkoutBody(seller.product, 'pix', buyer(seller.sellerId, i)),
        localAddress: `127.0.0.${2 + (Math.floor(i / MIX.length) % PUBLIC_ADDRESSES)}`,
        expect: [201],
      };
    case 'list':
      return {
        ...local,
        route: 'GET /api/transactions',
        method: 'GET',
        path: '/api/transactions',
        expect: [200],
      };
    default:
      return {
        ...local,
        route: 'GET /api/transactions/{id}',
        method: 'GET',
        path: `/api/transactions/${seller.transaction.id}`,
        expect: [200],
      };
  }
}

/**
 * Sockets of the DynamoDB client opened before the test, at once. The client may hold up to 256
 * (LOCAL_MAX_SOCKETS) and opens more under load; 256 opened at once overflowed DynamoDB Local's
 * accept backlog (Java's default, 50), and the dropped connections missed the 1 s connection timeout.
 */
const WARM_SOCKETS = 50;
/** Warm-up requests per kind of the mix, outside the measurement. */
const WARMUP_PER_KIND = 2;

/**
 * Then the same mix at half the rate, unmeasured, in rounds of 20 s until DynamoDB Local's JIT
 * settled (warmUntilJitSettles), at most JIT_WARMUP_MAX_ROUNDS: DynamoDB Local stands in for a
 * service that is always warm, and its JVM compiles its hot paths with C2 for a minute or more.
 */
const JIT_WARMUP_RATE = 50;
const JIT_WARMUP_SECONDS = 20;
const JIT_WARMUP_MAX_ROUNDS = 6;

/**
 * A running service is warm: every route's module is loaded and the DynamoDB client's sockets are
 * open. Without this the first second measures module imports, and connections opened under load
 * to DynamoDB Local can miss the client's 1 s connection timeout (table.ts) on a busy machine.
 * The rate windows the warm-up used are left behind before the measured minute starts.
 */
async function warmUp(
  runtime: Runtime,
  sellers: Seller[],
  from: number,
): Promise<JitWarmUp & { seconds: number; next: number }> {
  const { client } = runtime.deps.table;
  const describe = () => client.send(new DescribeTableCommand({ TableName: 'bench-load' }));
  await Promise.all(Array.from({ length: WARM_SOCKETS }, describe));
  const plan = (count: number, offset: number) =>
    Array.from({ length: count }, (_, k) => planRequest(sellers, from + offset + k));
  const first = MIX.length * WARMUP_PER_KIND;
  await runInSecondProcess({ baseUrl: runtime.baseUrl, ratePerSecond: 10, requests: plan(first, 0) });
  const perRound = JIT_WARMUP_RATE * JIT_WARMUP_SECONDS;
  let offset = first;
  const jit = await warmUntilJitSettles(
    runtime.dynamo?.pid,
    async () => {
      await runInSecondProcess({
        baseUrl: runtime.baseUrl,
        ratePerSecond: JIT_WARMUP_RATE,
        requests: plan(perRound, offset),
      });
      offset += perRound;
    },
    JIT_WARMUP_MAX_ROUNDS,
  );
  await freshWindow(runtime, 61_000);
  return { ...jit, seconds: jit.rounds * JIT_WARMUP_SECONDS, next: from + offset };
}

/** Forks the client, hands it the plan and waits for its outcomes. */
function runInSecondProcess(plan: LoadPlan): Promise<{ outcomes: Outcome[]; cpuMs: number }> {
  const child = fork(fileURLToPath(new URL('./load-client.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((ok, fail) => {
    child.once('message', (message: { outcomes?: Outcome[]; cpuMs?: number; error?: string }) =>
      message.outcomes
        ? ok({ outcomes: message.outcomes, cpuMs: message.cpuMs ?? 0 })
        : fail(new Error(`load client failed: ${message.error}`)),
    );
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`load client exited with ${code} before answering`)));
    child.send(plan);
  });
}

const isSustained = (s: LatencySummary) => s.errors === 0 && s.shed === 0 && s.p99Ms <= SUSTAINED_P99_MS;

function summarise(outcomes: Outcome[], expected: (o: Outcome) => boolean): LatencySummary {
  const latencies = outcomes.map((o) => o.latencyMs);
  const round = (ms: number | undefined) => Math.round((ms ?? 0) * 10) / 10;
  return {
    count: outcomes.length,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(Math.max(0, ...latencies)),
    errors: outcomes.filter((o) => !expected(o) && o.status !== SHED_STATUS).length,
    shed: outcomes.filter((o) => !expected(o) && o.status === SHED_STATUS).length,
  };
}

/** Starts a window with at least this much of it left, so the over-limit burst stays inside one. */
const round2 = (n: number) => Math.round(n * 100) / 100;

async function freshWindow(runtime: Runtime, needMs: number) {
  // The request limit counts on real time: the runtime's wall clock is skewed in process.
  const now = runtime.wallClock.now();
  const left = rateWindow(now).resetsAt.getTime() - now.getTime();
  if (left < needMs) runtime.wallClock.skew(Math.ceil(left / 1000) + 1);
}

export async function measureLoadTest(): Promise<LoadTest> {
  const errorLogs = { count: 0, first: [] as string[] };
  configureLogs({
    level: 'error',
    sink: (line) => {
      errorLogs.count += 1;
      if (errorLogs.first.length < ERROR_LOGS_KEPT) errorLogs.first.push(line.slice(0, 600));
    },
  });
  const durationSeconds = Number(process.env.LOAD_TEST_SECONDS ?? DEFAULT_SECONDS);
  if (!Number.isInteger(durationSeconds) || durationSeconds < 1 || durationSeconds > 600) {
    throw new RangeError(`LOAD_TEST_SECONDS must be an integer from 1 to 600, got ${durationSeconds}`);
  }
  const runtime = await startRuntime({
    port: 0,
    dataDir: null,
    logLevel: 'error',
    tableName: 'bench-load',
    dynamoJit: 'long',
  });
  try {
    const ctx = contextOf(runtime);
    const sellers = await seed(ctx);
    const requests = Array.from({ length: RATE_PER_SECOND * durationSeconds }, (_, i) =>
      planRequest(sellers, i),
    );
    const { next, ...jitWarmUp } = await warmUp(runtime, sellers, requests.length);
    const expectedOf = new Map(requests.map((r) => [r.route, r.expect]));
    const tripsBefore = { ...runtime.roundTrips.byCommand };
    const meter = cpuMeter(runtime.dynamo?.pid);
    const { outcomes, cpuMs: clientCpuMs } = await runInSecondProcess({
      baseUrl: runtime.baseUrl,
      ratePerSecond: RATE_PER_SECOND,
      requests,
    });
    const cpu = meter.stop(outcomes.length, RATE_PER_SECOND, clientCpuMs);
    const roundTripsPerRequest: Record<string, number> = {};
    for (const [command, count] of Object.entries(runtime.roundTrips.byCommand)) {
      const during = count - (tripsBefore[command] ?? 0);
      if (during > 0)
        roundTripsPerRequest[command.replace(/Command$/, '')] = round2(during / outcomes.length);
    }
    const ok = (o: Outcome) => (expectedOf.get(o.route) ?? []).includes(o.status);
    const byRoute: Record<string, LatencySummary> = {};
    for (const route of new Set(outcomes.map((o) => o.route))) {
      byRoute[route] = summarise(
        outcomes.filter((o) => o.route === route),
        ok,
      );
    }
    const statusesOf = (answers: Outcome[]) => {
      const statuses: Record<string, number> = {};
      for (const o of answers.filter((x) => !ok(x) && x.status !== SHED_STATUS)) {
        const key = o.error ? `network: ${o.error}` : String(o.status);
        statuses[key] = (statuses[key] ?? 0) + 1;
      }
      return statuses;
    };
    const errorStatuses = statusesOf(outcomes);

    const overall = summarise(outcomes, ok);
    const steps: RateStep[] = [];
    if (!isSustained(overall)) {
      let from = next;
      for (const rate of STEP_RATES) {
        const count = rate * STEP_SECONDS;
        await freshWindow(runtime, 61_000);
        const step = await runInSecondProcess({
          baseUrl: runtime.baseUrl,
          ratePerSecond: rate,
          requests: Array.from({ length: count }, (_, k) => planRequest(sellers, from + k)),
        });
        from += count;
        const summary = summarise(step.outcomes, ok);
        const sustained = isSustained(summary);
        steps.push({ ratePerSecond: rate, summary, sustained, errorStatuses: statusesOf(step.outcomes) });
        if (!sustained) break;
      }
    }

    const [overKey] = await keysOf(runtime, sellers[0].sellerId, 1, 'over the limit');
    await freshWindow(runtime, (OVER_LIMIT_REQUESTS / OVER_LIMIT_RATE) * 1000 * 4);
    const { outcomes: burst } = await runInSecondProcess({
      baseUrl: runtime.baseUrl,
      ratePerSecond: OVER_LIMIT_RATE,
      requests: Array.from({ length: OVER_LIMIT_REQUESTS }, () => ({
        route: 'GET /api/transactions',
        method: 'GET',
        path: '/api/transactions',
        token: overKey.key,
        localAddress: '127.0.0.1',
        expect: [200],
      })),
    });
    const statuses = burst.map((o) => o.status);
    return {
      durationSeconds,
      ratePerSecond: RATE_PER_SECOND,
      sellers: SELLERS,
      apiKeys: SELLERS * KEYS_PER_SELLER,
      publicAddresses: PUBLIC_ADDRESSES,
      overall,
      byRoute,
      maxSendLagMs: Math.round(Math.max(0, ...outcomes.map((o) => o.lagMs))),
      errorStatuses,
      errorLogs,
      cpu,
      roundTripsPerRequest,
      warmUp: jitWarmUp,
      steps,
      overLimit: {
        sent: burst.length,
        ok: statuses.filter((s) => s === 200).length,
        limited: statuses.filter((s) => s === 429).length,
        other: statuses.filter((s) => s !== 200 && s !== 429).length,
        expectedLimited: OVER_LIMIT_REQUESTS - RATE_LIMIT,
      },
      dynamoLocalStopped: true,
    };
  } finally {
    await runtime.stop();
  }
}

export function formatLoadTest(t: LoadTest): string {
  const line = (name: string, s: LatencySummary) =>
    `  ${name.padEnd(28)} ${String(s.count).padStart(5)} req  p50 ${s.p50Ms} ms  p99 ${s.p99Ms} ms  max ${s.maxMs} ms  errors ${s.errors}  shed (503) ${s.shed}`;
  const o = t.overLimit;
  const overOk = o.limited === o.expectedLimited && o.ok === o.sent - o.expectedLimited && o.other === 0;
  return [
    `Load test: ${t.ratePerSecond} requests/s open-loop for ${t.durationSeconds} s from a second process (after ${t.warmUp.seconds} s at ${JIT_WARMUP_RATE}/s unmeasured; ${formatJitWarmUp(t.warmUp)}), ${t.apiKeys} API keys of ${t.sellers} sellers, checkouts from ${t.publicAddresses} loopback addresses:`,
    line('all', t.overall),
    ...Object.entries(t.byRoute).map(([route, s]) => line(route, s)),
    `  errors: ${t.overall.errors} (target 0: ${t.overall.errors === 0 ? 'ok' : 'FAIL'})${
      t.overall.errors ? ` ${JSON.stringify(t.errorStatuses)}` : ''
    }; latest send after its slot: ${t.maxSendLagMs} ms`,
    `  shed under overload (503 with Retry-After, not errors): ${t.overall.shed}`,
    ...(t.errorLogs.count > 0
      ? [
          `  the runtime logged ${t.errorLogs.count} errors during the test (steps included); the first:`,
          ...t.errorLogs.first.map((line) => `    ${line}`),
        ]
      : []),
    `  kept up (0 errors, 0 shed and p99 <= ${SUSTAINED_P99_MS} ms): ${
      isSustained(t.overall) ? 'yes' : 'NO, requests queued or failed'
    }`,
    formatCpuShare(t.cpu, 'request', t.ratePerSecond),
    `  DynamoDB round trips per request: ${round2(
      Object.values(t.roundTripsPerRequest).reduce((a, b) => a + b, 0),
    )} (${Object.entries(t.roundTripsPerRequest)
      .map(([command, n]) => `${command} ${n}`)
      .join(', ')})`,
    ...formatSteps(t.steps),
    `  one key past its limit: ${o.sent} requests, ${o.ok} answered 200, ${o.limited} answered 429 (expected ${o.expectedLimited}), ${o.other} other (${overOk ? 'ok' : 'FAIL'})`,
  ].join('\n');
}

function formatSteps(steps: RateStep[]): string[] {
  if (steps.length === 0) return [];
  const best = steps.filter((s) => s.sustained).at(-1);
  return [
    `  what this machine sustains (${STEP_SECONDS} s per rate, sustained = 0 errors, 0 shed and p99 <= ${SUSTAINED_P99_MS} ms): ${
      best ? `${best.ratePerSecond} requests/s` : `less than ${steps[0].ratePerSecond} requests/s`
    }`,
    ...steps.map(
      (s) =>
        `    ${String(s.ratePerSecond).padStart(3)}/s: p50 ${s.summary.p50Ms} ms  p99 ${s.summary.p99Ms} ms  errors ${s.summary.errors}  shed ${s.summary.shed}${s.summary.errors ? ` ${JSON.stringify(s.errorStatuses)}` : ''}${s.sustained ? '' : '  (not sustained)'}`,
    ),
  ];
}
