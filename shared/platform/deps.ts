import { lookup } from 'node:dns/promises';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { createRepositories, type Repositories } from '#shared/adapters/dynamodb/repositories';
import { Table } from '#shared/adapters/dynamodb/table';
import { fetchSender } from '#shared/adapters/http/webhook-sender';
import { createEmfMetrics } from '#shared/adapters/metrics/emf';
import { createGatewayRouter } from '#shared/adapters/sandbox-gateway/router';
import { SandboxGateway } from '#shared/adapters/sandbox-gateway/sandbox-gateway';
import { UnconfiguredProvider } from '#shared/adapters/sandbox-gateway/unconfigured-provider';
import { systemClock } from '#shared/adapters/system/clock';
import { cryptoIds } from '#shared/adapters/system/ids';
import { type Config, config } from '#shared/config';
import type { GatewayRouter } from '#shared/domain/payments/gateway';
import type { Clock, EventBus, Ids, PaymentGateway, Queue, Scheduler } from '#shared/domain/ports';
import type { Metrics, WebhookSender } from '#shared/domain/webhooks/deliveries';
import type { UrlPolicy } from '#shared/domain/webhooks/url-policy';

/** What a function needs, built once per container (AWS) or once per process (local runtime). */
export interface Deps {
  config: Config;
  clock: Clock;
  ids: Ids;
  table: Table;
  repos: Repositories;
  scheduler: Scheduler;
  queue: Queue;
  bus: EventBus;
  /** The gateway the health check reports (the sandbox, in process). */
  gateway: PaymentGateway;
  /** The provider of each environment: sandbox for test, the live provider for live. */
  payments: GatewayRouter;
  /** Key lookup for dashboard JWTs: the Cognito JWKS in AWS, the local issuer's locally. */
  jwks: JWTVerifyGetKey;
  sender: WebhookSender;
  urlPolicy: UrlPolicy;
  metrics: Metrics;
}

export const dnsResolver = async (host: string) => (await lookup(host, { all: true })).map((a) => a.address);

let current: Deps | undefined;

/**
 * Scheduler, queue and bus clients load on first use (dynamic import, split into their own chunk
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

function awsDeps(): Deps {
  const cfg = config();
  const table = new Table({ tableName: cfg.tableName, endpoint: cfg.dynamoEndpoint });
  const sandbox = new SandboxGateway({
    table,
    clock: systemClock,
    webhookSecret: cfg.gatewayWebhookSecret,
    publicBaseUrl: cfg.publicBaseUrl,
  });
  return {
    config: cfg,
    clock: systemClock,
    ids: cryptoIds,
    table,
    repos: createRepositories(table),
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
    gateway: sandbox,
    payments: createGatewayRouter(sandbox, new UnconfiguredProvider()),
    jwks: createRemoteJWKSet(new URL(cfg.jwksUrl)),
    sender: fetchSender,
    urlPolicy: { allowLocalHttp: false, resolve: dnsResolver },
    metrics: createEmfMetrics(),
  };
}

export function getDeps(): Deps {
  current ??= awsDeps();
  return current;
}

/** The local runtime (and the bench) provide their own adapters before any handler runs. */
export function provideDeps(deps: Deps): void {
  current = deps;
}
