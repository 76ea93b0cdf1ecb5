import { CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ASAAS_BASE_URLS } from '#shared/adapters/asaas/client';
import { ENV } from '#shared/config';
import { SECRET_NAMES, SECRETS, type SecretName } from '#shared/secrets';
import { AlarmTopic } from './constructs/alerting';
import { PublicApi } from './constructs/api';
import { AsyncInfra, HEARTBEAT_INTERVAL } from './constructs/async';
import { DashboardAuth } from './constructs/auth';
import { DataStore } from './constructs/data';
import { constructIdOf, type FunctionSpec, Functions, functionArnOf } from './constructs/functions';
import { MailInfra, mailDomainOf } from './constructs/mail';
import { Observability } from './constructs/observability';
import { needsOf } from './constructs/permissions';
import { connectTriggers } from './constructs/triggers';
import { asyncFunctions, defaultRouteGroup, httpGroups } from './routes';

type EnvName = (typeof ENV)[keyof typeof ENV];

/**
 * The whole payment service in one stack (design section 1): HTTP API → one Lambda per endpoint
 * group → one DynamoDB table; Scheduler → jobs; webhook delivery queue with a DLQ; Cognito for the
 * dashboard; alarms to an e-mailed SNS topic and a dashboard.
 */
export class PaymentServiceStack extends Stack {
  readonly data: DataStore;
  readonly auth: DashboardAuth;
  readonly asyncInfra: AsyncInfra;
  readonly api: PublicApi;
  readonly functions: Functions;
  readonly observability: Observability;
  readonly mail: MailInfra;
  readonly alarms: AlarmTopic;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    this.data = new DataStore(this, 'Data');
    this.auth = new DashboardAuth(this, 'Auth');
    this.asyncInfra = new AsyncInfra(this, 'Async');
    this.api = new PublicApi(this, 'Api');
    this.mail = new MailInfra(this, 'Mail', { domain: mailDomainOf(this) });

    // The jobs function gets a fixed name so its ARN can be written into every function's
    // environment, its own included, without a function referencing itself.
    const jobsFunctionName = `${this.stackName}-jobs`;
    // Sellers' provider API keys (issue 16) are encrypted with this key, bound to the seller by the
    // encryption context; it is kept when the stack goes, or the stored keys could never be read.
    const providerKey = new Key(this, 'ProviderKeys', {
      description: 'Encrypts sellers’ payment provider API keys',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Every secret of shared/secrets.ts: read at run time (GetSecretValue) by the functions that
    // declare it, which alone get its ARN; never placed in the template or any environment.
    const secrets = Object.fromEntries(
      SECRET_NAMES.map((name) => [name, runtimeSecret(this, name)]),
    ) as Record<SecretName, Secret>;
    const environment: Partial<Record<EnvName, string>> = {
      [ENV.tableName]: this.data.table.tableName,
      [ENV.eventBusName]: this.asyncInfra.bus.eventBusName,
      [ENV.deliveryQueueUrl]: this.asyncInfra.deliveryQueue.queueUrl,
      [ENV.schedulerGroup]: this.asyncInfra.scheduleGroup.scheduleGroupName,
      [ENV.schedulerRoleArn]: this.asyncInfra.schedulerRole.roleArn,
      [ENV.jobsFunctionArn]: functionArnOf(this, jobsFunctionName),
      [ENV.jwtIssuer]: this.auth.issuer,
      [ENV.jwtClientId]: this.auth.client.userPoolClientId,
      [ENV.jwksUrl]: this.auth.jwksUrl,
      [ENV.heartbeatIntervalSeconds]: String(HEARTBEAT_INTERVAL.toSeconds()),
      [ENV.publicBaseUrl]: this.api.url,
      [ENV.runtime]: 'aws',
      [ENV.mailFrom]: this.mail.fromAddress,
      [ENV.mailConfigurationSet]: this.mail.configurationSet.configurationSetName,
      [ENV.providerKeyId]: providerKey.keyArn,
      [ENV.asaasSandboxUrl]: ASAAS_BASE_URLS.sandbox,
      [ENV.asaasProductionUrl]: ASAAS_BASE_URLS.production,
    };

    const specs: FunctionSpec[] = [
      ...httpGroups.map((g) => ({ name: g.name, needs: needsOf(g.name, 'http'), routes: g.routes })),
      ...asyncFunctions.map((name) => ({
        name,
        needs: needsOf(name, 'async'),
        functionName: name === 'jobs' ? jobsFunctionName : undefined,
      })),
    ];
    this.functions = new Functions(this, 'Functions', {
      specs,
      environment: environment as Record<string, string>,
      table: this.data.table,
      indexArns: this.data.indexArns,
      bus: this.asyncInfra.bus,
      deliveryQueue: this.asyncInfra.deliveryQueue,
      scheduleGroupName: this.asyncInfra.scheduleGroup.scheduleGroupName,
      schedulerRole: this.asyncInfra.schedulerRole,
      mail: this.mail,
      providerKey,
      secrets,
    });

    const functionOf = (name: string) => this.functions.get(name);
    // Only the auth function signs user pool calls (sign-up writes the seller id): it alone reads the secret.
    this.auth.grantClientSecretRead(functionOf('auth'));
    this.api.addGroupRoutes(httpGroups, functionOf, defaultRouteGroup);
    connectTriggers({ scope: this.asyncInfra, infra: this.asyncInfra, table: this.data.table }, functionOf);

    this.alarms = new AlarmTopic(this, 'Alarms');
    this.observability = new Observability(this, 'Observability', {
      api: this.api.httpApi,
      accessLogs: this.api.accessLogs,
      functions: this.functions.byName,
      jobs: functionOf('jobs'),
      jobsLogs: functionOf('jobs').logGroup,
      deliveryQueue: this.asyncInfra.deliveryQueue,
      deliveryDlq: this.asyncInfra.deliveryDlq,
      fanoutQueue: this.asyncInfra.fanoutQueue,
      failureQueues: this.asyncInfra.failureQueues,
      scheduleGroup: this.asyncInfra.scheduleGroup,
      alarmTopic: this.alarms.topic,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'UserPoolId', { value: this.auth.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.auth.client.userPoolClientId });
  }
}

/**
 * One secret of shared/secrets.ts, generated by Secrets Manager. Its construct id is the name's
 * (`MagicLinkSecret`, `GatewayWebhookSecret`), so an existing secret keeps its logical id.
 */
function runtimeSecret(scope: Construct, name: SecretName): Secret {
  const secret = new Secret(scope, `${constructIdOf(name)}Secret`, {
    description: SECRETS[name].description,
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
  });
  Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: SECRETS[name].rotation });
  return secret;
}
