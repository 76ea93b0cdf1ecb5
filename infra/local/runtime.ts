import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRemoteJWKSet } from 'jose';
import * as z from 'zod';
import { entryOf, httpGroups } from '#infra/routes';
import { createRepositories } from '#shared/adapters/dynamodb/repositories';
import { Table } from '#shared/adapters/dynamodb/table';
import { TABLE } from '#shared/adapters/dynamodb/table-definition';
import { fetchSender } from '#shared/adapters/http/webhook-sender';
import { createGatewayRouter } from '#shared/adapters/sandbox-gateway/router';
import { SandboxGateway } from '#shared/adapters/sandbox-gateway/sandbox-gateway';
import { UnconfiguredProvider } from '#shared/adapters/sandbox-gateway/unconfigured-provider';
import { cryptoIds } from '#shared/adapters/system/ids';
import { type Config, setConfig } from '#shared/config';
import { createApiKey } from '#shared/domain/auth/api-keys';
import { EVENT_SOURCE } from '#shared/domain/events/events';
import type { ScheduledJob } from '#shared/domain/ports';
import { HEARTBEAT_JOB } from '#shared/jobs';
import { configureLogs, type LogLevel, logger } from '#shared/logger';
import { type Deps, dnsResolver, provideDeps } from '#shared/platform/deps';
import { TestClock } from './clock';
import { type DynamoLocal, ensureTable, startDynamoLocal } from './dynamodb-local';
import { LocalEventBus } from './event-bus';
import {
  compileRoutes,
  type LambdaHttpHandler,
  lambdaContext,
  matchRoute,
  readBody,
  sendJson,
  sendResult,
  toApiGatewayEvent,
} from './gateway';
import { JWKS_PATH, LOCAL_CLIENT_ID, LOCAL_ISSUER, LocalIssuer } from './jwt-issuer';
import { LocalQueue } from './queue';
import { LocalScheduler } from './scheduler';
import { LocalStreamPoller } from './streams';
import { Timeline } from './timeline';

export interface RuntimeOptions {
  /** 0 picks a free port. Default: PORT or 3000. */
  port?: number;
  /** Where DynamoDB Local and the local services keep their data; null keeps nothing. */
  dataDir?: string | null;
  /** Use an already running DynamoDB Local instead of starting one. */
  dynamoEndpoint?: string;
  tableName?: string;
  logLevel?: LogLevel;
  heartbeatIntervalSeconds?: number;
  /** Create the demo seller and dev-credentials.json (default true). */
  devIdentity?: boolean;
  tickMs?: number;
}

export interface DevCredentials {
  baseUrl: string;
  sellerId: number;
  dashboardToken: string;
  apiKey: string;
}

export interface RoundTrips {
  total: number;
  byCommand: Record<string, number>;
}

export interface Runtime {
  baseUrl: string;
  port: number;
  clock: TestClock;
  timeline: Timeline;
  scheduler: LocalScheduler;
  deliveryQueue: LocalQueue;
  deliveryDlq: LocalQueue;
  bus: LocalEventBus;
  streams: LocalStreamPoller;
  issuer: LocalIssuer;
  deps: Deps;
  dynamo: DynamoLocal | null;
  roundTrips: RoundTrips;
  /** Counters the functions emitted (EMF metrics in AWS). */
  metrics: Record<string, number>;
  devCredentials: DevCredentials | null;
  stop(): Promise<void>;
}

const BODY_LIMIT = 1024 * 1024;
const advanceSchema = z
  .object({
    seconds: z
      .number()
      .positive()
      .max(400 * 86_400),
  })
  .strict();

/** Everything `npm start` runs, as one object that tests and the bench can start too. */
export async function startRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const dataDir = options.dataDir === undefined ? resolve('.local') : options.dataDir;
  const file = (name: string) => (dataDir ? join(dataDir, name) : null);
  if (options.logLevel) configureLogs({ level: options.logLevel });

  const dynamo = options.dynamoEndpoint ? null : await startDynamoLocal({ dataDir: file('dynamodb') });
  const endpoint = options.dynamoEndpoint ?? (dynamo as DynamoLocal).endpoint;
  const tableName = options.tableName ?? 'payment-service';
  const stopDynamo = async () => {
    await dynamo?.stop();
  };
  try {
    await ensureTable(endpoint, tableName);
  } catch (error) {
    await stopDynamo();
    throw error;
  }

  const clock = new TestClock();
  const issuer = await LocalIssuer.open(dataDir);
  const compiled = compileRoutes(httpGroups);
  const handlers = new Map<string, LambdaHttpHandler>();
  let timeline: Timeline | undefined;

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      logger.error('local gateway failure', { error });
      if (!res.headersSent) sendJson(res, 500, { statusCode: 500, message: 'Internal server error' });
    });
  });

  async function handle(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const body = await readBody(req, BODY_LIMIT);
    if (body === null)
      return sendJson(res, 413, { statusCode: 413, message: 'Request body is larger than 1 MB' });
    if (req.method === 'GET' && url.pathname === JWKS_PATH) return sendJson(res, 200, issuer.jwks());
    if (url.pathname === '/api/test-helpers/clock' && req.method === 'GET') {
      return sendJson(res, 200, { now: clock.now().toISOString() });
    }
    if (url.pathname === '/api/test-helpers/clock/advance' && req.method === 'POST') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8') || '{}');
      } catch {
        return sendJson(res, 400, { statusCode: 400, message: 'Request body is not valid JSON' });
      }
      const input = advanceSchema.safeParse(parsed);
      if (!input.success) {
        return sendJson(res, 400, {
          statusCode: 400,
          message: ['seconds must be a positive number of at most 400 days'],
        });
      }
      const now = await (timeline as Timeline).advance(input.data.seconds);
      return sendJson(res, 200, { now: now.toISOString() });
    }
    const match = matchRoute(compiled, req.method ?? 'GET', url.pathname);
    if (!match) {
      return sendJson(res, 404, {
        statusCode: 404,
        message: `Cannot ${req.method} ${url.pathname}`,
        timestamp: clock.now().toISOString(),
        path: url.pathname,
      });
    }
    const event = toApiGatewayEvent(req, body, match, clock.now());
    const handler = await handlerOf(match.route.group);
    const result = await handler(event, lambdaContext(match.route.group, event.requestContext.requestId));
    sendResult(res, result);
  }

  async function handlerOf(group: string): Promise<LambdaHttpHandler> {
    let handler = handlers.get(group);
    if (!handler) {
      const module = await import(pathToFileURL(resolve(entryOf(group))).href);
      handler = module.handler as LambdaHttpHandler;
      handlers.set(group, handler);
    }
    return handler;
  }

  const requestedPort = options.port ?? Number(process.env.PORT ?? 3000);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(requestedPort, '127.0.0.1', () => ok());
  }).catch(async (error) => {
    await stopDynamo();
    throw error;
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : requestedPort;
  const baseUrl = `http://127.0.0.1:${port}`;

  const config: Config = {
    tableName,
    dynamoEndpoint: endpoint,
    eventBusName: 'payment-service',
    deliveryQueueUrl: 'local://webhook-delivery',
    schedulerGroup: 'payment-service',
    schedulerRoleArn: '',
    jobsFunctionArn: 'local://jobs',
    jwtIssuer: LOCAL_ISSUER,
    jwtClientId: LOCAL_CLIENT_ID,
    jwksUrl: `${baseUrl}${JWKS_PATH}`,
    heartbeatIntervalSeconds: options.heartbeatIntervalSeconds ?? 300,
    publicBaseUrl: baseUrl,
    runtime: 'local',
    logLevel: options.logLevel ?? 'info',
    // Notifications are signed and verified inside this one process: a fresh secret per start.
    gatewayWebhookSecret: randomBytes(32).toString('hex'),
  };
  setConfig(config);

  const table = new Table({ tableName, endpoint });
  const metrics: Record<string, number> = {};
  const roundTrips: RoundTrips = { total: 0, byCommand: {} };
  // Counts every DynamoDB request the handlers make (the bench's round-trip figures).
  table.client.middlewareStack.add(
    (next, context) => async (args) => {
      roundTrips.total += 1;
      const name = String(context.commandName ?? 'unknown');
      roundTrips.byCommand[name] = (roundTrips.byCommand[name] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name: 'localRoundTripCounter' },
  );

  // Async functions run the same handler modules Lambda runs, invoked with the same event shapes.
  const invoke = async (name: string, event: unknown) => {
    const module = await import(pathToFileURL(resolve(entryOf(name))).href);
    return module.handler(event, lambdaContext(name, cryptoIds.uuid()));
  };
  const runJobHandler = (payload: ScheduledJob) => invoke('jobs', payload);
  const scheduler = new LocalScheduler(clock, runJobHandler, file('scheduler.json'));
  const deliveryDlq = new LocalQueue({ name: 'webhook-delivery-dlq', clock, file: file('queue-dlq.json') });
  const deliveryQueue = new LocalQueue({
    name: 'webhook-delivery',
    clock,
    file: file('queue-delivery.json'),
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    deadLetterQueue: deliveryDlq,
  });
  const bus = new LocalEventBus(clock, config.eventBusName, file('eventbridge.json'));
  const onError = (error: unknown) => logger.error('local async work failed', { error });
  const streams = new LocalStreamPoller({
    client: table.client,
    endpoint,
    tableName,
    file: file('stream-checkpoint.json'),
    onError,
    // The same filter the stack puts on the event source mapping: outbox items only.
    filter: (record) => record.dynamodb?.NewImage?.entity?.S === TABLE.outboxEntity,
  });

  const sandbox = new SandboxGateway({
    table,
    clock,
    webhookSecret: config.gatewayWebhookSecret,
    publicBaseUrl: baseUrl,
  });
  const deps: Deps = {
    config,
    clock,
    ids: cryptoIds,
    table,
    repos: createRepositories(table),
    scheduler,
    queue: deliveryQueue,
    bus,
    gateway: sandbox,
    payments: createGatewayRouter(sandbox, new UnconfiguredProvider()),
    jwks: createRemoteJWKSet(new URL(config.jwksUrl)),
    sender: fetchSender,
    urlPolicy: { allowLocalHttp: true, resolve: dnsResolver },
    metrics: {
      count: (name, value = 1) => {
        metrics[name] = (metrics[name] ?? 0) + value;
      },
    },
  };
  provideDeps(deps);
  streams.setConsumer((event) => invoke('outbox-publisher', event));
  bus.addRule('webhook-fanout', { source: [EVENT_SOURCE] }, (event) => invoke('webhook-fanout', event));
  deliveryQueue.setConsumer((event) => invoke('webhook-delivery', event));

  timeline = new Timeline(clock, [scheduler, bus, deliveryQueue], [streams], onError);
  // The rate() heartbeat: once now, then every interval of the (test) clock.
  await runJobHandler(HEARTBEAT_JOB);
  scheduler.every(
    'heartbeat',
    config.heartbeatIntervalSeconds,
    HEARTBEAT_JOB,
    new Date(clock.now().getTime() + config.heartbeatIntervalSeconds * 1000),
  );
  timeline.start(options.tickMs ?? 200);

  const devCredentials =
    options.devIdentity === false ? null : await ensureDevIdentity(deps, issuer, baseUrl, dataDir);

  let stopped = false;
  return {
    baseUrl,
    port,
    clock,
    timeline,
    scheduler,
    deliveryQueue,
    deliveryDlq,
    bus,
    streams,
    issuer,
    deps,
    dynamo,
    roundTrips,
    metrics,
    devCredentials,
    async stop() {
      if (stopped) return;
      stopped = true;
      await timeline?.stop();
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      table.client.destroy();
      await stopDynamo();
    },
  };
}

/** First start: a demo seller, a sandbox API key and a dashboard token in dev-credentials.json. */
async function ensureDevIdentity(deps: Deps, issuer: LocalIssuer, baseUrl: string, dataDir: string | null) {
  const file = dataDir ? join(dataDir, 'dev-credentials.json') : null;
  let previous: Partial<DevCredentials> = {};
  if (file && existsSync(file)) {
    try {
      previous = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      previous = {};
    }
  }
  const now = deps.clock.now();
  let sellerId = previous.sellerId;
  let apiKey = previous.apiKey;
  if (!sellerId || !(await deps.repos.sellers.exists(sellerId))) {
    sellerId = await deps.repos.sellers.create('Demo seller', now);
    apiKey = undefined;
  }
  if (!apiKey) {
    const created = await createApiKey(
      { apiKeys: deps.repos.apiKeys, clock: deps.clock, ids: deps.ids },
      sellerId,
      { name: `dev-${now.getTime()}`, environment: 'test' },
    );
    apiKey = created.key;
  }
  const credentials: DevCredentials = {
    baseUrl,
    sellerId,
    dashboardToken: await issuer.sign(sellerId, { now, expiresInSeconds: 30 * 86_400 }),
    apiKey,
  };
  if (file && dataDir) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  }
  return credentials;
}
