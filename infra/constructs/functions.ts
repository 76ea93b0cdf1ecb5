import { ArnFormat, Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { Route } from '#shared/http/types';
import { SECRETS, type SecretName } from '#shared/secrets';
import { BUILD_DIR } from '../../esbuild.config.mjs';
import { DELIVERY_FUNCTION_TIMEOUT, FANOUT_FUNCTION_TIMEOUT } from './async';
import type { MailInfra } from './mail';
import { MIGRATIONS_FUNCTION_TIMEOUT } from './migrations';
import { type FunctionNeeds, tableGrantsOf } from './permissions';

/** Per-function settings that differ from the defaults below; everything else is uniform. */
const TIMEOUTS: Record<string, Duration> = {
  // Sweeps of due charges and expiring sessions page through a GSI; give them room.
  jobs: Duration.seconds(60),
  'webhook-delivery': DELIVERY_FUNCTION_TIMEOUT,
  // The fan-out queue's visibility timeout is derived from it.
  'webhook-fanout': FANOUT_FUNCTION_TIMEOUT,
  // Pages through the table until a minute before it, then goes on in a new invocation.
  migrations: MIGRATIONS_FUNCTION_TIMEOUT,
};
// API Gateway HTTP APIs give up on an integration after 30 s anyway.
const DEFAULT_TIMEOUT = Duration.seconds(30);
const MEMORY_MB = 512;

export interface FunctionSpec {
  name: string;
  needs: FunctionNeeds;
  /** An endpoint group's route rows: a read-only group's pipeline writes are derived from them. */
  routes?: readonly Route[];
  /** A fixed physical name, for a function whose ARN must be known before it exists. */
  functionName?: string;
}

/** What the functions may be granted access to. */
export interface FunctionResources {
  table: ITable;
  indexArns: string[];
  bus: IEventBus;
  deliveryQueue: IQueue;
  scheduleGroupName: string;
  schedulerRole: IRole;
  mail: MailInfra;
  /** Encrypts sellers' provider API keys (issue 16). */
  providerKey: IKey;
  /** Every secret of shared/secrets.ts, read at run time by the functions that declare it. */
  secrets: Record<SecretName, ISecret>;
}

export interface FunctionsProps extends FunctionResources {
  specs: FunctionSpec[];
  environment: Record<string, string>;
  logRetention: RetentionDays;
}

type Capability = Exclude<keyof FunctionNeeds, 'table' | 'secrets'>;

/** How each declared capability becomes IAM: one grant per capability, nothing implicit. */
const CAPABILITY_GRANTS: Record<Capability, (r: FunctionResources, role: Role) => void> = {
  publishesEvents: (r, role) => r.bus.grantPutEventsTo(role),
  schedulesJobs: (r, role) => {
    const stack = Stack.of(role);
    role.addToPolicy(
      new PolicyStatement({
        actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'],
        resources: [
          stack.formatArn({
            service: 'scheduler',
            resource: 'schedule',
            resourceName: `${r.scheduleGroupName}/*`,
          }),
        ],
      }),
    );
    r.schedulerRole.grantPassRole(role);
    // cdk-nag names the resource as the template spells it: a pseudo parameter or a literal.
    const part = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:${part(stack.partition, 'Partition')}:scheduler:${part(stack.region, 'Region')}:${part(stack.account, 'AccountId')}:schedule/${r.scheduleGroupName}/*]`,
      reason:
        'Schedule names are made per transaction at run time (one pix expiry each); the wildcard is limited to the service schedule group.',
    });
  },
  sendsMail: (r, role) => r.mail.grantSend(role),
  sendsMessages: (_r, role) => {
    const stack = Stack.of(role);
    const part = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
    const kinds = ['phone-number', 'sender-id', 'pool', 'configuration-set'];
    role.addToPolicy(
      new PolicyStatement({
        actions: ['sms-voice:SendTextMessage'],
        resources: kinds.map((resource) =>
          stack.formatArn({ service: 'sms-voice', resource, resourceName: '*' }),
        ),
      }),
    );
    for (const kind of kinds)
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:${part(stack.partition, 'Partition')}:sms-voice:${part(stack.region, 'Region')}:${part(stack.account, 'AccountId')}:${kind}/*]`,
        reason:
          "Each seller sends from its own origination identity, named in its reminder settings at run time; the wildcard is limited to the account's SMS identities of that kind.",
      });
  },
  decryptsProviderKeys: (r, role) => {
    r.providerKey.grantDecrypt(role);
  },
  encryptsProviderKeys: (r, role) => {
    // Only the two calls the cipher makes: grantEncryptDecrypt would add ReEncrypt* and GenerateDataKey*.
    r.providerKey.grant(role, 'kms:Encrypt', 'kms:Decrypt');
  },
  enqueuesDeliveries: (r, role) => {
    role.addToPolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [r.deliveryQueue.queueArn] }),
    );
  },
};

/** `api-keys` → `ApiKeys`: construct ids that read well in the console and in logical ids. */
export const constructIdOf = (name: string) =>
  name.replace(/(^|-)([a-z0-9])/g, (_m, _dash, c: string) => c.toUpperCase());

/**
 * One Lambda per endpoint group and per async consumer, each running the bundle esbuild wrote to
 * build/<name>/, with its own role (only what FUNCTION_NEEDS grants) and its own log group.
 */
export class Functions extends Construct {
  readonly byName = new Map<string, LambdaFunction>();
  readonly roles = new Map<string, Role>();
  readonly logGroups = new Map<string, LogGroup>();

  constructor(scope: Construct, id: string, props: FunctionsProps) {
    super(scope, id);
    for (const spec of props.specs) {
      this.byName.set(spec.name, this.createFunction(spec, props));
    }
  }

  get(name: string): LambdaFunction {
    const fn = this.byName.get(name);
    if (!fn) throw new Error(`no function named ${name}`);
    return fn;
  }

  private createFunction(spec: FunctionSpec, props: FunctionsProps): LambdaFunction {
    const id = constructIdOf(spec.name);
    const logGroup = new LogGroup(this, `${id}Logs`, { retention: props.logRetention });
    this.logGroups.set(spec.name, logGroup);
    // An explicit role instead of the default one: the default attaches the AWS managed
    // AWSLambdaBasicExecutionRole, which may write to any log group in the account.
    const role = new Role(this, `${id}Role`, {
      description: `Execution role of the ${spec.name} function`,
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    });
    this.roles.set(spec.name, role);
    logGroup.grantWrite(role);
    this.grantNeeds(spec, props, role);

    const fn = new LambdaFunction(this, id, {
      functionName: spec.functionName,
      description: `${spec.name} (payment service)`,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      code: Code.fromAsset(`${BUILD_DIR}/${spec.name}`),
      handler: 'index.handler',
      memorySize: MEMORY_MB,
      timeout: TIMEOUTS[spec.name] ?? DEFAULT_TIMEOUT,
      role,
      logGroup,
      environment: { ...props.environment, ...secretArnsOf(spec.needs, props) },
    });
    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 on purpose: esbuild targets node22, package.json engines and the local runtime ' +
        'use Node 22, so tests run what Lambda runs. The runtime moves to 24 with all three together.',
    });
    return fn;
  }

  private grantNeeds(spec: FunctionSpec, resources: FunctionResources, role: Role): void {
    const { needs } = spec;
    for (const grant of tableGrantsOf(spec.name, needs, spec.routes)) {
      role.addToPolicy(
        new PolicyStatement({
          actions: [...grant.actions],
          resources: [resources.table.tableArn, ...(grant.indexes ? resources.indexArns : [])],
          conditions: grant.leadingKeys
            ? { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...grant.leadingKeys] } }
            : undefined,
        }),
      );
    }
    for (const capability of Object.keys(CAPABILITY_GRANTS) as Capability[]) {
      if (needs[capability]) CAPABILITY_GRANTS[capability](resources, role);
    }
    for (const name of needs.secrets ?? []) resources.secrets[name].grantRead(role);
  }
}

/** A function's secrets, each by its ARN (never its value) under its own variable. */
function secretArnsOf(needs: FunctionNeeds, resources: FunctionResources): Record<string, string> {
  return Object.fromEntries(
    (needs.secrets ?? []).map((name) => [SECRETS[name].arnVariable, resources.secrets[name].secretArn]),
  );
}

/** The ARN of a function with a fixed name, known without referencing the function itself. */
export function functionArnOf(scope: Construct, functionName: string): string {
  return Stack.of(scope).formatArn({
    service: 'lambda',
    resource: 'function',
    resourceName: functionName,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
}
