import { CustomResource, Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct, type IConstruct } from 'constructs';
import { LATEST_FORMAT } from '#shared/adapters/dynamodb/migrations/list';

/** The migration function's timeout: Lambda's longest. The runner stops a minute before it. */
export const MIGRATIONS_FUNCTION_TIMEOUT = Duration.minutes(15);

/**
 * How long CloudFormation waits for the migrations' answer before it fails the deployment (and
 * rolls it back): its longest. Four invocations of 15 minutes each fit in it.
 */
export const MIGRATIONS_SERVICE_TIMEOUT = Duration.hours(1);

export interface MigrationsProps {
  fn: IFunction;
  /** Where an invocation that failed (no retry: it answered FAILED already) or a lost continuation goes. */
  failures: IQueue;
  /** Everything that writes the table: the migrations run once the new code is deployed. */
  writers: IConstruct;
}

/**
 * The deployment's migrations: a custom resource whose one property is the latest migration's id,
 * so CloudFormation invokes the migration function on the deployment that ships a new migration
 * (and on the first, which stamps the fresh table), then waits for its answer. The function's
 * work goes on past its 15 minutes through a queue of its own: it sends the custom resource's
 * event there and is invoked with it again, resuming from the recorded cursors; the invocation
 * that finishes answers CloudFormation.
 */
export class DeploymentMigrations extends Construct {
  readonly resource: CustomResource;
  readonly continuations: Queue;

  constructor(scope: Construct, id: string, props: MigrationsProps) {
    super(scope, id);
    const { fn } = props;
    this.continuations = new Queue(this, 'Continuations', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Longer than an invocation, so a message is never handed to a second one while the first runs.
      visibilityTimeout: MIGRATIONS_FUNCTION_TIMEOUT.plus(Duration.minutes(1)),
      deadLetterQueue: { queue: props.failures, maxReceiveCount: 1 },
    });
    this.continuations.grantSendMessages(fn);
    fn.addEventSource(new SqsEventSource(this.continuations, { batchSize: 1 }));
    // CloudFormation invokes a custom resource's function asynchronously: no retry, since a failed
    // invocation answered FAILED already (a second answer would be ignored, its work repeated).
    fn.configureAsyncInvoke({ retryAttempts: 0, onFailure: new SqsDestination(props.failures) });

    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: fn.functionArn,
      resourceType: 'Custom::Migrations',
      serviceTimeout: MIGRATIONS_SERVICE_TIMEOUT,
      properties: { Format: String(LATEST_FORMAT), ContinuationQueueUrl: this.continuations.queueUrl },
    });
    this.resource.node.addDependency(props.writers);
  }
}
