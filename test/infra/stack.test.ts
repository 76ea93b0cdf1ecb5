import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DELIVERY_FUNCTION_TIMEOUT,
  FANOUT_FUNCTION_TIMEOUT,
  HEARTBEAT_INTERVAL,
} from '#infra/constructs/async';
import { MIGRATIONS_FUNCTION_TIMEOUT, MIGRATIONS_SERVICE_TIMEOUT } from '#infra/constructs/migrations';
import { secretsOf } from '#infra/constructs/permissions';
import { asyncFunctions, defaultRouteGroup, functionNames, httpGroups } from '#infra/routes';
import { LATEST_FORMAT } from '#shared/adapters/dynamodb/migrations/list';
import { TABLE } from '#shared/adapters/dynamodb/table-definition';
import { scheduleInputOf } from '#shared/adapters/scheduler/eventbridge-scheduler';
import { ENV } from '#shared/config';
import { routeKey } from '#shared/http/types';
import { HEARTBEAT_JOB } from '#shared/jobs';
import { SECRETS } from '#shared/secrets';
import { actionsOf, type Synthesized, statementsOfRole, synthesize } from './synth';

let s: Synthesized;
beforeAll(() => {
  s = synthesize();
});
afterAll(() => s?.dispose());

const resourcesOf = (type: string) =>
  Object.entries(s.template.findResources(type)) as [string, { Properties: Record<string, any> }][];
const fnId = (name: string) => s.logicalId(s.stack.functions.get(name));
const fnProps = (name: string) => s.template.toJSON().Resources[fnId(name)].Properties;
const roleActions = (name: string) =>
  actionsOf(statementsOfRole(s.template, s.logicalId(s.stack.functions.roles.get(name)!)));

describe('single table', () => {
  it('has the keys, indexes, TTL and stream of the shared table definition', () => {
    const indexes = Object.values(TABLE.indexes);
    s.template.resourceCountIs('AWS::DynamoDB::Table', 1);
    s.template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith(
        [TABLE.partitionKey, TABLE.sortKey, ...indexes.flatMap((i) => [i.partitionKey, i.sortKey])].map(
          (name) => ({ AttributeName: name, AttributeType: 'S' }),
        ),
      ),
      GlobalSecondaryIndexes: indexes.map((i) => ({
        IndexName: i.name,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: 'HASH' },
          { AttributeName: i.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      StreamSpecification: { StreamViewType: TABLE.streamView },
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  it('names its indexes generically (gsi1 … gsi6): the entities name their access patterns on them', () => {
    const names = Object.values(TABLE.indexes).map((i) => i.name);
    expect(names).toEqual(['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5', 'gsi6']);
    const [[, table]] = resourcesOf('AWS::DynamoDB::Table');
    expect(table.Properties.GlobalSecondaryIndexes.map((i: { IndexName: string }) => i.IndexName)).toEqual(
      names,
    );
  });

  it('survives accidents: point-in-time recovery, deletion protection and a retain policy', () => {
    s.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      }),
    });
  });
});

describe('functions', () => {
  it('deploys one Node.js 22 arm64 function per endpoint group and per async function', () => {
    s.template.resourceCountIs('AWS::Lambda::Function', httpGroups.length + asyncFunctions.length);
    for (const name of functionNames) {
      expect(fnProps(name)).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: 512,
      });
    }
  });

  it('gives API functions 30 s, jobs 60 s and the delivery function a sixth of the visibility timeout', () => {
    for (const group of httpGroups) expect(fnProps(group.name).Timeout).toBe(30);
    expect(fnProps('jobs').Timeout).toBe(60);
    expect(fnProps('webhook-delivery').Timeout * 6).toBeLessThanOrEqual(60);
  });

  it('sets every variable the configuration parser reads, named from ENV, and the ARNs of its own secrets', () => {
    // ASAAS_BASE_URL is the operator's shortcut for both Asaas environments: the stack sets each one.
    const expected = Object.values(ENV).filter((n) => n !== ENV.dynamoEndpoint && n !== ENV.asaasBaseUrl);
    for (const name of functionNames) {
      const own = secretsOf(name).map((secret) => SECRETS[secret].arnVariable);
      expect(Object.keys(fnProps(name).Environment.Variables).sort()).toEqual([...expected, ...own].sort());
      expect(fnProps(name).Environment.Variables[ENV.runtime]).toBe('aws');
    }
  });

  it('points JOBS_FUNCTION_ARN at the jobs function by its fixed name', () => {
    const arn = JSON.stringify(fnProps('api-keys').Environment.Variables[ENV.jobsFunctionArn]);
    expect(arn).toContain(`:function:${fnProps('jobs').FunctionName}`);
  });

  it('builds PUBLIC_BASE_URL from the CloudFront domain, without a trailing slash', () => {
    expect(fnProps('health').Environment.Variables[ENV.publicBaseUrl]).toEqual({
      'Fn::Join': [
        '',
        ['https://', { 'Fn::GetAtt': [s.logicalId(s.stack.edge.distribution), 'DomainName'] }],
      ],
    });
  });

  it('verifies dashboard tokens against the Cognito issuer and its JWKS', () => {
    const pool = { Ref: s.logicalId(s.stack.auth.userPool) };
    const issuer = ['https://cognito-idp.sa-east-1.', { Ref: 'AWS::URLSuffix' }, '/', pool];
    const vars = fnProps('api-keys').Environment.Variables;
    expect(vars[ENV.jwtIssuer]).toEqual({ 'Fn::Join': ['', issuer] });
    expect(vars[ENV.jwksUrl]).toEqual({ 'Fn::Join': ['', [...issuer, '/.well-known/jwks.json']] });
    expect(vars[ENV.jwtClientId]).toEqual({ Ref: s.logicalId(s.stack.auth.client) });
  });
});

describe('HTTP API', () => {
  const allRoutes = [
    ...httpGroups.flatMap((g) => g.routes.map((r) => ({ group: g.name, key: routeKey(r) }))),
    // Unknown routes reach one function too, so their 404 comes from the same error mapper.
    { group: defaultRouteGroup, key: '$default' },
  ];

  it('has exactly one route per route-table row, plus $default', () => {
    const keys = resourcesOf('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);
    expect(keys.sort()).toEqual(allRoutes.map((r) => r.key).sort());
  });

  it("sends every route to its own group's function", () => {
    const integrations = Object.fromEntries(resourcesOf('AWS::ApiGatewayV2::Integration'));
    for (const [, route] of resourcesOf('AWS::ApiGatewayV2::Route')) {
      const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref;
      const group = allRoutes.find((r) => r.key === route.Properties.RouteKey)?.group as string;
      expect(integrations[integrationId].Properties).toMatchObject({
        IntegrationUri: { 'Fn::GetAtt': [fnId(group), 'Arn'] },
        PayloadFormatVersion: '2.0',
      });
    }
  });

  it('has no API Gateway authorizer: the functions authenticate', () => {
    s.template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 0);
    for (const [, route] of resourcesOf('AWS::ApiGatewayV2::Route')) {
      expect(route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    }
  });

  it('writes access logs from the auto-deployed default stage', () => {
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: {
        DestinationArn: { 'Fn::GetAtt': [s.logicalId(s.stack.api.accessLogs), 'Arn'] },
        Format: Match.stringLikeRegexp('\\$context\\.requestId'),
      },
    });
  });
});

describe('asynchronous work', () => {
  it('redrives a delivery to the DLQ after five receives, with a 60 s visibility timeout', () => {
    const dlq = s.logicalId(s.stack.asyncInfra.deliveryDlq);
    s.template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: 60,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: 5 },
    });
    expect(DELIVERY_FUNCTION_TIMEOUT.toSeconds() * 6).toBe(60);
  });

  it("redrives a fan-out message to the fan-out's failure queue after five receives, 60 s apart", () => {
    const queue = s.logicalId(s.stack.asyncInfra.fanoutQueue);
    const dlq = s.logicalId(s.stack.asyncInfra.fanoutDlq);
    expect(s.stack.asyncInfra.failureQueues.get('webhook-fanout')).toBe(s.stack.asyncInfra.fanoutDlq);
    const [, props] = resourcesOf('AWS::SQS::Queue').find(([id]) => id === queue)!;
    expect(props.Properties).toEqual({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 60,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: 5 },
    });
    // AWS's rule for an SQS event source: a visibility timeout of at least six function timeouts.
    expect(fnProps('webhook-fanout').Timeout).toBe(FANOUT_FUNCTION_TIMEOUT.toSeconds());
    expect(props.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * fnProps('webhook-fanout').Timeout);
    s.template.hasResourceProperties('AWS::SQS::Queue', {
      MessageRetentionPeriod: 14 * 86_400,
      RedrivePolicy: Match.absent(),
    });
  });

  it('lets only the fan-out rule send to the fan-out queue and its failure queue', () => {
    const rule = Object.entries(s.template.findResources('AWS::Events::Rule')).find(([, r]) =>
      JSON.stringify(r.Properties.Targets).includes(s.logicalId(s.stack.asyncInfra.fanoutQueue)),
    )?.[0];
    expect(rule).toBeDefined();
    for (const queue of [s.stack.asyncInfra.fanoutQueue, s.stack.asyncInfra.fanoutDlq]) {
      const id = s.logicalId(queue);
      const [[, policy]] = resourcesOf('AWS::SQS::QueuePolicy').filter(([, p]) =>
        p.Properties.Queues.some((q: unknown) => JSON.stringify(q) === JSON.stringify({ Ref: id })),
      );
      type Statement = Parameters<typeof actionsOf>[0][number] & Record<string, any>;
      const fromRule = (policy.Properties.PolicyDocument.Statement as Statement[]).filter(
        (st) => st.Effect === 'Allow' && st.Principal?.Service === 'events.amazonaws.com',
      );
      expect(fromRule).toHaveLength(1);
      expect(actionsOf(fromRule)).toContain('sqs:SendMessage');
      expect(fromRule[0].Condition).toEqual({
        ArnEquals: { 'aws:SourceArn': { 'Fn::GetAtt': [rule, 'Arn'] } },
      });
    }
  });

  it('no longer invokes the fan-out from the bus: no invoke permission, no asynchronous invoke config', () => {
    const fn = fnId('webhook-fanout');
    const refersToFanout = (r: { Properties: Record<string, any> }) =>
      JSON.stringify(r.Properties.FunctionName ?? null).includes(fn);
    expect(resourcesOf('AWS::Lambda::Permission').filter(([, r]) => refersToFanout(r))).toEqual([]);
    expect(resourcesOf('AWS::Lambda::EventInvokeConfig').filter(([, r]) => refersToFanout(r))).toEqual([]);
  });

  it('refuses non-TLS requests on every queue', () => {
    const policies = resourcesOf('AWS::SQS::QueuePolicy');
    expect(policies).toHaveLength(resourcesOf('AWS::SQS::Queue').length);
    for (const [, policy] of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });

  it('runs the heartbeat job at the interval the functions are told', () => {
    const seconds = Number(fnProps('health').Environment.Variables[ENV.heartbeatIntervalSeconds]);
    expect(seconds).toBe(HEARTBEAT_INTERVAL.toSeconds());
    s.template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    s.template.hasResourceProperties('AWS::Scheduler::Schedule', {
      GroupName: s.stack.asyncInfra.scheduleGroup.scheduleGroupName,
      ScheduleExpression: `rate(${seconds / 60} minutes)`,
      Target: {
        Arn: { 'Fn::GetAtt': [fnId('jobs'), 'Arn'] },
        RoleArn: { 'Fn::GetAtt': [s.logicalId(s.stack.asyncInfra.schedulerRole), 'Arn'] },
        Input: scheduleInputOf(HEARTBEAT_JOB),
      },
    });
    // Scheduler fills in the due time, so the heartbeat's lag is measured like every job's.
    expect(JSON.parse(scheduleInputOf(HEARTBEAT_JOB))).toEqual({
      job: 'heartbeat',
      id: 'rate',
      dueAt: '<aws.scheduler.scheduled-time>',
    });
  });

  it('lets Scheduler assume its role only to invoke the jobs function', () => {
    const role = s.logicalId(s.stack.asyncInfra.schedulerRole);
    s.template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })],
      },
    });
    expect(statementsOfRole(s.template, role)).toEqual([
      { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: { 'Fn::GetAtt': [fnId('jobs'), 'Arn'] } },
    ]);
  });

  it('feeds the publisher only new outbox items from the table stream', () => {
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId('outbox-publisher') },
      EventSourceArn: { 'Fn::GetAtt': [s.logicalId(s.stack.data.table), 'StreamArn'] },
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { NewImage: { entity: { S: [TABLE.outboxEntity] } } },
            }),
          },
        ],
      },
    });
  });

  it('sends every service event to the fan-out queue and every queued delivery to the delivery function', () => {
    s.template.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: { Ref: s.logicalId(s.stack.asyncInfra.bus) },
      EventPattern: { source: ['payment-service'] },
      Targets: [
        Match.objectLike({ Arn: { 'Fn::GetAtt': [s.logicalId(s.stack.asyncInfra.fanoutQueue), 'Arn'] } }),
      ],
    });
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId('webhook-fanout') },
      EventSourceArn: { 'Fn::GetAtt': [s.logicalId(s.stack.asyncInfra.fanoutQueue), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId('webhook-delivery') },
      EventSourceArn: { 'Fn::GetAtt': [s.logicalId(s.stack.asyncInfra.deliveryQueue), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });
});

describe('least privilege', () => {
  it('lets the health function only read single items', () => {
    expect(roleActions('health').filter((a) => a.startsWith('dynamodb:'))).toEqual(['dynamodb:GetItem']);
  });

  it('grants Scan to the migrations function alone, and no table access to the publisher', () => {
    expect(functionNames.filter((name) => roleActions(name).includes('dynamodb:Scan'))).toEqual([
      'migrations',
    ]);
    expect(
      roleActions('outbox-publisher').filter(
        (a) => a.startsWith('dynamodb:') && a !== 'dynamodb:ListStreams',
      ),
    ).toEqual(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']);
  });

  it('grants sending, publishing and scheduling only to the functions that do it', () => {
    const holders = (action: string) => functionNames.filter((n) => roleActions(n).includes(action));
    // Sending to the delivery queue; the on-failure queues are written by Lambda on each consumer's behalf.
    const deliveryQueueArn = { 'Fn::GetAtt': [s.logicalId(s.stack.asyncInfra.deliveryQueue), 'Arn'] };
    const enqueuers = functionNames.filter((n) =>
      statementsOfRole(s.template, s.logicalId(s.stack.functions.roles.get(n)!)).some(
        (st) =>
          actionsOf([st]).includes('sqs:SendMessage') &&
          JSON.stringify(st.Resource) === JSON.stringify(deliveryQueueArn),
      ),
    );
    expect(enqueuers.sort()).toEqual(['webhook-delivery', 'webhook-fanout']);
    expect(holders('events:PutEvents')).toEqual(['outbox-publisher']);
    // test-helpers: a test clock's advance runs the due jobs on it (an issued pix's expiry schedule).
    expect(functionNames.filter((n) => roleActions(n).some((a) => a.startsWith('scheduler:')))).toEqual([
      'test-helpers',
      'transactions',
      'checkout',
      'subscriptions',
      'scheduled-charges',
      'installment-plans',
      'customers',
      'portal',
      'charge-payments',
      'provider-connections',
      'jobs',
    ]);
    expect(holders('iam:PassRole')).toEqual([
      'test-helpers',
      'transactions',
      'checkout',
      'subscriptions',
      'scheduled-charges',
      'installment-plans',
      'customers',
      'portal',
      'charge-payments',
      'provider-connections',
      'jobs',
    ]);
  });

  it("writes logs only to the function's own log group, with no AWS managed policy", () => {
    for (const name of functionNames) {
      const role = s.logicalId(s.stack.functions.roles.get(name)!);
      const logStatements = statementsOfRole(s.template, role).filter((st) =>
        actionsOf([st]).some((a) => a.startsWith('logs:')),
      );
      const logGroup = s.logicalId(s.stack.functions.get(name).logGroup);
      expect(logStatements.map((st) => st.Resource)).toEqual([{ 'Fn::GetAtt': [logGroup, 'Arn'] }]);
    }
    for (const [, role] of resourcesOf('AWS::IAM::Role')) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe('migrations at deployment', () => {
  const migrations = () => s.stack.migrations;
  const queueArn = (queue: Parameters<typeof s.logicalId>[0]) => ({
    'Fn::GetAtt': [s.logicalId(queue), 'Arn'],
  });

  it('invokes the migrations function from a custom resource keyed on the latest format, waiting up to an hour', () => {
    const [[id, resource]] = resourcesOf('Custom::Migrations') as [string, any][];
    expect(resource.Properties).toEqual({
      ServiceToken: { 'Fn::GetAtt': [fnId('migrations'), 'Arn'] },
      ServiceTimeout: String(MIGRATIONS_SERVICE_TIMEOUT.toSeconds()),
      Format: String(LATEST_FORMAT),
      ContinuationQueueUrl: { Ref: s.logicalId(migrations().continuations) },
    });
    // Once every function that writes the table runs the new code.
    const dependsOn = s.template.toJSON().Resources[id].DependsOn as string[];
    for (const name of functionNames) expect(dependsOn).toContain(fnId(name));
    expect(fnProps('migrations').Timeout).toBe(MIGRATIONS_FUNCTION_TIMEOUT.toSeconds());
  });

  it('goes on through its own queue, one message per invocation, lost work in an alarmed failure queue', () => {
    const failures = s.stack.asyncInfra.failureQueues.get('migrations');
    expect(failures).toBeDefined();
    s.template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: MIGRATIONS_FUNCTION_TIMEOUT.toSeconds() + 60,
      RedrivePolicy: { deadLetterTargetArn: queueArn(failures!), maxReceiveCount: 1 },
    });
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId('migrations') },
      EventSourceArn: queueArn(migrations().continuations),
      BatchSize: 1,
    });
    s.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: fnId('migrations') },
      MaximumRetryAttempts: 0,
      DestinationConfig: { OnFailure: { Destination: queueArn(failures!) } },
    });
    const depthAlarms = resourcesOf('AWS::CloudWatch::Alarm').filter(
      ([, a]) =>
        JSON.stringify(a.Properties.Dimensions) ===
        JSON.stringify([
          { Name: 'QueueName', Value: { 'Fn::GetAtt': [s.logicalId(failures!), 'QueueName'] } },
        ]),
    );
    expect(depthAlarms).toHaveLength(1);
    const statements = statementsOfRole(s.template, s.logicalId(s.stack.functions.roles.get('migrations')!));
    const sends = statements.filter((st) => actionsOf([st]).includes('sqs:SendMessage'));
    expect(sends.map((st) => st.Resource)).toContainEqual(queueArn(migrations().continuations));
  });

  it('lets the migrations function Scan the table, never an index', () => {
    const statements = statementsOfRole(s.template, s.logicalId(s.stack.functions.roles.get('migrations')!));
    const scans = statements.filter((st) => actionsOf([st]).includes('dynamodb:Scan'));
    expect(scans).toHaveLength(1);
    expect(scans[0].Action).toBe('dynamodb:Scan');
    expect(scans[0].Resource).toEqual({ 'Fn::GetAtt': [s.logicalId(s.stack.data.table), 'Arn'] });
  });
});

describe('observability', () => {
  const alarms = () => resourcesOf('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);

  it('alarms on 5xx, DLQ depth, failed deliveries and scheduler target errors', () => {
    const metrics = alarms().map((a) => `${a.Namespace}/${a.MetricName}`);
    expect(metrics).toEqual(
      expect.arrayContaining([
        'AWS/ApiGateway/5xx',
        'AWS/SQS/ApproximateNumberOfMessagesVisible',
        'PaymentService/WebhookDeliveriesFailed',
        'AWS/Scheduler/TargetErrorCount',
      ]),
    );
  });

  it('alarms on errors and throttles of every function', () => {
    for (const name of functionNames) {
      for (const metric of ['Errors', 'Throttles']) {
        expect(alarms()).toContainEqual(
          expect.objectContaining({
            MetricName: metric,
            Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId(name) } }],
          }),
        );
      }
    }
  });

  it('raises heartbeat staleness when jobs ran less than once in two intervals, missing data included', () => {
    expect(alarms()).toContainEqual(
      expect.objectContaining({
        MetricName: 'Invocations',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId('jobs') } }],
        Period: HEARTBEAT_INTERVAL.toSeconds(),
        EvaluationPeriods: 2,
        Threshold: 1,
        ComparisonOperator: 'LessThanThreshold',
        TreatMissingData: 'breaching',
      }),
    );
  });

  it('has one dashboard', () => {
    s.template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });
});

describe('validation', () => {
  it('leaves no unacknowledged cdk-nag AwsSolutions or CloudFormation validation finding', () => {
    expect(s.findings).toEqual([]);
  });
});
