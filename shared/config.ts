import * as z from 'zod/mini';
import { once } from '#shared/once';

/**
 * Every environment variable the functions read. `infra/` takes the names from ENV so the
 * stack and the code can never disagree on a spelling.
 */
export const ENV = {
  tableName: 'TABLE_NAME',
  dynamoEndpoint: 'DYNAMODB_ENDPOINT',
  eventBusName: 'EVENT_BUS_NAME',
  deliveryQueueUrl: 'DELIVERY_QUEUE_URL',
  schedulerGroup: 'SCHEDULER_GROUP',
  schedulerRoleArn: 'SCHEDULER_ROLE_ARN',
  jobsFunctionArn: 'JOBS_FUNCTION_ARN',
  jwtIssuer: 'JWT_ISSUER',
  jwtClientId: 'JWT_CLIENT_ID',
  jwksUrl: 'JWKS_URL',
  heartbeatIntervalSeconds: 'HEARTBEAT_INTERVAL_SECONDS',
  publicBaseUrl: 'PUBLIC_BASE_URL',
  runtime: 'RUNTIME',
  logLevel: 'LOG_LEVEL',
  gatewayWebhookSecret: 'GATEWAY_WEBHOOK_SECRET',
  mailFrom: 'MAIL_FROM',
  mailConfigurationSet: 'MAIL_CONFIGURATION_SET',
  providerKeyId: 'PROVIDER_KEY_ID',
  asaasSandboxUrl: 'ASAAS_SANDBOX_URL',
  asaasProductionUrl: 'ASAAS_PRODUCTION_URL',
  magicLinkSecretArn: 'MAGIC_LINK_SECRET_ARN',
} as const;

/** The From address when none is configured (the local runtime, which sends nothing). */
export const DEFAULT_MAIL_FROM = 'nao-responda@pagamentos.example.com';

// zod/mini, tree-shaken to the few checks below: every function parses its environment, and the
// full zod (its method chains) would load with every cold start for this one object. Built by the
// first parseConfig (the first invocation), not by every module load.
const schema = once(() => {
  const text = (fallback: string) => z._default(z.string(), fallback);
  const nonEmpty = () => z.string().check(z.minLength(1));
  return z.object({
    [ENV.tableName]: nonEmpty(),
    [ENV.dynamoEndpoint]: z.optional(z.url()),
    [ENV.eventBusName]: z._default(nonEmpty(), 'payment-service'),
    [ENV.deliveryQueueUrl]: text(''),
    [ENV.schedulerGroup]: text('payment-service'),
    [ENV.schedulerRoleArn]: text(''),
    [ENV.jobsFunctionArn]: text(''),
    [ENV.jwtIssuer]: nonEmpty(),
    [ENV.jwtClientId]: nonEmpty(),
    [ENV.jwksUrl]: z.url(),
    [ENV.heartbeatIntervalSeconds]: z._default(z.coerce.number().check(z.int(), z.positive()), 300),
    [ENV.publicBaseUrl]: z.url(),
    [ENV.runtime]: z._default(z.enum(['aws', 'local']), 'aws'),
    [ENV.logLevel]: z._default(z.enum(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
    [ENV.gatewayWebhookSecret]: z.string().check(z.minLength(32)),
    [ENV.mailFrom]: z._default(z.email(), DEFAULT_MAIL_FROM),
    [ENV.mailConfigurationSet]: text(''),
    [ENV.providerKeyId]: text(''),
    [ENV.asaasSandboxUrl]: z._default(z.url(), 'https://api-sandbox.asaas.com/v3'),
    [ENV.asaasProductionUrl]: z._default(z.url(), 'https://api.asaas.com/v3'),
    [ENV.magicLinkSecretArn]: text(''),
  });
});

export interface Config {
  tableName: string;
  dynamoEndpoint?: string;
  eventBusName: string;
  deliveryQueueUrl: string;
  schedulerGroup: string;
  schedulerRoleArn: string;
  jobsFunctionArn: string;
  jwtIssuer: string;
  jwtClientId: string;
  jwksUrl: string;
  heartbeatIntervalSeconds: number;
  publicBaseUrl: string;
  runtime: 'aws' | 'local';
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Verifies the payment provider's notifications (and signs the sandbox's). */
  gatewayWebhookSecret: string;
  /** The From address of every e-mail, on the stack's SES sender identity. */
  mailFrom: string;
  /** The SES configuration set live mail is sent through ('' sends without one). */
  mailConfigurationSet: string;
  /** The KMS key that encrypts sellers' provider API keys ('' locally: the file cipher). */
  providerKeyId: string;
  /** Asaas API v3 base URLs (the tests point both at the local fake). */
  asaasSandboxUrl: string;
  asaasProductionUrl: string;
  /** The Secrets Manager secret whose value seals magic links ('' locally: a key file). */
  magicLinkSecretArn: string;
}

/** Parses the environment once; a missing or malformed variable stops the cold start. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = schema().safeParse(env);
  if (!result.success) {
    const names = result.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new Error(`invalid configuration: ${names}`);
  }
  const e = result.data;
  return {
    tableName: e[ENV.tableName],
    dynamoEndpoint: e[ENV.dynamoEndpoint],
    eventBusName: e[ENV.eventBusName],
    deliveryQueueUrl: e[ENV.deliveryQueueUrl],
    schedulerGroup: e[ENV.schedulerGroup],
    schedulerRoleArn: e[ENV.schedulerRoleArn],
    jobsFunctionArn: e[ENV.jobsFunctionArn],
    jwtIssuer: e[ENV.jwtIssuer],
    jwtClientId: e[ENV.jwtClientId],
    jwksUrl: e[ENV.jwksUrl],
    heartbeatIntervalSeconds: e[ENV.heartbeatIntervalSeconds],
    publicBaseUrl: e[ENV.publicBaseUrl],
    runtime: e[ENV.runtime],
    logLevel: e[ENV.logLevel],
    gatewayWebhookSecret: e[ENV.gatewayWebhookSecret],
    mailFrom: e[ENV.mailFrom],
    mailConfigurationSet: e[ENV.mailConfigurationSet],
    providerKeyId: e[ENV.providerKeyId],
    asaasSandboxUrl: e[ENV.asaasSandboxUrl],
    asaasProductionUrl: e[ENV.asaasProductionUrl],
    magicLinkSecretArn: e[ENV.magicLinkSecretArn],
  };
}

let cached: Config | undefined;
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** The local runtime sets its own configuration before it loads any handler. */
export function setConfig(value: Config): void {
  cached = value;
}

const LOG_LEVELS: readonly Config['logLevel'][] = ['debug', 'info', 'warn', 'error', 'silent'];

/**
 * LOG_LEVEL alone, for the logger at module load: it must not parse (and fail on) the whole
 * configuration before a handler runs. An unknown level logs at info; config() rejects it anyway.
 */
export function logConfig(env: Record<string, string | undefined> = process.env): {
  level: Config['logLevel'];
} {
  const level = LOG_LEVELS.find((l) => l === env[ENV.logLevel]);
  return { level: level ?? 'info' };
}

/**
 * The region the Lambda runtime sets (AWS_REGION). Not in ENV: the stack never sets it. DynamoDB
 * Local and the tests have none, and the SDK insists on one, so Sao Paulo is the fallback.
 */
export const awsRegion = (env: Record<string, string | undefined> = process.env): string =>
  env.AWS_REGION ?? 'sa-east-1';
