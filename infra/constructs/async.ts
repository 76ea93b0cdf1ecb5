import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnSchedule, ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { scheduleInputOf } from '#shared/adapters/scheduler/eventbridge-scheduler';
import { DELIVERY_TIMEOUT_MS } from '#shared/domain/webhooks/deliveries';
import { DAILY_RECONCILIATION_AT, DAILY_RECONCILIATION_JOB, HEARTBEAT_JOB } from '#shared/jobs';
import { FANOUT_QUEUE, FANOUT_VISIBILITY_TIMEOUT_SECONDS } from '../fanout-queue';

/**
 * How often the heartbeat runs. The schedule's rate() and the functions' HEARTBEAT_INTERVAL_SECONDS
 * both come from here, so /api/health/cron judges staleness against the real cadence.
 */
export const HEARTBEAT_INTERVAL = Duration.minutes(5);

/**
 * The webhook delivery function's timeout: one seller request (DELIVERY_TIMEOUT_MS) plus the same
 * again for DNS, the SSRF check and the table writes around it. The queue's visibility timeout is
 * derived from it.
 */
export const DELIVERY_FUNCTION_TIMEOUT = Duration.seconds((2 * DELIVERY_TIMEOUT_MS) / 1000);

/** A delivery that fails this many receives lands in the DLQ (and raises the DLQ alarm). */
export const DELIVERY_MAX_RECEIVES = 5;

/**
 * How the delivery function reads its queue. Ten records per invocation, run concurrently by the
 * function, so a backlog drains ten deliveries per invocation while one slow endpoint still costs
 * a single DELIVERY_TIMEOUT_MS. No batching window: a webhook tells a seller a payment was
 * confirmed, so the first message is handed over as soon as it is seen instead of waiting for the
 * batch to fill; under load the poller fills batches anyway. At most ten concurrent invocations
 * (up to a hundred posts in flight): enough for a burst of sales, and a ceiling that keeps slow
 * seller endpoints from taking the account's Lambda concurrency from the API functions.
 */
export const DELIVERY_SOURCE = { batchSize: 10, maxBatchingWindow: Duration.seconds(0), maxConcurrency: 10 };

/**
 * The webhook fan-out function's timeout. A batch is one endpoint Query per tenant, then one
 * SendMessage per subscribed endpoint (the fan-out writes nothing), side by side: well under a
 * second. Ten seconds leaves room for a slow first invocation (the use case loads lazily) and
 * keeps the queue's visibility timeout (six times this) at a minute, so a failed batch is retried
 * after a minute, not after three.
 */
export const FANOUT_FUNCTION_TIMEOUT = Duration.seconds(FANOUT_QUEUE.functionTimeoutSeconds);

/** A fan-out message that fails this many receives lands in the fan-out's failure queue (alarmed). */
export const FANOUT_MAX_RECEIVES = FANOUT_QUEUE.maxReceiveCount;

/**
 * How the fan-out function reads its queue (the numbers live in infra/fanout-queue.ts, which the
 * local runtime reads too).
 */
export const FANOUT_SOURCE = {
  // Ten bus events per invocation, SQS's largest batch without a batching window: the batch reads
  // each tenant's endpoints once (fanOutBatch), so a burst of one seller's events costs one Query
  // per ten events instead of one per event, and ten events stay well inside the timeout.
  batchSize: FANOUT_QUEUE.batchSize,
  // No batching window: a window adds its whole length to the latency of every webhook, and when
  // events arrive faster than an invocation runs the poller finds full batches anyway.
  maxBatchingWindow: Duration.seconds(FANOUT_QUEUE.maxBatchingWindowSeconds),
  // Five invocations at most, half the delivery source's ten: a fan-out invocation is a few short
  // table calls while a delivery waits on a seller's endpoint (up to DELIVERY_TIMEOUT_MS), so five
  // fan-outs (fifty events in flight) already queue deliveries faster than ten delivery
  // invocations post them. More would only move the backlog into the delivery queue and take
  // account concurrency from the API; fewer pollers under load also means fuller batches, which
  // is what shares a tenant's endpoint Query.
  maxConcurrency: FANOUT_QUEUE.maxConcurrency,
};

/**
 * The asynchronous side of the system: the event bus, the webhook fan-out queue (bus events, read
 * in batches by the fan-out), the webhook delivery queue and its DLQ, and the Scheduler group plus
 * the role Scheduler assumes to invoke the jobs function.
 */
export class AsyncInfra extends Construct {
  readonly bus: EventBus;
  readonly deliveryQueue: Queue;
  readonly deliveryDlq: Queue;
  /** Every service event, put there by the bus rule, read in batches by the fan-out function. */
  readonly fanoutQueue: Queue;
  /**
   * The fan-out's failure queue: the fan-out queue's DLQ (a message that failed FANOUT_MAX_RECEIVES
   * receives) and the rule target's dead-letter queue (an event EventBridge could not put on the
   * fan-out queue). Both hold the whole bus event; its depth alarm pages someone.
   */
  readonly fanoutDlq: Queue;
  readonly scheduleGroup: ScheduleGroup;
  readonly schedulerRole: Role;
  /** Where failed stream batches and bus events of each consumer go, by consumer name; each has an alarm. */
  readonly failureQueues = new Map<string, Queue>();

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);

    this.bus = new EventBus(this, 'Bus');

    this.deliveryDlq = new Queue(this, 'DeliveryDlq', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // The longest a failed delivery can wait for someone to look at it and redrive it.
      retentionPeriod: Duration.days(14),
    });
    this.deliveryQueue = new Queue(this, 'DeliveryQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS's rule for Lambda event sources: at least six times the consumer's timeout, so a batch
      // is never redelivered while its first attempt is still running.
      visibilityTimeout: Duration.seconds(DELIVERY_FUNCTION_TIMEOUT.toSeconds() * 6),
      deadLetterQueue: { queue: this.deliveryDlq, maxReceiveCount: DELIVERY_MAX_RECEIVES },
    });

    this.fanoutDlq = this.failureQueueFor('webhook-fanout', 'WebhookFanoutFailures');
    this.fanoutQueue = new Queue(this, 'FanoutQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // At least six times the fan-out's timeout (FANOUT_FUNCTION_TIMEOUT), as for the delivery queue.
      visibilityTimeout: Duration.seconds(FANOUT_VISIBILITY_TIMEOUT_SECONDS),
      deadLetterQueue: { queue: this.fanoutDlq, maxReceiveCount: FANOUT_MAX_RECEIVES },
    });

    this.scheduleGroup = new ScheduleGroup(this, 'ScheduleGroup');

    this.schedulerRole = new Role(this, 'SchedulerRole', {
      description: 'Assumed by EventBridge Scheduler to invoke the jobs function',
      // Confused-deputy guard: only schedules of this account's group may use the role.
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: {
            'aws:SourceAccount': stack.account,
            'aws:SourceArn': this.scheduleGroup.scheduleGroupArn,
          },
        },
      }),
    });
  }

  /**
   * The on-failure destination of one consumer: what its stream batch, rule target or asynchronous
   * invocation could not process after its retries ends here, kept 14 days, with its own alarm.
   */
  failureQueueFor(consumer: string, id: string): Queue {
    const existing = this.failureQueues.get(consumer);
    if (existing) return existing;
    const queue = new Queue(this, id, {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: `It is itself the on-failure destination of ${consumer}: nothing consumes it, so a DLQ of its own would never receive anything. Its depth alarm pages someone.`,
    });
    this.failureQueues.set(consumer, queue);
    return queue;
  }

  /**
   * Lets the scheduler role invoke exactly the jobs function and adds the rate() heartbeat. The
   * one-time at() schedules are created at run time in the same group, with the same role.
   */
  targetJobs(jobs: IFunction): CfnSchedule {
    this.schedulerRole.addToPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [jobs.functionArn] }),
    );
    const minutes = HEARTBEAT_INTERVAL.toMinutes();
    const heartbeat = new CfnSchedule(this, 'Heartbeat', {
      description: 'Heartbeat: proves scheduled work runs (/api/health/cron)',
      groupName: this.scheduleGroup.scheduleGroupName,
      scheduleExpression: `rate(${minutes} ${minutes === 1 ? 'minute' : 'minutes'})`,
      flexibleTimeWindow: { mode: 'OFF' },
      target: {
        arn: jobs.functionArn,
        roleArn: this.schedulerRole.roleArn,
        input: scheduleInputOf(HEARTBEAT_JOB),
        // A retry older than the next tick is worthless: the next tick does the same work.
        retryPolicy: { maximumRetryAttempts: 2, maximumEventAgeInSeconds: HEARTBEAT_INTERVAL.toSeconds() },
      },
    });
    // The first tick must not fire before the role may invoke the function.
    heartbeat.node.addDependency(this.schedulerRole);
    const { hour, minute } = DAILY_RECONCILIATION_AT;
    const reconciliation = new CfnSchedule(this, 'DailyReconciliation', {
      description: 'Daily reconciliation of the day before with the live provider, per connected seller',
      groupName: this.scheduleGroup.scheduleGroupName,
      scheduleExpression: `cron(${minute} ${hour} * * ? *)`,
      scheduleExpressionTimezone: 'America/Sao_Paulo',
      flexibleTimeWindow: { mode: 'OFF' },
      target: {
        arn: jobs.functionArn,
        roleArn: this.schedulerRole.roleArn,
        input: scheduleInputOf(DAILY_RECONCILIATION_JOB),
        // A failed run is retried (sellers already recorded are not redone) within the day it covers.
        retryPolicy: { maximumRetryAttempts: 10, maximumEventAgeInSeconds: 6 * 3600 },
      },
    });
    reconciliation.node.addDependency(this.schedulerRole);
    return heartbeat;
  }
}
