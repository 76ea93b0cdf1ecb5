import { spawnSync } from 'node:child_process';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { type Runtime, startRuntime } from '#infra/local/runtime';
import { httpGroups } from '#infra/routes';
import { keys } from '#shared/adapters/dynamodb/keys';
import { createApiKey } from '#shared/domain/auth/api-keys';
import { RATE_LIMIT, RATE_WINDOW_SECONDS } from '#shared/domain/auth/rate-limit';
import { routeKey } from '#shared/http/types';
import { type FakeAsaas, startFakeAsaas } from '../../test/support/fake-asaas/server';
import { type BenchFilter, benchFilter } from './filter';
import { nestedIn, providerOnly } from './provider-trips';
import { type BenchContext, type BenchRequest, recipes } from './recipes';

export const REQUESTS = 200;
export const WARMUP = 20;
/** Requests per principal per rate window; the clock moves to the next window after each batch. */
const BATCH = 90;
if (BATCH >= RATE_LIMIT) throw new Error('the bench batch must stay under the rate limit');

export interface Latency {
  p50Ms: number;
  p99Ms: number;
}

export interface RoundTripStats {
  mean: number;
  max: number;
  /** Authentication + rate limit: sent before the route's handler ran (idempotency items excepted). */
  authMean: number;
  authMax: number;
  /** Everything else: the route's own work (and the idempotency claim, when a recipe sends a key). */
  handlerMean: number;
  handlerMax: number;
  /** Mean per request, by DynamoDB command (the service's; the provider's are apart). */
  byCommand: Record<string, number>;
  /**
   * The payment provider's own work, not the service's: the sandbox keeps its charges in the same
   * table (SANDBOX# keys), a real provider in its own systems. Counted apart and left out of every
   * figure above.
   */
  providerMean: number;
  providerMax: number;
  /**
   * Id blocks claimed ahead of need (Table.nextId, one UpdateItem ADD per block, sent in the
   * background and not awaited by the request): counted apart and left out of every figure above.
   */
  idsAheadMean: number;
  idsAheadMax: number;
  /**
   * Commands of requests the route's handling sent to the service itself (the sandbox's signed
   * notification to POST /api/transactions/handle-webhook, as a provider sends it): another
   * request, measured as that route, so counted apart and left out of every figure above.
   */
  nestedMean: number;
  nestedMax: number;
  scans: number;
}

export interface EndpointResult {
  route: string;
  group: string;
  kind: 'read' | 'write';
  recipe: boolean;
  requests: number;
  /** Answers with another status than the recipe expects, by status. */
  unexpected: Record<string, number>;
  roundTrips?: RoundTripStats;
  latency?: Latency;
}

export interface EndpointReport {
  endpoints: EndpointResult[];
  rawGetItem: Latency;
  /** runtime.roundTrips.byCommand over the whole run (handlers, jobs, set-up). */
  allCommands: Record<string, number>;
  scanCommands: string[];
  /** Recipes whose key names no route of the route tables (a renamed or removed route). */
  unusedRecipes: string[];
  /** No java process of this run's DynamoDB Local is left after the runtime stopped. */
  dynamoLocalStopped: boolean;
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
};
const latencyOf = (samples: number[]): Latency => ({
  p50Ms: percentile(samples, 50),
  p99Ms: percentile(samples, 99),
});
const round = (n: number) => Math.round(n * 100) / 100;

interface Traced {
  command: string;
  /** Sent before the route's handler ran: by the pipeline (authentication, rate limit, idempotency). */
  beforeHandler: boolean;
  idempotency: boolean;
  /** Touches only the sandbox provider's own items (its state, not the service's). */
  provider: boolean;
  /** The HTTP request it was sent for (runtime.currentRequest); undefined outside any request. */
  request: number | undefined;
}

/** Partition key of a single-item command (GetItem, PutItem, UpdateItem, DeleteItem), if any. */
function partitionKeyOf(input: unknown): string | undefined {
  const request = input as { Key?: { pk?: unknown }; Item?: { pk?: unknown } } | undefined;
  const pk = request?.Key?.pk ?? request?.Item?.pk;
  if (typeof pk === 'string') return pk;
  const attribute = pk as { S?: unknown } | undefined;
  return typeof attribute?.S === 'string' ? attribute.S : undefined;
}

interface Tracer {
  /** The commands since the last call; the next request starts in the pipeline phase. */
  take(): Traced[];
  readonly handlerCalls: number;
}

/**
 * The moment a route's handler starts, from outside the functions: the runtime appends this to
 * each HTTP function's middleware chain (RuntimeOptions.beforeRouteHandler), so the commands sent
 * before it are authentication + rate limit (and idempotency), those after it the route's own.
 */
function handlerStarts() {
  const marks = { inHandler: false, handlerCalls: 0 };
  const mark = () => {
    marks.inHandler = true;
    marks.handlerCalls += 1;
  };
  return { marks, mark };
}

/** Records each command the handlers send, beside the runtime's own counter, and whether the route's handler had started. */
function traceCommands(runtime: Runtime, marks: ReturnType<typeof handlerStarts>['marks']): Tracer {
  const idempotencyPrefix = keys.idempotency('', '').pk.replace(/#+$/, '#');
  let log: Traced[] = [];
  const tracer: Tracer = {
    take() {
      const out = log;
      log = [];
      marks.inHandler = false;
      return out;
    },
    get handlerCalls() {
      return marks.handlerCalls;
    },
  };
  runtime.deps.table.client.middlewareStack.add(
    (next, context) => async (args) => {
      // The request log's drain runs beside the requests (CloudWatch Logs on AWS): nobody's trip.
      if (!runtime.counted()) return next(args);
      log.push({
        command: String(context.commandName ?? 'unknown'),
        beforeHandler: !marks.inHandler,
        idempotency: partitionKeyOf(args.input)?.startsWith(idempotencyPrefix) ?? false,
        provider: providerOnly(args.input),
        request: runtime.currentRequest(),
      });
      return next(args);
    },
    { step: 'initialize', name: 'benchCommandTracer' },
  );
  return tracer;
}

/** Moves both clocks to just after the start of the next rate window (running due jobs). */
async function nextRateWindow(runtime: Runtime) {
  const windowMs = RATE_WINDOW_SECONDS * 1000;
  // The request limit counts on real time: the runtime's wall clock is skewed in process.
  const wall = runtime.wallClock.now().getTime();
  runtime.wallClock.skew(((Math.floor(wall / windowMs) + 1) * windowMs + 1000 - wall) / 1000);
  const now = runtime.clock.now().getTime();
  const target = (Math.floor(now / windowMs) + 1) * windowMs + 1000;
  await runtime.timeline.advance((target - now) / 1000);
}

async function send(baseUrl: string, req: BenchRequest): Promise<number> {
  const headers: Record<string, string> = { ...req.headers };
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${req.path}`, {
    method: req.method,
    headers,
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
    // A redirect is the route's answer (GET /), not a request to follow.
    redirect: 'manual',
  });
  await res.arrayBuffer();
  return res.status;
}

async function measureRoute(
  runtime: Runtime,
  ctx: BenchContext,
  tracer: Tracer,
  result: EndpointResult,
): Promise<void> {
  const recipe = recipes[result.route];
  const requestOf = await recipe.prepare(ctx, WARMUP + REQUESTS);
  const samples: number[] = [];
  const trips: number[] = [];
  const auth: number[] = [];
  const provider: number[] = [];
  const ahead: number[] = [];
  const nested: number[] = [];
  const byCommand: Record<string, number> = {};
  const handlerCallsBefore = tracer.handlerCalls;
  let inWindow = BATCH;
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    if (inWindow >= BATCH) {
      await nextRateWindow(runtime);
      inWindow = 0;
    }
    const req = requestOf(i);
    tracer.take();
    const before = runtime.roundTrips.total;
    const aheadBefore = runtime.deps.table.aheadClaims;
    const started = performance.now();
    const status = await send(runtime.baseUrl, req);
    const ms = performance.now() - started;
    const traced = tracer.take();
    const aheadClaims = runtime.deps.table.aheadClaims - aheadBefore;
    inWindow += 1;
    if (i < WARMUP) continue;
    if (status !== req.expect) result.unexpected[status] = (result.unexpected[status] ?? 0) + 1;
    samples.push(ms);
    const isNested = nestedIn(traced);
    const providerTrips = traced.filter((t) => t.provider).length;
    const nestedTrips = traced.filter((t) => isNested(t) && !t.provider).length;
    trips.push(runtime.roundTrips.total - before - providerTrips - nestedTrips - aheadClaims);
    provider.push(providerTrips);
    nested.push(nestedTrips);
    ahead.push(aheadClaims);
    auth.push(traced.filter((t) => t.beforeHandler && !t.idempotency && !t.provider && !isNested(t)).length);
    for (const t of traced)
      if (!t.provider && !isNested(t)) byCommand[t.command] = (byCommand[t.command] ?? 0) + 1;
    // A claim ahead is an UpdateItem sent while the handler ran (started by Table.nextId).
    if (aheadClaims > 0) byCommand.UpdateItemCommand -= aheadClaims;
  }
  if (tracer.handlerCalls === handlerCallsBefore && Object.keys(result.unexpected).length === 0) {
    throw new Error(`${result.route}: the route handler never ran, so round trips cannot be attributed`);
  }
  const handler = trips.map((n, i) => n - auth[i]);
  const mean = (values: number[]) => round(values.reduce((a, b) => a + b, 0) / values.length);
  result.requests = samples.length;
  result.latency = latencyOf(samples);
  result.roundTrips = {
    mean: mean(trips),
    max: Math.max(...trips),
    authMean: mean(auth),
    authMax: Math.max(...auth),
    handlerMean: mean(handler),
    handlerMax: Math.max(...handler),
    byCommand: Object.fromEntries(Object.entries(byCommand).map(([k, v]) => [k, round(v / samples.length)])),
    providerMean: mean(provider),
    providerMax: Math.max(...provider),
    idsAheadMean: mean(ahead),
    idsAheadMax: Math.max(...ahead),
    nestedMean: mean(nested),
    nestedMax: Math.max(...nested),
    scans: Object.entries(byCommand)
      .filter(([k]) => k.startsWith('Scan'))
      .reduce((sum, [, v]) => sum + v, 0),
  };
}

/** GetItem on the same DynamoDB Local, without HTTP, auth or handler: the floor under every endpoint. */
async function measureRawGet(runtime: Runtime, sellerId: number): Promise<Latency> {
  const client = new DynamoDBClient({
    endpoint: runtime.deps.config.dynamoEndpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const doc = DynamoDBDocumentClient.from(client);
  const command = () => new GetCommand({ TableName: runtime.deps.table.name, Key: keys.seller(sellerId) });
  const samples: number[] = [];
  try {
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      const started = performance.now();
      await doc.send(command());
      if (i >= WARMUP) samples.push(performance.now() - started);
    }
  } finally {
    client.destroy();
  }
  return latencyOf(samples);
}

function contextOf(runtime: Runtime, asaas: FakeAsaas): BenchContext {
  let sellers = 0;
  return {
    runtime,
    asaas,
    async newSeller() {
      const now = runtime.clock.now();
      const sellerId = await runtime.deps.repos.sellers.create(`Bench seller ${++sellers}`, now);
      return { sellerId, token: await runtime.issuer.sign(sellerId, { now }) };
    },
    async createKeys(sellerId, count) {
      const deps = { apiKeys: runtime.deps.repos.apiKeys, clock: runtime.clock, ids: runtime.deps.ids };
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const created = await createApiKey(deps, sellerId, { name: `bench ${i}`, environment: 'test' });
        ids.push(created.id);
      }
      return ids;
    },
  };
}

async function measureAll(
  runtime: Runtime,
  marks: ReturnType<typeof handlerStarts>['marks'],
  asaas: FakeAsaas,
  filter: BenchFilter,
  progress: (line: string) => void,
): Promise<Omit<EndpointReport, 'dynamoLocalStopped'>> {
  const tracer = traceCommands(runtime, marks);
  const ctx = contextOf(runtime, asaas);
  const endpoints: EndpointResult[] = [];
  const routeKeys = new Set<string>();
  const started = performance.now();
  for (const group of httpGroups) {
    const before = endpoints.filter((e) => e.recipe).length;
    for (const route of group.routes) {
      const key = routeKey(route);
      routeKeys.add(key);
      if (!filter.route(group.name, key)) continue;
      const result: EndpointResult = {
        route: key,
        group: group.name,
        kind: route.method === 'GET' ? 'read' : 'write',
        recipe: key in recipes,
        requests: 0,
        unexpected: {},
      };
      if (result.recipe) await measureRoute(runtime, ctx, tracer, result);
      endpoints.push(result);
    }
    const measured = endpoints.filter((e) => e.recipe).length - before;
    if (measured > 0) {
      const minutes = ((performance.now() - started) / 60_000).toFixed(1);
      progress(`routes: ${group.name} measured (${measured} routes; ${minutes} min so far)`);
    }
  }
  const sellerId = runtime.devCredentials?.sellerId ?? (await ctx.newSeller()).sellerId;
  const rawGetItem = await measureRawGet(runtime, sellerId);
  const allCommands = { ...runtime.roundTrips.byCommand };
  return {
    endpoints,
    unusedRecipes: Object.keys(recipes).filter((key) => !routeKeys.has(key)),
    rawGetItem,
    allCommands,
    scanCommands: Object.keys(allCommands).filter((name) => name.startsWith('Scan')),
  };
}

/** Whether the DynamoDB Local (java) that listened on `port` is still running. */
function dynamoLocalRunning(port: number): boolean {
  return spawnSync('pgrep', ['-f', `DynamoDBLocal.*-port ${port}( |$)`]).status === 0;
}

/** Starts a local runtime (with its own DynamoDB Local), measures every route (BENCH_ONLY: those kept), stops it. */
export async function measureEndpoints(
  filter: BenchFilter = benchFilter(undefined),
  /** A line after each group of routes (the whole run takes some 20 minutes on two cores). */
  progress: (line: string) => void = () => {},
): Promise<EndpointReport> {
  // Asaas is the tests' fake (loopback, in this process): up before the runtime that points at it, down after.
  const asaas = await startFakeAsaas();
  const { marks, mark } = handlerStarts();
  let runtime: Runtime;
  try {
    runtime = await startRuntime({
      port: 0,
      dataDir: null,
      logLevel: 'silent',
      tableName: 'bench',
      asaasBaseUrl: asaas.baseUrl,
      beforeRouteHandler: mark,
    });
  } catch (error) {
    await asaas.stop();
    throw error;
  }
  // Interrupted: stop DynamoDB Local (java) before leaving, never leave it running.
  const interrupted = (signal: NodeJS.Signals) => {
    runtime.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  let report: Omit<EndpointReport, 'dynamoLocalStopped'>;
  try {
    // No background ticks: streams, queues and jobs run only inside timeline.advance() between
    // batches, so every DynamoDB command between two measurement points belongs to the request.
    await runtime.timeline.stop();
    report = await measureAll(runtime, marks, asaas, filter, progress);
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    try {
      await runtime.stop();
    } finally {
      await asaas.stop();
    }
  }
  const port = runtime.dynamo?.port;
  return { ...report, dynamoLocalStopped: port === undefined || !dynamoLocalRunning(port) };
}
