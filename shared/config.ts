import type { SecretName } from '#shared/secrets';

/**
 * Every environment variable the functions read, besides the secrets' ARNs (shared/secrets.ts).
 * `infra/` takes the names from ENV and SECRETS so the stack and the code can never disagree on a
 * spelling.
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
  mailFrom: 'MAIL_FROM',
  mailConfigurationSet: 'MAIL_CONFIGURATION_SET',
  providerKeyId: 'PROVIDER_KEY_ID',
  asaasSandboxUrl: 'ASAAS_SANDBOX_URL',
  asaasProductionUrl: 'ASAAS_PRODUCTION_URL',
  /** Both Asaas environments at one endpoint (a fake, Asaas's sandbox); a per-environment URL wins. */
  asaasBaseUrl: 'ASAAS_BASE_URL',
} as const;

/** The From address when none is configured (the local runtime, which sends nothing). */
export const DEFAULT_MAIL_FROM = 'nao-responda@pagamentos.example.com';

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
  /** The From address of every e-mail, on the stack's SES sender identity. */
  mailFrom: string;
  /** The SES configuration set live mail is sent through ('' sends without one). */
  mailConfigurationSet: string;
  /** The KMS key that encrypts sellers' provider API keys ('' locally: the file cipher). */
  providerKeyId: string;
  /** Asaas API v3 base URLs (the tests point both at the local fake). */
  asaasSandboxUrl: string;
  asaasProductionUrl: string;
  /**
   * The ARN of each secret this function is granted ('' for the others, and locally, where the
   * secrets are key files). Never a secret's value.
   */
  secretArns: Record<SecretName, string>;
}

let cached: Config | undefined;

/**
 * The configuration, parsed from the environment once (shared/config-schema.ts, imported here on
 * the first call, so that zod is not loaded at cold start); a missing or malformed variable
 * rejects every call.
 */
export async function config(): Promise<Config> {
  if (!cached) {
    const { parseConfig } = await import('#shared/config-schema');
    cached ??= parseConfig(process.env);
  }
  return cached;
}

/**
 * The Asaas endpoints the environment names: ASAAS_SANDBOX_URL and ASAAS_PRODUCTION_URL each, else
 * ASAAS_BASE_URL for both; undefined where none is set (the real API then). The deployed stack sets
 * the per-environment ones; an operator points `npm start` at a fake or at Asaas's sandbox with either.
 */
export function asaasUrlsOf(env: Record<string, string | undefined> = process.env): {
  sandbox?: string;
  production?: string;
} {
  const both = env[ENV.asaasBaseUrl] || undefined;
  return {
    sandbox: env[ENV.asaasSandboxUrl] || both,
    production: env[ENV.asaasProductionUrl] || both,
  };
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
