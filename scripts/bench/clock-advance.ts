import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Runtime, startRuntime } from '#infra/local/runtime';
import { createProduct, createProductSchema } from '#shared/domain/products/products';
import { createTransaction, createTransactionSchema, EXPIRY_JOB } from '#shared/domain/transactions/create';
import { configureLogs } from '#shared/logger';
import { productBody, sandbox } from './fixtures';
import { buyer } from './transaction-recipes';

export interface AdvanceRun {
  /** Wall-clock seconds of one POST /api/test-helpers/clock/advance. */
  seconds: number;
  /** Heartbeat runs during the advance (the heartbeat item's run counter). */
  heartbeats: number;
  /** One-time schedules that ran (pending before minus pending after). */
  jobsRun: number;
}

export interface ClockAdvance {
  days: number;
  heartbeatIntervalSeconds: number;
  /** Nothing due but the heartbeat. */
  empty: AdvanceRun;
  jobs: number;
  /** `jobs` one-time expiry schedules whose charge is gone: the jobs function reads once and skips. */
  withJobs: AdvanceRun;
  pix: number;
  /** `pix` real expiries: each cancels a sandbox charge and writes the transaction and its event. */
  withPix: AdvanceRun;
  /** Charges the pix expiries moved to cancel (should equal `pix`). */
  expired: number;
  dynamoLocalStopped: boolean;
}

const DAYS = 31;
const DAY_MS = 86_400_000;
const JOBS = 1_000;
const PIX = 100;
const HEARTBEAT_SECONDS = 300;
/** The longest pix expiry the checkout accepts (14 days); the first one a day away. */
const MAX_PIX_EXPIRY_SECONDS = 14 * 86_400;
const MIN_PIX_EXPIRY_SECONDS = 86_400;

const round = (n: number) => Math.round(n * 100) / 100;

async function heartbeatRuns(runtime: Runtime): Promise<number> {
  return (await runtime.deps.repos.health.readHeartbeat())?.runs ?? 0;
}

const oneTime = (runtime: Runtime) => runtime.scheduler.pending().filter((e) => !e.everySeconds).length;

/** One advance through the HTTP test helper, as a test or a user would send it. */
async function advance(runtime: Runtime, days: number): Promise<AdvanceRun> {
  const beatsBefore = await heartbeatRuns(runtime);
  const pendingBefore = oneTime(runtime);
  const started = performance.now();
  const res = await fetch(`${runtime.baseUrl}/api/test-helpers/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seconds: days * 86_400 }),
  });
  await res.text();
  const seconds = (performance.now() - started) / 1000;
  if (res.status !== 200) throw new Error(`clock advance answered ${res.status}`);
  return {
    seconds: round(seconds),
    heartbeats: (await heartbeatRuns(runtime)) - beatsBefore,
    jobsRun: pendingBefore - oneTime(runtime),
  };
}

/**
 * One-time expiry schedules spread evenly over the advance, named and shaped as the checkout names
 * them, for charges that do not exist: each run is the jobs function reading once and skipping.
 */
async function scheduleGoneExpiries(runtime: Runtime) {
  const start = runtime.clock.now().getTime();
  for (let i = 0; i < JOBS; i++) {
    const at = new Date(start + Math.floor(((i + 1) * DAYS * DAY_MS) / (JOBS + 1)));
    await runtime.scheduler.scheduleAt(`txn-expiry-test-bench-${i}`, at, {
      job: EXPIRY_JOB,
      id: `999999999:test:${900_000_000 + i}`,
    });
  }
}

/** Pending pix charges bought through the domain, as the checkout would, expiring over 1 to 14 days. */
async function buyPendingPix(runtime: Runtime) {
  const { deps } = runtime;
  const createDeps = {
    products: deps.repos.products,
    portalConfigs: deps.repos.portalConfigs,
    transactions: deps.repos.transactions,
    attempts: deps.repos.attempts,
    customers: deps.repos.customers,
    sessions: deps.repos.checkoutSessions,
    atomically: deps.atomically,
    affiliations: deps.repos.affiliations,
    paymentMethods: deps.repos.paymentMethods,
    payments: deps.payments,
    scheduler: deps.scheduler,
    clock: deps.clock,
    ids: deps.ids,
    reporter: deps.reporter,
  };
  const productDeps = {
    products: deps.repos.products,
    portalConfigs: deps.repos.portalConfigs,
    clock: deps.clock,
    ids: deps.ids,
    publicBaseUrl: deps.config.publicBaseUrl,
    nextId: () => deps.table.nextId('product'),
  };
  const sellerId = await deps.repos.sellers.create('Clock bench seller', deps.clock.now());
  const tenant = sandbox(sellerId);
  const product = await createProduct(productDeps, tenant, createProductSchema.parse(productBody(0)));
  const ids: number[] = [];
  const spread = MAX_PIX_EXPIRY_SECONDS - MIN_PIX_EXPIRY_SECONDS;
  for (let i = 0; i < PIX; i++) {
    const body = {
      productId: product.uuid,
      paymentMethod: 'pix',
      customer: buyer(sellerId, i % 10),
      pixExpiresInSeconds: MIN_PIX_EXPIRY_SECONDS + Math.floor((i * spread) / PIX),
    };
    ids.push((await createTransaction(createDeps, createTransactionSchema.parse(body))).id);
  }
  return { tenant, ids };
}

async function measure(runtime: Runtime) {
  const empty = await advance(runtime, DAYS);
  await scheduleGoneExpiries(runtime);
  const withJobs = await advance(runtime, DAYS);
  const bought = await buyPendingPix(runtime);
  // The checkout's own events go through stream, bus and fan-out before the measured advance.
  await runtime.timeline.tick();
  const withPix = await advance(runtime, DAYS);
  let expired = 0;
  for (const id of bought.ids) {
    if ((await runtime.deps.repos.transactions.get(bought.tenant, id))?.status === 'cancel') expired += 1;
  }
  return { empty, withJobs, withPix, expired };
}

/**
 * How long the test clock takes to move a month (`POST /api/test-helpers/clock/advance`): with
 * nothing due but the rate() heartbeat; with 1,000 one-time schedules due along the way (the
 * clock's own cost per job: scheduler, jobs function, stream drain); with 100 real pix expiries
 * (the cost of a job that writes and emits an event). Runs its own runtime with its data on disk,
 * as `npm start` does, so the local services' persistence is part of the figures.
 */
export async function measureClockAdvance(): Promise<ClockAdvance> {
  configureLogs({ level: 'silent' });
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-clock-'));
  const runtime = await startRuntime({
    port: 0,
    dataDir,
    logLevel: 'silent',
    tableName: 'bench-clock',
    devIdentity: false,
    heartbeatIntervalSeconds: HEARTBEAT_SECONDS,
  });
  let result: Awaited<ReturnType<typeof measure>>;
  try {
    result = await measure(runtime);
  } finally {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const port = runtime.dynamo?.port;
  const running =
    port !== undefined && spawnSync('pgrep', ['-f', `DynamoDBLocal.*-port ${port}( |$)`]).status === 0;
  return {
    days: DAYS,
    heartbeatIntervalSeconds: HEARTBEAT_SECONDS,
    jobs: JOBS,
    pix: PIX,
    ...result,
    dynamoLocalStopped: !running,
  };
}

export function formatClockAdvance(r: ClockAdvance): string {
  const line = (label: string, run: AdvanceRun) =>
    `  ${label}: ${run.seconds} s (${run.jobsRun} one-time jobs ran, ${run.heartbeats} heartbeat runs)`;
  return [
    `Test clock: POST /api/test-helpers/clock/advance of ${r.days} days, heartbeat rate(${r.heartbeatIntervalSeconds} s), data on disk:`,
    line('nothing due', r.empty),
    line(`${r.jobs} one-time jobs due (expiries of gone charges: one read each)`, r.withJobs),
    line(`${r.pix} pix expiries due (cancel, write, event through stream and bus)`, r.withPix),
    `  (${r.expired} of ${r.pix} pix charges expired)`,
  ].join('\n');
}
