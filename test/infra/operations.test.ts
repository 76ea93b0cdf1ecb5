import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_EMAIL_PARAMETER } from '#infra/constructs/alerting';
import { ACCESS_LOG_FORMAT } from '#infra/constructs/api';
import { DELIVERY_SOURCE, FANOUT_SOURCE, HEARTBEAT_INTERVAL } from '#infra/constructs/async';
import {
  BACKLOG_AGE_ALARM_SECONDS,
  SALE_LATENCY_METRIC,
  SALE_ROUTE,
  SALE_SERVER_ERRORS_METRIC,
  SCHEDULER_LAG_ALARM_MS,
  SCHEDULER_LAG_METRIC,
} from '#infra/constructs/observability';
import { ASYNC_RETRY, BUS_TARGET_RETRY, STREAM_RETRY } from '#infra/constructs/triggers';
import { httpGroups } from '#infra/routes';
import { routeKey } from '#shared/http/types';
import { JOB_RUN_LOG } from '#shared/jobs';
import { type Synthesized, synthesize } from './synth';

let s: Synthesized;
beforeAll(() => {
  s = synthesize();
});
afterAll(() => s?.dispose());

const resourcesOf = (type: string) =>
  Object.entries(s.template.findResources(type)) as [string, { Properties: Record<string, any> }][];
const fnId = (name: string) => s.logicalId(s.stack.functions.get(name));
const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const failureQueueId = (consumer: string) => s.logicalId(s.stack.asyncInfra.failureQueues.get(consumer)!);
const alarms = () => resourcesOf('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);

describe('alarm topic', () => {
  it('takes the e-mail address from a stack parameter and subscribes it', () => {
    s.template.hasParameter(ALARM_EMAIL_PARAMETER, { Type: 'String', AllowedPattern: Match.anyValue() });
    s.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: { Ref: ALARM_EMAIL_PARAMETER },
      TopicArn: { Ref: s.logicalId(s.stack.alarms.topic) },
    });
  });

  it('is encrypted with a rotated key CloudWatch may use, refuses non-TLS and admits only CloudWatch', () => {
    const key = s.logicalId(s.stack.alarms.key);
    s.template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: arnOf(key) });
    s.template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
          }),
        ]),
      },
    });
    const [[, policy]] = resourcesOf('AWS::SNS::TopicPolicy');
    const statements = policy.Properties.PolicyDocument.Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sns:Publish',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
      }),
    );
  });

  it('receives every alarm of the stack', () => {
    const topic = { Ref: s.logicalId(s.stack.alarms.topic) };
    expect(alarms().length).toBeGreaterThan(0);
    for (const alarm of alarms()) expect(alarm.AlarmActions).toEqual([topic]);
  });
});

describe('on-failure destinations', () => {
  it('sends a stream batch the publisher gave up on to its queue, after bisecting and bounded retries', () => {
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId('outbox-publisher') },
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: STREAM_RETRY.retryAttempts,
      MaximumRecordAgeInSeconds: STREAM_RETRY.maxRecordAge.toSeconds(),
      DestinationConfig: { OnFailure: { Destination: arnOf(failureQueueId('outbox-publisher')) } },
    });
    // The queue must outlive nothing: the stream keeps records 24 h, the pointer must be replayable.
    expect(STREAM_RETRY.maxRecordAge.toHours()).toBeLessThan(24);
  });

  it('gives each bus rule target a dead-letter queue and a bounded retry policy', () => {
    const targets = {
      // The fan-out's rule targets its queue; notifications' targets the function.
      'webhook-fanout': arnOf(s.logicalId(s.stack.asyncInfra.fanoutQueue)),
      notifications: arnOf(fnId('notifications')),
    };
    for (const [consumer, arn] of Object.entries(targets)) {
      s.template.hasResourceProperties('AWS::Events::Rule', {
        Targets: [
          Match.objectLike({
            Arn: arn,
            DeadLetterConfig: { Arn: arnOf(failureQueueId(consumer)) },
            RetryPolicy: {
              MaximumRetryAttempts: BUS_TARGET_RETRY.retryAttempts,
              MaximumEventAgeInSeconds: BUS_TARGET_RETRY.maxEventAge.toSeconds(),
            },
          }),
        ],
      });
    }
  });

  it('sends failed asynchronous invocations of the bus consumers and the jobs to their queues', () => {
    // The fan-out is not invoked asynchronously any more: its queue's redrive is its failure path.
    for (const consumer of ['notifications', 'jobs']) {
      s.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: fnId(consumer) },
        MaximumRetryAttempts: ASYNC_RETRY.retryAttempts,
        MaximumEventAgeInSeconds: ASYNC_RETRY.maxEventAge.toSeconds(),
        DestinationConfig: { OnFailure: { Destination: arnOf(failureQueueId(consumer)) } },
      });
    }
  });

  it('alarms on each on-failure queue as soon as it holds a message', () => {
    expect([...s.stack.asyncInfra.failureQueues.keys()].sort()).toEqual([
      'jobs',
      'migrations',
      'notifications',
      'outbox-publisher',
      'webhook-fanout',
    ]);
    for (const consumer of s.stack.asyncInfra.failureQueues.keys()) {
      expect(alarms()).toContainEqual(
        expect.objectContaining({
          MetricName: 'ApproximateNumberOfMessagesVisible',
          Dimensions: [
            { Name: 'QueueName', Value: { 'Fn::GetAtt': [failureQueueId(consumer), 'QueueName'] } },
          ],
          Threshold: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        }),
      );
    }
  });
});

describe('webhook delivery event source', () => {
  it('hands over ten records at once, without a batching window, to at most ten invocations', () => {
    expect(DELIVERY_SOURCE.batchSize).toBe(10);
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId('webhook-delivery') },
      BatchSize: 10,
      MaximumBatchingWindowInSeconds: 0,
      ScalingConfig: { MaximumConcurrency: 10 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });
});

describe('webhook fan-out event source', () => {
  it('hands over ten events at once, without a batching window, to at most five invocations', () => {
    expect(FANOUT_SOURCE.batchSize).toBe(10);
    expect(FANOUT_SOURCE.maxConcurrency).toBeLessThanOrEqual(DELIVERY_SOURCE.maxConcurrency);
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId('webhook-fanout') },
      EventSourceArn: arnOf(s.logicalId(s.stack.asyncInfra.fanoutQueue)),
      BatchSize: 10,
      MaximumBatchingWindowInSeconds: 0,
      ScalingConfig: { MaximumConcurrency: 5 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it("alarms as soon as the fan-out queue's dead-letter queue holds a message", () => {
    expect(alarms()).toContainEqual(
      expect.objectContaining({
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [
          {
            Name: 'QueueName',
            Value: { 'Fn::GetAtt': [s.logicalId(s.stack.asyncInfra.fanoutDlq), 'QueueName'] },
          },
        ],
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      }),
    );
  });
});

describe('dashboard and its metrics', () => {
  it('writes status and latency as numbers in the access log, which the sale filters read', () => {
    const line = ACCESS_LOG_FORMAT.replace('$context.status', '201').replace(
      '$context.responseLatency',
      '87',
    );
    expect(JSON.parse(line)).toMatchObject({ status: 201, latency: 87, routeKey: '$context.routeKey' });
    expect(httpGroups.flatMap((g) => g.routes.map(routeKey))).toContain(SALE_ROUTE);
    const accessLogs = s.logicalId(s.stack.api.accessLogs);
    s.template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: accessLogs },
      FilterPattern: `{ ($.routeKey = "${SALE_ROUTE}") && ($.latency = "*") }`,
      MetricTransformations: [
        Match.objectLike({ MetricName: SALE_LATENCY_METRIC, MetricValue: '$.latency' }),
      ],
    });
    s.template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: accessLogs },
      FilterPattern: `{ ($.routeKey = "${SALE_ROUTE}") && ($.status >= 500) }`,
      MetricTransformations: [Match.objectLike({ MetricName: SALE_SERVER_ERRORS_METRIC, MetricValue: '1' })],
    });
  });

  it('measures the scheduler lag from the lagMs of the job run lines', () => {
    s.template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: s.logicalId(s.stack.functions.get('jobs').logGroup) },
      FilterPattern: Match.stringLikeRegexp(`\\$\\.message = "${JOB_RUN_LOG}".*\\$\\.lagMs`),
      MetricTransformations: [Match.objectLike({ MetricName: SCHEDULER_LAG_METRIC, MetricValue: '$.lagMs' })],
    });
  });

  it('alarms when the oldest delivery waits past its longest legitimate delay, and when jobs run late', () => {
    expect(alarms()).toContainEqual(
      expect.objectContaining({
        MetricName: 'ApproximateAgeOfOldestMessage',
        Dimensions: [
          {
            Name: 'QueueName',
            Value: { 'Fn::GetAtt': [s.logicalId(s.stack.asyncInfra.deliveryQueue), 'QueueName'] },
          },
        ],
        Threshold: BACKLOG_AGE_ALARM_SECONDS,
      }),
    );
    expect(BACKLOG_AGE_ALARM_SECONDS).toBe(20 * 60);
    expect(alarms()).toContainEqual(
      expect.objectContaining({
        Namespace: 'PaymentService',
        MetricName: SCHEDULER_LAG_METRIC,
        Statistic: 'Maximum',
        Threshold: SCHEDULER_LAG_ALARM_MS,
      }),
    );
    expect(SCHEDULER_LAG_ALARM_MS).toBe(HEARTBEAT_INTERVAL.toMilliseconds());
  });

  it('graphs the sale latency p50 and p99, its 5xx, the webhook backlog, the DLQ and the scheduler lag', () => {
    const [[, dashboard]] = resourcesOf('AWS::CloudWatch::Dashboard');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const text of [
      'POST /api/transactions latency',
      `\\"${SALE_LATENCY_METRIC}\\"`,
      '\\"stat\\":\\"p50\\"',
      '\\"stat\\":\\"p99\\"',
      SALE_SERVER_ERRORS_METRIC,
      'ApproximateAgeOfOldestMessage',
      'ApproximateNumberOfMessagesVisible',
      'webhook DLQ',
      SCHEDULER_LAG_METRIC,
    ]) {
      expect(body).toContain(text);
    }
  });
});
