import { CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ASAAS_BASE_URLS } from '#shared/adapters/asaas/client';
import { ENV } from '#shared/config';
import { AlarmTopic } from './constructs/alerting';
import { PublicApi } from './constructs/api';
import { AsyncInfra, HEARTBEAT_INTERVAL } from './constructs/async';
import { DashboardAuth } from './constructs/auth';
import { DataStore } from './constructs/data';
import { type FunctionSpec, Functions, functionArnOf } from './constructs/functions';
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
    // Signs the sandbox provider's notifications and verifies them at the webhook route. Passed
    // as a deploy-time dynamic reference, so the value is never in the template.
    const gatewaySecret = new Secret(this, 'GatewayWebhookSecret', {
      description: 'HMAC secret of payment provider notifications',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(gatewaySecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotating it would invalidate notifications in flight; it is rotated by hand together with the provider configuration.',
    });
    // Sellers' provider API keys (issue 16) are encrypted with this key, bound to the seller by the
    // encryption context; it is kept when the stack goes, or the stored keys could never be read.
    const providerKey = new Key(this, 'ProviderKeys', {
      description: 'Encrypts sellers’ payment provider API keys',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Seals customer-area magic links (issue 15); read by the customer-area function at run time
    // (GetSecretValue), never placed in the template or the environment.
    const magicLinkSecret = new Secret(this, 'MagicLinkSecret', {
      description: 'Key of the customer area magic links',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(magicLinkSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotating it only signs every customer out (links live 30 minutes); it is rotated by hand.',
    });
    // Keys card fingerprints and signs proof-of-work challenges (the public card forms' guard); read at
    // run time by the functions with a public card form, never placed in the template or the environment.
    const cardTestingSecret = new Secret(this, 'CardTestingSecret', {
      description: 'Key of card fingerprints and proof-of-work challenges',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(cardTestingSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotating it only restarts the decline counts per card and the open challenges (10 minutes); it is rotated by hand.',
    });
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
      [ENV.gatewayWebhookSecret]: gatewaySecret.secretValue.unsafeUnwrap(),
      [ENV.mailFrom]: this.mail.fromAddress,
      [ENV.mailConfigurationSet]: this.mail.configurationSet.configurationSetName,
      [ENV.providerKeyId]: providerKey.keyArn,
      [ENV.asaasSandboxUrl]: ASAAS_BASE_URLS.sandbox,
      [ENV.asaasProductionUrl]: ASAAS_BASE_URLS.production,
      [ENV.magicLinkSecretArn]: magicLinkSecret.secretArn,
      [ENV.cardTestingSecretArn]: cardTestingSecret.secretArn,
    };

    const specs: FunctionSpec[] = [
      ...httpGroups.map((g) => ({ name: g.name, needs: needsOf(g.name, 'http') })),
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
      magicLinkSecret,
      cardTestingSecret,
    });

    const functionOf = (name: string) => this.functions.get(name);
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
