import type { CloudFormationCustomResourceEvent, SQSEvent } from 'aws-lambda';
import { answerCloudFormation } from '#shared/adapters/cloudformation/custom-resource';
import { deploymentStep } from '#shared/adapters/dynamodb/migrations/deployment';
import { runMigrations } from '#shared/adapters/dynamodb/migrations/runner';
import { Table } from '#shared/adapters/dynamodb/table';
import { SqsQueue } from '#shared/adapters/sqs/sqs-queue';
import { systemClock } from '#shared/adapters/system/clock';
import { config } from '#shared/config';

/** What the custom resource passes (infra/constructs/migrations.ts): the continuation queue's URL. */
interface MigrationProperties {
  ContinuationQueueUrl: string;
}

/** The custom resource's events: CloudFormation's own, or one of them back from the continuation queue. */
function eventsOf(event: CloudFormationCustomResourceEvent | SQSEvent): CloudFormationCustomResourceEvent[] {
  if ('Records' in event)
    return event.Records.map((r) => JSON.parse(r.body) as CloudFormationCustomResourceEvent);
  return [event];
}

/**
 * The migration function's composition root: the stack's table, the runner under this
 * invocation's lease name, CloudFormation's response URL and the continuation queue.
 */
export async function runDeploymentMigrations(
  event: CloudFormationCustomResourceEvent | SQSEvent,
  invocation: { requestId: string; remainingMs: number },
): Promise<void> {
  const cfg = await config();
  const table = new Table({ tableName: cfg.tableName });
  const { SQSClient } = await import('@aws-sdk/client-sqs');
  const sqs = new SQSClient({});
  for (const step of eventsOf(event)) {
    const queueUrl = (step.ResourceProperties as unknown as MigrationProperties).ContinuationQueueUrl;
    await deploymentStep(step, invocation.remainingMs, {
      clock: systemClock,
      migrate: (deadline) =>
        runMigrations(table, { owner: `lambda:${invocation.requestId}`, clock: systemClock, deadline }),
      answer: answerCloudFormation,
      continueLater: (again, delaySeconds) =>
        new SqsQueue(sqs, queueUrl).send({ body: JSON.stringify(again), delaySeconds }),
    });
  }
}
