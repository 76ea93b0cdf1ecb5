import { CfnOutput, NestedStack, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ENV } from '#shared/config';
import { SECRET_NAMES, SECRETS, type SecretName } from '#shared/secrets';
import { ALARM_EMAIL_PARAMETER, AlarmTopic } from './constructs/alerting';
import { PublicApi } from './constructs/api';
import { AsyncInfra, HEARTBEAT_INTERVAL } from './constructs/async';
import { DashboardAuth } from './constructs/auth';
import { DataStore } from './constructs/data';
import { DASHBOARD_PATH, Edge } from './constructs/edge';
import { constructIdOf, type FunctionSpec, Functions, functionArnOf } from './constructs/functions';
import { MailInfra, mailDomainOf } from './constructs/mail';
import { DeploymentMigrations } from './constructs/migrations';
import { Observability } from './constructs/observability';
import { needsOf } from './constructs/permissions';
import { ApiRoutes } from './constructs/routes';
import { connectTriggers } from './constructs/triggers';
import { asyncFunctions, defaultRouteGroup, httpGroups } from './routes';
import { alarmEmailOf, type CustomDomain, type StageSettings } from './stages';

type EnvName = (typeof ENV)[keyof typeof ENV];

export interface PaymentServiceProps extends StackProps {
  stage: StageSettings;
  domain?: CustomDomain;
  /** The CLOUDFRONT-scope web ACL of the WAF stack (us-east-1). */
  webAclArn: string;
}

/**
 * The payment service (design section 1): HTTP API → one Lambda per endpoint group → one DynamoDB
 * table; Scheduler → jobs; webhook delivery queue with a DLQ; Cognito for the dashboard; alarms to an
 * e-mailed SNS topic and a dashboard; CloudFront with the WAF in front of it all.
 *
 * This stack owns the data, the asynchronous plumbing and the functions. Three nested stacks, each
 * deployed with it, own the rest, so no template nears CloudFormation's 500-resource limit
 * (test/infra/limits.test.ts holds each under 300): `Api` the routes and their invoke permissions,
 * `Edge` CloudFront and the dashboard's bucket, `Observability` the alarms and the dashboard.
 */
export class PaymentServiceStack extends Stack {
  readonly data: DataStore;
  readonly auth: DashboardAuth;
  readonly asyncInfra: AsyncInfra;
  readonly api: PublicApi;
  readonly routes: ApiRoutes;
  readonly edge: Edge;
  readonly functions: Functions;
  readonly observability: Observability;
  readonly mail: MailInfra;
  readonly alarms: AlarmTopic;
  readonly migrations: DeploymentMigrations;

  readonly stage: StageSettings;

  constructor(scope: Construct, id: string, props: PaymentServiceProps) {
    super(scope, id, props);
    const { stage } = props;
    this.stage = stage;
    this.data = new DataStore(this, 'Data', stage);
    this.auth = new DashboardAuth(this, 'Auth', stage);
    this.asyncInfra = new AsyncInfra(this, 'Async');
    this.api = new PublicApi(this, 'Api', { logRetention: stage.accessLogRetention });
    this.edge = new Edge(
      new NestedStack(this, 'EdgeStack', { description: 'CloudFront and the dashboard files' }),
      'Edge',
      {
        apiDomain: this.api.domain,
        stage,
        domain: props.domain,
        webAclArn: props.webAclArn,
      },
    );
    this.mail = new MailInfra(this, 'Mail', { domain: mailDomainOf(this) });

    // The jobs function gets a fixed name so its ARN can be written into every function's
    // environment, its own included, without a function referencing itself.
    const jobsFunctionName = `${this.stackName}-jobs`;
    // Sellers' provider API keys (issue 16) are encrypted with this key, bound to the seller by the
    // encryption context; it is kept when the stack goes, or the stored keys could never be read.
    const providerKey = new Key(this, 'ProviderKeys', {
      description: 'Encrypts sellers’ payment provider API keys',
      enableKeyRotation: true,
      removalPolicy: stage.removalPolicy,
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
      [ENV.publicBaseUrl]: this.edge.url,
      [ENV.runtime]: 'aws',
      [ENV.logLevel]: stage.logLevel,
      [ENV.mailFrom]: this.mail.fromAddress,
      [ENV.mailConfigurationSet]: this.mail.configurationSet.configurationSetName,
      [ENV.providerKeyId]: providerKey.keyArn,
      [ENV.asaasSandboxUrl]: stage.asaas.sandbox,
      [ENV.asaasProductionUrl]: stage.asaas.production,
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
      logRetention: stage.functionLogRetention,
    });

    const functionOf = (name: string) => this.functions.get(name);
    // Only the auth function signs user pool calls (sign-up writes the seller id): it alone reads the secret.
    this.auth.grantClientSecretRead(functionOf('auth'));
    this.routes = new ApiRoutes(new NestedStack(this, 'ApiStack', { description: 'API routes' }), 'Routes', {
      httpApi: this.api.httpApi,
      groups: httpGroups,
      functionOf,
      defaultGroup: defaultRouteGroup,
    });
    connectTriggers(
      {
        scope: this.asyncInfra,
        infra: this.asyncInfra,
        table: this.data.table,
        httpLogGroups: new Map(
          httpGroups.map((g) => [g.name, this.functions.logGroups.get(g.name) as LogGroup]),
        ),
      },
      functionOf,
    );
    this.migrations = new DeploymentMigrations(this, 'Migrations', {
      fn: functionOf('migrations'),
      failures: this.asyncInfra.failureQueueFor('migrations', 'MigrationsFailures'),
      writers: this.functions,
    });

    this.alarms = new AlarmTopic(this, 'Alarms', { email: alarmEmailOf(this) });
    const observability = new NestedStack(this, 'ObservabilityStack', {
      description: 'Alarms and dashboard',
    });
    this.observability = new Observability(observability, 'Observability', {
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

    this.outputs(props.domain);
  }

  /** What an operator does next, in the order docs/operations.md does it. */
  private outputs(domain: CustomDomain | undefined): void {
    new CfnOutput(this, 'Url', {
      description: 'The public base URL: API, hosted pages, /docs and /dashboard. Try GET /api/health.',
      value: this.edge.url,
    });
    new CfnOutput(this, 'DistributionDomain', {
      description: domain
        ? `Point ${domain.domainName} at this name (Route 53 alias, or a CNAME at your DNS host)`
        : 'The service answers here; deploy with -c domainName=… -c certificateArn=… for your own domain',
      value: this.edge.distribution.distributionDomainName,
    });
    new CfnOutput(this, 'DashboardBucketName', {
      description: `Upload the dashboard build under the ${DASHBOARD_PATH.slice(1)}/ prefix (aws s3 sync dist s3://<bucket>${DASHBOARD_PATH}/)`,
      value: this.edge.dashboardBucket.bucketName,
    });
    new CfnOutput(this, 'UserPoolId', {
      description: 'Create the first seller here (aws cognito-idp admin-create-user … custom:seller_id=<id>)',
      value: this.auth.userPool.userPoolId,
    });
    new CfnOutput(this, 'UserPoolClientId', {
      description: 'The dashboard app client (its tokens are verified by the functions)',
      value: this.auth.client.userPoolClientId,
    });
    new CfnOutput(this, 'TableName', {
      description: 'The single table (point-in-time recovery on): see docs/operations.md to restore it',
      value: this.data.table.tableName,
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: `Confirm the subscription e-mail sent to the ${ALARM_EMAIL_PARAMETER} address, or no alarm reaches anyone`,
      value: this.alarms.topic.topicArn,
    });
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
