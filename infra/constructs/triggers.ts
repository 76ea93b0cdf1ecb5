import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, FilterRule, type IFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { FilterPattern, type ILogGroup, SubscriptionFilter } from 'aws-cdk-lib/aws-logs';
import { LambdaDestination } from 'aws-cdk-lib/aws-logs-destinations';
import type { Construct } from 'constructs';
import { TABLE } from '#shared/adapters/dynamodb/table-definition';
import { EVENT_SOURCE } from '#shared/domain/events/events';
import { NOTIFIED_EVENTS } from '#shared/domain/mail/receipts';
import { REQUEST_LOG_FIELD } from '#shared/domain/request-log/request-log';
import type { asyncFunctions } from '../routes';
import { type AsyncInfra, DELIVERY_SOURCE, FANOUT_SOURCE } from './async';
import { constructIdOf } from './functions';

export type AsyncFunctionName = (typeof asyncFunctions)[number];

interface TriggerContext {
  scope: Construct;
  infra: AsyncInfra;
  table: ITable;
  /** The endpoint groups' log groups: their request-log lines go to the request-log function. */
  httpLogGroups: ReadonlyMap<string, ILogGroup>;
}

/**
 * Stream batches: a poison record is isolated by bisection (ten records need four splits, each
 * one retry) with room left for transient PutEvents errors. A batch still failing after that, or
 * older than six hours, goes to the failure queue as a pointer into the stream; the stream keeps
 * records 24 hours, so the pointer stays readable for the remaining 18 to replay it.
 */
export const STREAM_RETRY = { retryAttempts: 8, maxRecordAge: Duration.hours(6) };

/**
 * EventBridge to a consumer: a rule target retries only deliveries its target refused (Lambda
 * throttling, a missing permission, SQS unavailable). Two hours outlasts a throttling incident; an
 * event still not handed over lands in the failure queue instead of being dropped after
 * EventBridge's 24-hour default.
 */
export const BUS_TARGET_RETRY = { retryAttempts: 20, maxEventAge: Duration.hours(2) };

/**
 * Asynchronous invocations (EventBridge rules and Scheduler invoke the functions asynchronously):
 * Lambda's two retries cover a transient error; a consumer that still fails sends the event to the
 * failure queue, where its alarm fires, instead of Lambda discarding it after six hours.
 */
export const ASYNC_RETRY = { retryAttempts: 2, maxEventAge: Duration.hours(1) };

/** A bus consumer: its rule's target and its asynchronous invocations share one failure queue. */
function busTarget(fn: IFunction, name: string, infra: AsyncInfra, queueId: string): LambdaTarget {
  const failures = infra.failureQueueFor(name, queueId);
  fn.configureAsyncInvoke({ onFailure: new SqsDestination(failures), ...ASYNC_RETRY });
  return new LambdaTarget(fn, { deadLetterQueue: failures, ...BUS_TARGET_RETRY });
}

/**
 * What invokes each async function, keyed by name: a new entry in `asyncFunctions` does not
 * compile until it says here how it is triggered.
 */
export const TRIGGERS: Record<AsyncFunctionName, (fn: IFunction, ctx: TriggerContext) => void> = {
  jobs: (fn, { infra }) => {
    infra.targetJobs(fn);
    // A job that fails every retry is also swept by the next heartbeat; the queue says it happened.
    fn.configureAsyncInvoke({
      onFailure: new SqsDestination(infra.failureQueueFor('jobs', 'JobsFailures')),
      ...ASYNC_RETRY,
    });
  },

  'outbox-publisher': (fn, { table, infra }) => {
    if (fn.role) {
      Validations.of(fn.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'dynamodb:ListStreams has no resource-level permissions (IAM accepts only "*"); the event source ' +
          'mapping needs it to find the stream. Reading the stream itself is scoped to the table stream ARN.',
      });
    }
    fn.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        // PutEvents takes ten entries per call: one call per batch.
        batchSize: 10,
        // A poison record is isolated instead of holding its whole batch; the rest still goes out.
        bisectBatchOnError: true,
        ...STREAM_RETRY,
        onFailure: new SqsDlq(infra.failureQueueFor('outbox-publisher', 'OutboxPublisherFailures')),
        // Only new outbox items: every other write in the table never wakes the publisher.
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(TABLE.outboxEntity) } } },
          }),
        ],
      }),
    );
  },

  'webhook-fanout': (fn, { scope, infra }) => {
    // Bus to queue to function: the fan-out reads batches, so a tenant's endpoints are read once
    // per batch instead of once per event (docs/decisions.md, "Events and webhooks").
    // The target sends the whole event as the message body and adds the queue policy statement
    // that lets this rule send; an event it cannot put on the queue goes to the failure queue.
    new Rule(scope, 'FanoutRule', {
      description: 'Every service event to the webhook fan-out queue',
      eventBus: infra.bus,
      eventPattern: { source: [EVENT_SOURCE] },
      targets: [new SqsQueue(infra.fanoutQueue, { deadLetterQueue: infra.fanoutDlq, ...BUS_TARGET_RETRY })],
    });
    fn.addEventSource(
      new SqsEventSource(infra.fanoutQueue, {
        // FANOUT_SOURCE says why ten, no window and five at most; an event whose fan-out failed is
        // returned alone (partial batch response) and, after FANOUT_MAX_RECEIVES, lands in the DLQ.
        ...FANOUT_SOURCE,
        reportBatchItemFailures: true,
      }),
    );
  },

  notifications: (fn, { scope, infra }) => {
    new Rule(scope, 'NotificationsRule', {
      description: 'The events that e-mail someone (a confirmed payment: the buyer receipt)',
      eventBus: infra.bus,
      eventPattern: { source: [EVENT_SOURCE], detailType: [...NOTIFIED_EVENTS] },
      targets: [busTarget(fn, 'notifications', infra, 'NotificationsFailures')],
    });
  },

  'request-log': (fn, { scope, httpLogGroups }) => {
    // Only the pipeline's request-log lines (shared/adapters/system/request-log-line.ts); CloudWatch
    // Logs retries a batch the function failed, so nothing is lost when the table throttles.
    for (const [name, logGroup] of httpLogGroups) {
      new SubscriptionFilter(scope, `RequestLog${constructIdOf(name)}`, {
        logGroup,
        destination: new LambdaDestination(fn),
        filterPattern: FilterPattern.exists(`$.${REQUEST_LOG_FIELD}.requestId`),
      });
    }
  },

  // The deployment's custom resource and its own continuation queue (DeploymentMigrations, stack.ts).
  migrations: () => undefined,

  'webhook-delivery': (fn, { infra }) => {
    fn.addEventSource(
      new SqsEventSource(infra.deliveryQueue, {
        // DELIVERY_SOURCE says why ten, no window and ten at most; a record that could not run is
        // returned alone (partial batch response), the others are not posted again.
        ...DELIVERY_SOURCE,
        reportBatchItemFailures: true,
      }),
    );
  },
};

export function connectTriggers(ctx: TriggerContext, functionOf: (name: string) => IFunction): void {
  for (const [name, connect] of Object.entries(TRIGGERS)) {
    connect(functionOf(name), ctx);
  }
}
