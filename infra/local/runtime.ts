import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { secretsOf } from '#infra/constructs/permissions';
import { FANOUT_QUEUE, FANOUT_VISIBILITY_TIMEOUT_SECONDS } from '#infra/fanout-queue';
import { defaultRouteGroup, entryOf, httpGroups } from '#infra/routes';
import { Table } from '#shared/adapters/dynamodb/table';
import { TABLE } from '#shared/adapters/dynamodb/table-definition';
import { LocalIdentityProvider } from '#shared/adapters/local-identity/local-identity-provider';
import { cryptoIds } from '#shared/adapters/system/ids';
import { ENV, setConfig } from '#shared/config';
import { parseConfig } from '#shared/config-schema';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { EVENT_SOURCE } from '#shared/domain/events/events';
import { NOTIFIED_EVENTS } from '#shared/domain/mail/receipts';
import { notificationSecret } from '#shared/domain/payments/notification-secret';
import type { ScheduledJob } from '#shared/domain/ports';
import { DAILY_RECONCILIATION_AT, DAILY_RECONCILIATION_JOB, HEARTBEAT_JOB } from '#shared/jobs';
import { configureLogs, type LogLevel, logger } from '#shared/logger';
import { type Container, createContainer, type Platform } from '#shared/platform/container';
import { offerLocalPlatform, useContainer } from '#shared/platform/current';
import { BUILD_DIR, DASHBOARD_DIR } from '../../esbuild.config.mjs';
import { TestClock, WallClock } from './clock';
import { migrateLocalData } from './data-format';
import { type DevCredentials, ensureDevIdentity } from './dev-identity';
import { type DynamoThrottle, throttleDynamo } from './dynamo-throttle';
import { type DynamoJit, type DynamoLocal, ensureTable, startDynamoLocal } from './dynamodb-local';
import { LocalEventBus } from './event-bus';
import { FileCipher } from './file-cipher';
import { lambdaContext } from './gateway';
import { createLocalServer } from './http-server';
import { JWKS_PATH, LOCAL_CLIENT_ID, LOCAL_ISSUER, LocalIssuer } from './jwt-issuer';
import { LocalLogSubscription } from './log-subscription';
import { LocalMailbox } from './mailbox';
import { preparePrivateDir } from './private-files';
import { LocalQueue } from './queue';
import { LocalScheduler } from './scheduler';
import { localSecretKeys } from './secret-files';
import { LocalStreamPoller } from './streams';
import { Timeline } from './timeline';

export type { DevCredentials };

export interface RuntimeOptions {
  /** 0 picks a free port. Default: PORT or 3000. */
  port?: number;
  /** Where DynamoDB Local and the local services keep their data; null keeps nothing. */
  dataDir?: string | null;
  /** Use an already running DynamoDB Local instead of starting one. */
  dynamoEndpoint?: string;
  /** The JVM options of the DynamoDB Local it starts: `long` for a server that stays up (default short). */
  dynamoJit?: DynamoJit;
  tableName?: string;
  logLevel?: LogLevel;
  heartbeatIntervalSeconds?: number;
  /** Create the demo seller and dev-credentials.json (default true). */
  devIdentity?: boolean;
  tickMs?: number;
  /** Check every answer against its route's response schema; mismatches land in responseViolations. */
  checkResponses?: boolean;
  /** Where both Asaas environments are reached (the tests' fake); default the real API. */
  asaasBaseUrl?: string;
  /**
   * Where each Asaas environment is reached (`npm start` passes what ASAAS_BASE_URL,
   * ASAAS_SANDBOX_URL and ASAAS_PRODUCTION_URL say: asaasUrlsOf in shared/config.ts); asaasBaseUrl wins.
   */
  asaasUrls?: { sandbox?: string; production?: string };
  /**
   * Instrumentation (the bench): called as an HTTP route's handler starts, after the pipeline's
   * authentication, rate limit, idempotency and validation. Appended to each HTTP function's
   * middleware chain when the runtime loads it, so the functions themselves carry no probe.
   */
  beforeRouteHandler?: () => void;
  /**
   * Run every function from its esbuild bundle (build/<name>/index.mjs, as Lambda runs it) instead
   * of its TypeScript source: `npm run start:bundled`. The bundles read the configuration from the
   * environment, as on Lambda, and build their container on this runtime's stand-ins.
   */
  bundled?: boolean;
  /**
   * Fault injection (the fault suite, through `npm start`'s LOCAL_DYNAMO_THROTTLE): the functions'
   * DynamoDB client answers a seeded share of its sends with ProvisionedThroughputExceededException.
   */
  dynamoThrottle?: DynamoThrottle;
  /** The dashboard's build served at /dashboard (default build/dashboard, written by `npm run build`). */
  dashboardDir?: string;
}

export interface RoundTrips {
  total: number;
  byCommand: Record<string, number>;
}

export interface Runtime {
  baseUrl: string;
  port: number;
  /** Business time, moved by `POST /api/test-helpers/clock/advance`. */
  clock: TestClock;
  /** Real time (credentials, the request rate limit, webhook signatures); only tests skew it. */
  wallClock: WallClock;
  timeline: Timeline;
  scheduler: LocalScheduler;
  deliveryQueue: LocalQueue;
  deliveryDlq: LocalQueue;
  /** Every service event, put there by the bus rule 'webhook-fanout', read by the fan-out function. */
  fanoutQueue: LocalQueue;
  /** Fan-out messages that failed FANOUT_QUEUE.maxReceiveCount receives (the stack's failure queue). */
  fanoutDlq: LocalQueue;
  bus: LocalEventBus;
  streams: LocalStreamPoller;
  issuer: LocalIssuer;
  /** Every message the functions sent (`<dataDir>/mail/`, or memory). */
  mailbox: LocalMailbox;
  /** The functions' container plus the table, for tests and the bench that seed or inspect data. */
  deps: Container & { table: Table };
  /** What the sandbox signs its notifications with, for tests and the bench that post their own. */
  sandboxNotificationSecret: string;
  dynamo: DynamoLocal | null;
  roundTrips: RoundTrips;
  /**
   * The HTTP request (its arrival number) whose handling is running, as an API Gateway invocation
   * would be one Lambda call: a request one sends to another (the sandbox's notification to the
   * webhook route) is a request of its own. Undefined in jobs and set-up. The bench reads it.
   */
  currentRequest(): number | undefined;
  /** Whether the DynamoDB requests sent from here count in `roundTrips` (the request log's drain does not). */
  counted(): boolean;
  /** Counters the functions emitted (EMF metrics in AWS). */
  metrics: Record<string, number>;
  /** Answers that did not match their route's response schema (with checkResponses). */
  responseViolations: string[];
  devCredentials: DevCredentials | null;
  stop(): Promise<void>;
}

/** The local stand-ins of the AWS services, each keeping its state in the data folder. */
function localServices(clock: TestClock, file: (name: string) => string | null, invoke: Invoke) {
  const scheduler = new LocalScheduler(
    clock,
    (payload: ScheduledJob) => invoke('jobs', payload),
    file('scheduler.json'),
  );
  const deliveryDlq = new LocalQueue({ name: 'webhook-delivery-dlq', clock, file: file('queue-dlq.json') });
  const deliveryQueue = new LocalQueue({
    name: 'webhook-delivery',
    clock,
    file: file('queue-delivery.json'),
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    deadLetterQueue: deliveryDlq,
    // The delivery function's event source mapping: batches of 10, at most 10 invocations at once.
    batchSize: 10,
    maxConcurrency: 10,
  });
  const fanoutDlq = new LocalQueue({
    name: 'webhook-fanout-dlq',
    clock,
    file: file('queue-fanout-dlq.json'),
  });
  const fanoutQueue = new LocalQueue({
    name: 'webhook-fanout',
    clock,
    file: file('queue-fanout.json'),
    // The stack's fan-out queue and event source mapping (infra/fanout-queue.ts). The batching
    // window is 0 there, which is what this queue does: a visible message is received at once.
    visibilityTimeoutSeconds: FANOUT_VISIBILITY_TIMEOUT_SECONDS,
    maxReceiveCount: FANOUT_QUEUE.maxReceiveCount,
    deadLetterQueue: fanoutDlq,
    batchSize: FANOUT_QUEUE.batchSize,
    maxConcurrency: FANOUT_QUEUE.maxConcurrency,
  });
  return { scheduler, deliveryDlq, deliveryQueue, fanoutDlq, fanoutQueue };
}

type Invoke = (name: string, event: unknown) => Promise<unknown>;

/**
 * Work whose DynamoDB requests are no handler's: the request log's drain, which runs beside the
 * requests (on AWS, from CloudWatch Logs), so a request's count never includes its writes.
 */
const uncounted = new AsyncLocalStorage<true>();

/** Counts every DynamoDB request the handlers make (the bench's round-trip figures). */
function countRoundTrips(table: Table): RoundTrips {
  const roundTrips: RoundTrips = { total: 0, byCommand: {} };
  table.client.middlewareStack.add(
    (next, context) => async (args) => {
      if (uncounted.getStore()) return next(args);
      roundTrips.total += 1;
      const name = String(context.commandName ?? 'unknown');
      roundTrips.byCommand[name] = (roundTrips.byCommand[name] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name: 'localRoundTripCounter' },
  );
  return roundTrips;
}

/** The local environment of the functions, as the stack sets it on Lambda. */
function localEnvironment(
  options: RuntimeOptions,
  endpoint: string,
  tableName: string,
  baseUrl: string,
): Record<string, string> {
  return {
    [ENV.tableName]: tableName,
    [ENV.dynamoEndpoint]: endpoint,
    [ENV.deliveryQueueUrl]: 'local://webhook-delivery',
    [ENV.jobsFunctionArn]: 'local://jobs',
    [ENV.jwtIssuer]: LOCAL_ISSUER,
    [ENV.jwtClientId]: LOCAL_CLIENT_ID,
    [ENV.jwksUrl]: `${baseUrl}${JWKS_PATH}`,
    [ENV.heartbeatIntervalSeconds]: String(options.heartbeatIntervalSeconds ?? 300),
    [ENV.publicBaseUrl]: baseUrl,
    [ENV.runtime]: 'local',
    [ENV.logLevel]: options.logLevel ?? 'info',
    ...asaasEnvironment(options),
  };
}

/** The Asaas URLs the functions get, as the stack sets them: one variable per environment. */
function asaasEnvironment(options: RuntimeOptions): Record<string, string> {
  const sandbox = options.asaasBaseUrl ?? options.asaasUrls?.sandbox;
  const production = options.asaasBaseUrl ?? options.asaasUrls?.production;
  return {
    ...(sandbox ? { [ENV.asaasSandboxUrl]: sandbox } : {}),
    ...(production ? { [ENV.asaasProductionUrl]: production } : {}),
  };
}

/** Where a function's code is loaded from: its source, or its bundle. */
const moduleOf = (name: string, bundled: boolean) =>
  pathToFileURL(resolve(bundled ? join(BUILD_DIR, name, 'index.mjs') : entryOf(name))).href;

async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok());
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : port;
}

async function startDatabase(options: RuntimeOptions, dataDir: string | null) {
  const file = (name: string) => (dataDir ? join(dataDir, name) : null);
  const dynamo = options.dynamoEndpoint
    ? null
    : await startDynamoLocal({ dataDir: file('dynamodb'), jit: options.dynamoJit });
  const endpoint = options.dynamoEndpoint ?? (dynamo as DynamoLocal).endpoint;
  const tableName = options.tableName ?? 'payment-service';
  try {
    await ensureTable(endpoint, tableName);
    // Kept data is migrated to the shape the code reads before anything serves, or refused with
    // what to delete (a format the code does not know), never misread.
    if (dataDir) await migrateLocalData(endpoint, tableName, dataDir);
  } catch (error) {
    await dynamo?.stop();
    throw error;
  }
  return { dynamo, endpoint, tableName };
}

/** The first instant after `now` at `at` (hour and minute) on the Sao Paulo clock. */
export function nextSaoPauloTime(now: Date, at: { hour: number; minute: number }): Date {
  const offsetMs = (at.hour * 60 + at.minute) * 60_000;
  const today = saoPauloDate(now);
  const candidate = startOfSaoPauloDay(today).getTime() + offsetMs;
  return new Date(
    candidate > now.getTime() ? candidate : startOfSaoPauloDay(addDays(today, 1)).getTime() + offsetMs,
  );
}

/** Everything `npm start` runs, as one object that tests and the bench can start too. */
export async function startRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const dataDir = options.dataDir === undefined ? resolve('.local') : options.dataDir;
  // Mail with live links, `whsec_` secrets, keys: the folder is its owner's alone.
  if (dataDir) preparePrivateDir(dataDir);
  const file = (name: string) => (dataDir ? join(dataDir, name) : null);
  if (options.logLevel) configureLogs({ level: options.logLevel });
  const { dynamo, endpoint, tableName } = await startDatabase(options, dataDir);

  const clock = new TestClock(file('clock.json'));
  const wallClock = new WallClock();
  const issuer = await LocalIssuer.open(dataDir);
  // Every function runs the same handler module Lambda runs, invoked with the same event shapes.
  type LambdaHandler = ((event: unknown, context: unknown) => Promise<unknown>) & {
    use?: (middleware: { before: () => void }) => unknown;
  };
  const modules = new Map<string, Promise<{ handler: LambdaHandler }>>();
  const httpNames = new Set(httpGroups.map((g) => g.name));
  const load = async (name: string) => {
    const module: { handler: LambdaHandler } = await import(moduleOf(name, options.bundled ?? false));
    const before = options.beforeRouteHandler;
    // An HTTP function is a middy chain: a middleware added last runs its `before` just before the handler.
    if (before && httpNames.has(name)) module.handler.use?.({ before });
    return module;
  };
  // The function whose invocation is running: the local secrets refuse what its role would not grant.
  const functionScope = new AsyncLocalStorage<string>();
  const invoke: Invoke = (name, event) =>
    functionScope.run(name, async () => {
      let module = modules.get(name);
      if (!module) {
        module = load(name);
        modules.set(name, module);
      }
      return (await module).handler(event, lambdaContext(name, cryptoIds.uuid()));
    });
  const services = localServices(clock, file, invoke);
  const responseViolations: string[] = [];
  let timeline: Timeline | undefined;
  const requestScope = new AsyncLocalStorage<number>();
  let requestCount = 0;
  const server = createLocalServer({
    groups: httpGroups,
    defaultGroup: defaultRouteGroup,
    clock,
    invoke: (group, event) =>
      requestScope.run(++requestCount, () =>
        invoke(group, event),
      ) as Promise<APIGatewayProxyStructuredResultV2>,
    extraJson: { [JWKS_PATH]: () => issuer.jwks() },
    advanceClock: (seconds) => (timeline as Timeline).advance(seconds),
    checkResponses: options.checkResponses ?? false,
    dashboardDir: options.dashboardDir ?? resolve(DASHBOARD_DIR),
    onViolation: (violation) => {
      responseViolations.push(violation);
      logger.error('response does not match its schema', { violation });
    },
  });
  let port: number;
  try {
    port = await listen(server, options.port ?? Number(process.env.PORT ?? 3000));
  } catch (error) {
    await dynamo?.stop();
    throw error;
  }
  const baseUrl = `http://127.0.0.1:${port}`;

  const environment = localEnvironment(options, endpoint, tableName, baseUrl);
  // The same schema that parses the Lambda environment; the bundles parse it themselves from
  // process.env, as on Lambda.
  const config = parseConfig(environment);
  setConfig(config);
  if (options.bundled) Object.assign(process.env, environment);
  const table = new Table({ tableName, endpoint });
  const roundTrips = countRoundTrips(table);
  const metrics: Record<string, number> = {};
  const bus = new LocalEventBus(clock, config.eventBusName, file('eventbridge.json'));
  // No live mailer: locally every message, sandbox or live, is kept in the mail folder.
  const mailbox = new LocalMailbox(file('mail'));
  // The HTTP functions' request-log lines, drained into the request-log function by the timeline.
  const logSubscription = new LocalLogSubscription(
    (event) => uncounted.run(true, () => invoke('request-log', event)),
    () => wallClock.now().getTime(),
  );
  const platform = {
    mailbox,
    requestLog: logSubscription,
    clock,
    wallClock,
    scheduler: services.scheduler,
    queue: services.deliveryQueue,
    bus,
    table,
    allowLocalHttp: true,
    cipher: new FileCipher(file('provider-secrets.key')),
    identity: ({ table: identityTable, mailer }: Parameters<Platform['identity']>[0]) =>
      new LocalIdentityProvider({
        table: identityTable,
        mailer,
        clock: wallClock,
        signIdToken: (sellerId, signing) => issuer.sign(sellerId, signing),
      }),
    secrets: localSecretKeys(file, (secret) => {
      const fn = functionScope.getStore();
      return fn === undefined ? undefined : { fn, allowed: secretsOf(fn).includes(secret) };
    }),
    metrics: {
      count: (name: string, value = 1) => {
        metrics[name] = (metrics[name] ?? 0) + value;
      },
    },
  };
  const container = createContainer(config, platform);
  useContainer(container);
  // The bundles make their own table client, from DYNAMODB_ENDPOINT, as a Lambda does.
  if (options.bundled) offerLocalPlatform(platform);

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
  streams.setConsumer((event) => invoke('outbox-publisher', event));
  // An SQS rule target: the whole event is the message body; the queue's consumer is the fan-out.
  bus.addRule('webhook-fanout', { source: [EVENT_SOURCE] }, (event) =>
    services.fanoutQueue.send({ body: JSON.stringify(event) }),
  );
  bus.addRule('notifications', { source: [EVENT_SOURCE], 'detail-type': [...NOTIFIED_EVENTS] }, (event) =>
    invoke('notifications', event),
  );
  services.fanoutQueue.setConsumer((event) => invoke('webhook-fanout', event));
  services.deliveryQueue.setConsumer((event) => invoke('webhook-delivery', event) as never);

  timeline = new Timeline(
    clock,
    [services.scheduler, bus, services.fanoutQueue, services.deliveryQueue],
    [streams, logSubscription],
    onError,
  );
  // The rate() heartbeat: once now, then every interval of the (test) clock.
  await invoke('jobs', HEARTBEAT_JOB);
  services.scheduler.every(
    'heartbeat',
    config.heartbeatIntervalSeconds,
    HEARTBEAT_JOB,
    new Date(clock.now().getTime() + config.heartbeatIntervalSeconds * 1000),
  );
  // The cron() of the daily reconciliation: every day at its Sao Paulo time, from the next one.
  services.scheduler.every(
    DAILY_RECONCILIATION_JOB.job,
    86_400,
    DAILY_RECONCILIATION_JOB,
    nextSaoPauloTime(clock.now(), DAILY_RECONCILIATION_AT),
  );
  timeline.start(options.tickMs ?? 200);

  const devCredentials =
    options.devIdentity === false ? null : await ensureDevIdentity(container, issuer, baseUrl, dataDir);

  // Armed once the runtime serves: the faults are the service's, not those of the local start's
  // set-up (its first heartbeat, the dev identity), which has no counterpart on AWS.
  if (options.dynamoThrottle) throttleDynamo(table.client, options.dynamoThrottle);

  let stopped = false;
  return {
    baseUrl,
    port,
    clock,
    wallClock,
    timeline,
    ...services,
    bus,
    streams,
    issuer,
    mailbox,
    deps: { ...container, table },
    sandboxNotificationSecret: await notificationSecret(container.secrets.gatewayWebhook),
    dynamo,
    roundTrips,
    currentRequest: () => requestScope.getStore(),
    counted: () => !uncounted.getStore(),
    metrics,
    responseViolations,
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
      await dynamo?.stop();
    },
  };
}
