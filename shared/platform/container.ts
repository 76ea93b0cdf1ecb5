import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { JWTVerifyGetKey } from 'jose';
import { asaasAccounts } from '#shared/adapters/asaas/accounts';
import { ASAAS_PROVIDER, AsaasProvider } from '#shared/adapters/asaas/asaas-provider';
import { AsaasClient } from '#shared/adapters/asaas/client';
import { createEventLog } from '#shared/adapters/dynamodb/event-log-repository';
import {
  createProviderConnectionRepository,
  createProviderLinks,
} from '#shared/adapters/dynamodb/provider-repositories';
import { createRepositories, type Repositories } from '#shared/adapters/dynamodb/repositories';
import { createRequestLogStore } from '#shared/adapters/dynamodb/request-log-repository';
import { createSellerAccountRepository } from '#shared/adapters/dynamodb/seller-account-repository';
import { Table } from '#shared/adapters/dynamodb/table';
import { atomically, inUnitOfWork } from '#shared/adapters/dynamodb/unit-of-work';
import { httpSender } from '#shared/adapters/http/webhook-sender';
import { createEmfMetrics } from '#shared/adapters/metrics/emf';
import { createGatewayRouter } from '#shared/adapters/sandbox-gateway/router';
import { SandboxGateway } from '#shared/adapters/sandbox-gateway/sandbox-gateway';
import { clockScope, scopedClock, systemClock } from '#shared/adapters/system/clock';
import { cryptoIds } from '#shared/adapters/system/ids';
import { wallClockPacer } from '#shared/adapters/system/pacer';
import { logReporter } from '#shared/adapters/system/reporter';
import { logLineRequestLog } from '#shared/adapters/system/request-log-line';
import type { Config } from '#shared/config';
import type { Deps } from '#shared/domain/deps';
import { keepingMailer, routeMail } from '#shared/domain/mail/delivery';
import type {
  Atomically,
  CardTestingKeyring,
  Clock,
  EventBus,
  EventLog,
  GatewayRouter,
  IdentityProvider,
  Ids,
  Mailbox,
  MailboxReader,
  Mailer,
  Messenger,
  Metrics,
  PaymentGateway,
  Queue,
  Reporter,
  RequestLogSink,
  SandboxOperations,
  Scheduler,
  SecretKey,
  SellerAccountRepository,
  UrlPolicy,
  WebhookSender,
} from '#shared/domain/ports';
import type { MagicLinkKeyring, ResponsePacer } from '#shared/domain/ports/customer-area';
import type {
  ProviderAccounts,
  ProviderConnectionRepository,
  ProviderLinks,
  SecretCipher,
} from '#shared/domain/ports/provider-connections';
import { credentialsResolver } from '#shared/domain/provider-connections/connections';
import { byChannel, keepingMessenger, routeMessages } from '#shared/domain/reminders/messenger';
import { logger } from '#shared/logger';
import { once } from '#shared/once';
import { SECRET_NAMES, type SecretName } from '#shared/secrets';

/**
 * Every adapter a function may need, built once per container (AWS) or once per process (the
 * local runtime). Handlers and jobs pass its `deps` to their use cases; the pipeline's middlewares
 * use the rest. No table or adapter class is reachable from here.
 */
export interface Container {
  config: Config;
  /** What every use case takes (Pick<Deps, …>): built once here, passed whole by handlers and jobs. */
  deps: Deps;
  /** Business time: what the local runtime's test clock moves (due dates, schedules, retries). */
  clock: Clock;
  /**
   * Real time, which no test clock moves: API keys and dashboard tokens are checked, the request
   * rate limit counts and webhooks are signed on it.
   */
  wallClock: Clock;
  ids: Ids;
  /** Numeric ids from atomic counters (hi/lo blocks). */
  sequences: { next(name: string): Promise<number> };
  repos: Repositories;
  scheduler: Scheduler;
  queue: Queue;
  bus: EventBus;
  /** The gateway the health check reports (the sandbox, in process). */
  gateway: PaymentGateway;
  /** The provider of each environment: sandbox for test, the live provider for live. */
  payments: GatewayRouter;
  /** The sandbox provider's own operations (boleto documents, simulated payments). */
  sandbox: SandboxOperations;
  /** Key lookup for dashboard JWTs: the Cognito JWKS in AWS, the local issuer's locally. */
  jwks: JWTVerifyGetKey;
  /** Dashboard sign-up, sign-in and sessions: Cognito in AWS, the local identity store locally. */
  identity: IdentityProvider;
  /** Sellers that signed up alone, and whether their login has a second factor. */
  sellerAccounts: SellerAccountRepository;
  /** The events of the last 30 days with their deliveries (GET /api/events). */
  events: EventLog;
  /** Where the HTTP pipeline hands each seller request's log entry, without waiting on it. */
  requestLog: RequestLogSink;
  sender: WebhookSender;
  urlPolicy: UrlPolicy;
  metrics: Metrics;
  /** Failures that must not fail the use case they follow, reported to the request's or the job's log. */
  reporter: Reporter;
  /** Sends mail: a sandbox tenant's is kept in the mailbox, the rest goes to the platform's mailer. */
  mailer: Mailer;
  /** WhatsApp and SMS: a sandbox tenant's are kept in the mailbox, the rest go to the platform's messenger. */
  messenger: Messenger;
  /** The kept mail the sandbox test helper reads. */
  mailbox: MailboxReader;
  /** Sellers' live provider accounts (issue 16): connections, the key check, the Asaas adapter's links. */
  providers: {
    connections: ProviderConnectionRepository;
    accounts: ProviderAccounts;
    cipher: SecretCipher;
    links: ProviderLinks;
    live: PaymentGateway;
  };
  /** Every secret by name (shared/secrets.ts); a function may read only those the stack grants it. */
  secrets: SecretKeys;
  /** The key that seals customer-area magic links (issue 15): `secrets.magicLink`. */
  magicLinks: MagicLinkKeyring;
  /** The key of card fingerprints and proof-of-work challenges (the public card forms' guard). */
  cardKeys: CardTestingKeyring;
  /** Holds answers whose timing must not tell what they found (wall time). */
  pacer: ResponsePacer;
  /**
   * Runs one route's handler or one job as a unit of work of the data layer: the item reads it
   * starts together (Promise.all over its ports) cost one BatchGetItem. The HTTP pipeline and the
   * job runners enter it; use cases never see it.
   */
  unitOfWork: <T>(work: () => Promise<T>) => Promise<T>;
  /** The domain's Atomically: the writes a use case makes inside it go as one TransactWriteItems. */
  atomically: Atomically;
}

/** What differs between AWS and the local runtime; everything else is built the same way. */
export interface Platform {
  clock: Clock;
  wallClock: Clock;
  scheduler: Scheduler;
  queue: Queue;
  bus: EventBus;
  metrics: Metrics;
  /**
   * The table, made before this module loads on AWS (shared/platform/current.ts); the local runtime
   * passes its own so that it can count round trips and close the client.
   */
  table?: Table;
  /** Only the local runtime may deliver webhooks to http://127.0.0.1. */
  allowLocalHttp: boolean;
  /** Sends live mail (SES on AWS). Absent: every message is kept in the mailbox (the local runtime). */
  mailer?: Mailer;
  /** Sends live WhatsApp and SMS (Meta's Cloud API and End User Messaging on AWS). Absent: kept in the mailbox. */
  messenger?: Messenger;
  /** Where kept mail goes: the table's sandbox mailbox when absent (AWS), the mail folder locally. */
  mailbox?: Mailbox;
  /** Encrypts sellers' provider keys: KMS on AWS, a key file in the data folder locally. */
  cipher: SecretCipher;
  /** Secrets Manager on AWS, key files in the data folder locally. */
  secrets: SecretKeys;
  /**
   * The request log's sink: a log line on AWS (a subscription filter carries it to the writer
   * function), a buffer the local runtime's timeline flushes through the same function.
   */
  requestLog: RequestLogSink;
  /** The dashboard's identity provider, given what the container built (the mailer, the table). */
  identity: (built: { table: Table; mailer: Mailer }) => IdentityProvider;
}

export type SecretKeys = Record<SecretName, SecretKey>;

// node:dns and jose load on first use: only webhook deliveries resolve hosts, only bearer tokens
// need the key set, and importing either cost every function's cold start.
// The import is kept: every import() resolves its specifier again (through the loader's hooks
// under tsx), which cost the local runtime 5% of its CPU when the handlers re-imported per request.
const dns = once(() => import('node:dns/promises'));
export const dnsResolver = async (host: string) => {
  const { lookup } = await dns();
  return (await lookup(host, { all: true })).map((a) => a.address);
};

/** The Cognito key set (jose's remote JWKS, with its cache), made on the first bearer token. */
function remoteJwks(url: string): JWTVerifyGetKey {
  let keySet: Promise<JWTVerifyGetKey> | undefined;
  return async (header, token) => {
    keySet ??= import('jose').then(({ createRemoteJWKSet }) => createRemoteJWKSet(new URL(url)));
    return (await keySet)(header, token);
  };
}

/** The one composition function: AWS and the local runtime both build their container here. */
export function createContainer(cfg: Config, base: Platform): Container {
  // The business clock reads a sandbox test clock's time while work on that clock runs.
  const platform: Platform = { ...base, clock: scopedClock(base.clock) };
  const table = platform.table ?? new Table({ tableName: cfg.tableName, endpoint: cfg.dynamoEndpoint });
  const repos = createRepositories(table, platform.clock);
  const mailbox = platform.mailbox ?? repos.sandboxMailbox;
  const kept = keepingMailer({ ids: cryptoIds, clock: platform.clock, store: mailbox });
  const mailer = routeMail({ sandbox: kept, live: platform.mailer ?? kept });
  const keptMessages = keepingMessenger({ ids: cryptoIds, clock: platform.clock, store: mailbox });
  const messenger = routeMessages({ sandbox: keptMessages, live: platform.messenger ?? keptMessages });
  const sandbox = new SandboxGateway({
    table,
    clock: platform.clock,
    notificationKey: platform.secrets.gatewayWebhook,
    pdfKey: platform.secrets.boletoPdf,
    publicBaseUrl: cfg.publicBaseUrl,
  });
  const connections = createProviderConnectionRepository(table);
  const links = createProviderLinks(table, ASAAS_PROVIDER);
  const asaasClient = new AsaasClient({
    baseUrls: { sandbox: cfg.asaasSandboxUrl, production: cfg.asaasProductionUrl },
    // The circuit's open period runs on real time (the local wall clock, which tests skew).
    breaker: { now: () => platform.wallClock.now().getTime() },
  });
  // Live tenants get Asaas: a seller without a connected account still gets the 503.
  const live = new AsaasProvider({
    client: asaasClient,
    credentials: credentialsResolver({ connections, cipher: platform.cipher }),
    links,
    clock: platform.clock,
  });
  const payments = createGatewayRouter(sandbox, live);
  const identity = platform.identity({ table, mailer });
  const sellerAccounts = createSellerAccountRepository(table);
  const events = createEventLog(table);
  const requestLogs = createRequestLogStore(table);
  const urlPolicy = { allowLocalHttp: platform.allowLocalHttp, resolve: dnsResolver };
  const providerAccounts = asaasAccounts(asaasClient);
  const reporter = logReporter(logger);
  const deps: Deps = {
    atomically,
    reporter,
    transactions: repos.transactions,
    attempts: repos.attempts,
    products: repos.products,
    customers: repos.customers,
    directory: repos.customerDirectory,
    customerAndProduct: repos.customerAndProduct,
    affiliations: repos.affiliations,
    paymentMethods: repos.paymentMethods,
    sessions: repos.checkoutSessions,
    prices: repos.prices,
    subscriptions: repos.subscriptions,
    startReader: repos.subscriptionStartReader,
    scheduledCharges: repos.scheduledCharges,
    installmentPlans: repos.installmentPlans,
    portalSessions: repos.portalSessions,
    portalConfigs: repos.portalConfigs,
    team: repos.team,
    reminderSettings: repos.reminderSettings,
    apiKeys: repos.apiKeys,
    rateLimits: repos.rateLimits,
    health: repos.health,
    outbox: repos.outbox,
    endpoints: repos.webhookEndpoints,
    reconciliations: repos.reconciliations,
    testClocks: repos.testClocks,
    deliveries: repos.deliveries,
    mailLog: repos.mailLog,
    events,
    requestLogs,
    sellerAccounts,
    connections,
    providerAccounts,
    cipher: platform.cipher,
    links,
    clock: platform.clock,
    wallClock: platform.wallClock,
    clockScope,
    ids: cryptoIds,
    scheduler: platform.scheduler,
    queue: platform.queue,
    bus: platform.bus,
    payments,
    gateway: sandbox,
    liveGateway: live,
    sandbox,
    mailer,
    messenger,
    mailbox,
    sender: httpSender,
    urlPolicy,
    metrics: platform.metrics,
    identity,
    magicLinks: platform.secrets.magicLink,
    cardKeys: platform.secrets.cardTesting,
    pacer: wallClockPacer,
    publicBaseUrl: cfg.publicBaseUrl,
    allowLocalHttp: platform.allowLocalHttp,
  };
  return {
    config: cfg,
    deps,
    clock: platform.clock,
    wallClock: platform.wallClock,
    ids: cryptoIds,
    sequences: { next: (name) => table.nextId(name) },
    repos,
    scheduler: platform.scheduler,
    queue: platform.queue,
    bus: platform.bus,
    gateway: sandbox,
    payments,
    sandbox,
    jwks: remoteJwks(cfg.jwksUrl),
    identity,
    sellerAccounts,
    events,
    requestLog: platform.requestLog,
    sender: httpSender,
    urlPolicy,
    metrics: platform.metrics,
    reporter,
    mailer,
    messenger,
    mailbox,
    providers: { connections, accounts: providerAccounts, cipher: platform.cipher, links, live },
    secrets: platform.secrets,
    magicLinks: platform.secrets.magicLink,
    cardKeys: platform.secrets.cardTesting,
    pacer: wallClockPacer,
    unitOfWork: inUnitOfWork,
    atomically,
  };
}

/**
 * Scheduler, queue, bus and SES clients load on first use (dynamic import, split into their own chunk
 * by esbuild), so a function that never schedules or publishes does not pay their cold start.
 */
function lazy<T extends object>(load: () => Promise<T>): T {
  let instance: Promise<T> | undefined;
  return new Proxy({} as T, {
    get: (_target, method: string) => {
      return async (...args: unknown[]) => {
        instance ??= load();
        const target = (await instance) as Record<string, (...a: unknown[]) => unknown>;
        return target[method](...args);
      };
    },
  });
}

function awsPlatform(cfg: Config): Platform {
  return {
    clock: systemClock,
    wallClock: systemClock,
    scheduler: lazy<Scheduler>(async () => {
      const [{ SchedulerClient }, { EventBridgeScheduler }] = await Promise.all([
        import('@aws-sdk/client-scheduler'),
        import('#shared/adapters/scheduler/eventbridge-scheduler'),
      ]);
      return new EventBridgeScheduler({
        client: new SchedulerClient({}),
        groupName: cfg.schedulerGroup,
        targetArn: cfg.jobsFunctionArn,
        roleArn: cfg.schedulerRoleArn,
      });
    }),
    queue: lazy<Queue>(async () => {
      const [{ SQSClient }, { SqsQueue }] = await Promise.all([
        import('@aws-sdk/client-sqs'),
        import('#shared/adapters/sqs/sqs-queue'),
      ]);
      return new SqsQueue(new SQSClient({}), cfg.deliveryQueueUrl);
    }),
    bus: lazy<EventBus>(async () => {
      const [{ EventBridgeClient }, { EventBridgeBus }] = await Promise.all([
        import('@aws-sdk/client-eventbridge'),
        import('#shared/adapters/eventbridge/event-bus'),
      ]);
      return new EventBridgeBus(new EventBridgeClient({}), cfg.eventBusName);
    }),
    mailer: lazy<Mailer>(async () => {
      const [{ SESv2Client }, { SesMailer }] = await Promise.all([
        import('@aws-sdk/client-sesv2'),
        import('#shared/adapters/ses/ses-mailer'),
      ]);
      return new SesMailer({
        client: new SESv2Client({}),
        from: cfg.mailFrom,
        configurationSetName: cfg.mailConfigurationSet,
      });
    }),
    messenger: lazy<Messenger>(async () => {
      const [{ PinpointSMSVoiceV2Client }, { PinpointSmsMessenger }, { WhatsappCloudMessenger }] =
        await Promise.all([
          import('@aws-sdk/client-pinpoint-sms-voice-v2'),
          import('#shared/adapters/sms/pinpoint-sms-messenger'),
          import('#shared/adapters/whatsapp/whatsapp-cloud-messenger'),
        ]);
      return byChannel({
        whatsapp: new WhatsappCloudMessenger({ fetch }),
        sms: new PinpointSmsMessenger({ client: new PinpointSMSVoiceV2Client({}) }),
      });
    }),
    cipher: lazy<SecretCipher>(async () => {
      const [{ KMSClient }, { KmsCipher }] = await Promise.all([
        import('@aws-sdk/client-kms'),
        import('#shared/adapters/kms/kms-cipher'),
      ]);
      return new KmsCipher(new KMSClient({}), cfg.providerKeyId);
    }),
    secrets: awsSecrets(cfg),
    identity: () => cognitoIdentity(cfg),
    metrics: createEmfMetrics(),
    requestLog: logLineRequestLog,
    allowLocalHttp: false,
  };
}

/** The user pool (region and id from its issuer URL); the SDK client loads with the first identity call. */
function cognitoIdentity(cfg: Config): IdentityProvider {
  return lazy<IdentityProvider>(async () => {
    const [{ CognitoIdentityProviderClient }, { CognitoIdentityProvider, userPoolOf }] = await Promise.all([
      import('@aws-sdk/client-cognito-identity-provider'),
      import('#shared/adapters/cognito/cognito-identity'),
    ]);
    const pool = userPoolOf(cfg.jwtIssuer);
    return new CognitoIdentityProvider({
      client: new CognitoIdentityProviderClient({ region: pool.region }),
      userPoolId: pool.id,
      clientId: cfg.jwtClientId,
    });
  });
}

/** Each secret read from Secrets Manager on first use, through one client made with the first. */
function awsSecrets(cfg: Config): SecretKeys {
  let client: Promise<SecretsManagerClient> | undefined;
  const entries = SECRET_NAMES.map((name) => [
    name,
    lazy<SecretKey>(async () => {
      client ??= import('@aws-sdk/client-secrets-manager').then((m) => new m.SecretsManagerClient({}));
      const { SecretsManagerKey } = await import('#shared/adapters/secrets-manager/secret-key');
      return new SecretsManagerKey(await client, cfg.secretArns[name], name);
    }),
  ]);
  return Object.fromEntries(entries) as SecretKeys;
}

/** The AWS container (shared/platform/current.ts builds it on a function's first invocation). */
export function createAwsContainer(cfg: Config, table: Table): Container {
  return createContainer(cfg, { ...awsPlatform(cfg), table });
}
