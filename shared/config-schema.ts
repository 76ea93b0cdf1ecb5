import * as z from 'zod';
import { asaasUrlsOf, type Config, DEFAULT_MAIL_FROM, ENV } from '#shared/config';
import { once } from '#shared/once';
import { SECRET_NAMES, SECRETS } from '#shared/secrets';

// The environment's zod schema, apart from shared/config.ts (which the logger and every function
// load at cold start): config() imports this module on the first invocation, which loads zod for
// the container anyway.
// Built by the first parseConfig (the first invocation), not by every module load.
const schema = once(() =>
  z.object({
    [ENV.tableName]: z.string().min(1),
    [ENV.dynamoEndpoint]: z.string().url().optional(),
    [ENV.eventBusName]: z.string().min(1).default('payment-service'),
    [ENV.deliveryQueueUrl]: z.string().default(''),
    [ENV.schedulerGroup]: z.string().default('payment-service'),
    [ENV.schedulerRoleArn]: z.string().default(''),
    [ENV.jobsFunctionArn]: z.string().default(''),
    [ENV.jwtIssuer]: z.string().min(1),
    [ENV.jwtClientId]: z.string().min(1),
    [ENV.jwksUrl]: z.string().url(),
    [ENV.heartbeatIntervalSeconds]: z.coerce.number().int().positive().default(300),
    [ENV.publicBaseUrl]: z.string().url(),
    [ENV.runtime]: z.enum(['aws', 'local']).default('aws'),
    [ENV.logLevel]: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    [ENV.mailFrom]: z.email().default(DEFAULT_MAIL_FROM),
    [ENV.mailConfigurationSet]: z.string().default(''),
    [ENV.providerKeyId]: z.string().default(''),
    [ENV.asaasSandboxUrl]: z.string().url().default('https://api-sandbox.asaas.com/v3'),
    [ENV.asaasProductionUrl]: z.string().url().default('https://api.asaas.com/v3'),
    [ENV.asaasBaseUrl]: z.string().url().optional(),
  }),
);

/** Parses the environment once; a missing or malformed variable stops the cold start. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const asaas = asaasUrlsOf(env);
  const result = schema().safeParse({
    ...env,
    [ENV.asaasSandboxUrl]: asaas.sandbox,
    [ENV.asaasProductionUrl]: asaas.production,
  });
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
    mailFrom: e[ENV.mailFrom],
    mailConfigurationSet: e[ENV.mailConfigurationSet],
    providerKeyId: e[ENV.providerKeyId],
    asaasSandboxUrl: e[ENV.asaasSandboxUrl],
    asaasProductionUrl: e[ENV.asaasProductionUrl],
    // Only the functions granted a secret have its ARN; the others read '' and are refused the key.
    secretArns: Object.fromEntries(
      SECRET_NAMES.map((name) => [name, env[SECRETS[name].arnVariable] ?? '']),
    ) as Config['secretArns'],
  };
}
