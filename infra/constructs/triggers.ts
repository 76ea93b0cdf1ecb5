import { Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, FilterRule, type IFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { TABLE } from '#shared/adapters/dynamodb/table-definition';
import { EVENT_SOURCE } from '#shared/domain/events/events';
import { NOTIFIED_EVENTS } from '#shared/domain/mail/receipts';
import type { asyncFunctions } from '../routes';
import type { AsyncInfra } from './async';

export type AsyncFunctionName = (typeof asyncFunctions)[number];

interface TriggerContext {
  scope: Construct;
  infra: AsyncInfra;
  table: ITable;
}

/**
 * What invokes each async function, keyed by name: a new entry in `asyncFunctions` does not
 * compile until it says here how it is triggered.
 */
export const TRIGGERS: Record<AsyncFunctionName, (fn: IFunction, ctx: TriggerContext) => void> = {
  jobs: (fn, { infra }) => {
    infra.targetJobs(fn);
  },

  'outbox-publisher': (fn, { table }) => {
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
    new Rule(scope, 'FanoutRule', {
      description: 'Every service event to the webhook fan-out',
      eventBus: infra.bus,
      eventPattern: { source: [EVENT_SOURCE] },
      targets: [new LambdaTarget(fn)],
    });
  },

  notifications: (fn, { scope, infra }) => {
    new Rule(scope, 'NotificationsRule', {
      description: 'The events that e-mail someone (a confirmed payment: the buyer receipt)',
      eventBus: infra.bus,
      eventPattern: { source: [EVENT_SOURCE], detailType: [...NOTIFIED_EVENTS] },
      targets: [new LambdaTarget(fn)],
    });
  },

  'webhook-delivery': (fn, { infra }) => {
    fn.addEventSource(
      new SqsEventSource(infra.deliveryQueue, {
        // The handler posts sequentially and one post may take the whole DELIVERY_TIMEOUT_MS: one
        // message per invocation keeps a slow seller endpoint from timing out everyone else's.
        batchSize: 1,
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
