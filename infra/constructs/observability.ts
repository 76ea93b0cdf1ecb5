import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  type Dashboard,
  type IMetric,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '#shared/adapters/metrics/emf';
import { RECONCILIATION_DIFFERENCES_METRIC } from '#shared/domain/reconciliation/reconciliation';
import { DELIVERY_FAILED_METRIC, MAX_HOP_SECONDS } from '#shared/domain/webhooks/deliveries';
import { JOB_RUN_LOG } from '#shared/jobs';
import { DELIVERY_MAX_RECEIVES, HEARTBEAT_INTERVAL } from './async';
import { buildDashboard } from './dashboard';
import { constructIdOf } from './functions';

export interface ObservabilityProps {
  api: HttpApi;
  /** The API's access log group: the sale path's latency and 5xx come from its lines. */
  accessLogs: ILogGroup;
  functions: Map<string, IFunction>;
  jobs: IFunction;
  /** The jobs function's log group: the scheduler lag comes from its `job run` lines. */
  jobsLogs: ILogGroup;
  deliveryQueue: IQueue;
  deliveryDlq: IQueue;
  /** The bus events waiting for the fan-out (its DLQ is the fan-out's failure queue). */
  fanoutQueue: IQueue;
  /** On-failure destinations of the stream and bus consumers, by consumer. */
  failureQueues: Map<string, IQueue>;
  scheduleGroup: ScheduleGroup;
  alarmTopic: ITopic;
}

export const PERIOD = Duration.minutes(5);
/** The route of a sale: its latency and 5xx are graphed on their own. */
export const SALE_ROUTE = 'POST /api/transactions';
export const SALE_LATENCY_METRIC = 'SaleLatency';
export const SALE_SERVER_ERRORS_METRIC = 'SaleServerErrors';
export const SCHEDULER_LAG_METRIC = 'SchedulerLag';

/**
 * The oldest delivery message may legitimately be this old: a retry hops in delayed messages of up
 * to MAX_HOP_SECONDS, then may be received DELIVERY_MAX_RECEIVES times a visibility timeout apart.
 * Older than that, the consumers are not keeping up.
 */
export const BACKLOG_AGE_ALARM_SECONDS = MAX_HOP_SECONDS + DELIVERY_MAX_RECEIVES * 60;

/**
 * A job starting later than one heartbeat after its due time is late for real: the heartbeat's
 * sweeps would have picked its work up by then, so both the schedule and the sweep are behind.
 */
export const SCHEDULER_LAG_ALARM_MS = HEARTBEAT_INTERVAL.toMilliseconds();

/**
 * The alarms the design lists (5xx, Lambda errors and throttles, DLQ and failure-queue depth, failed
 * deliveries, webhook backlog age, scheduler target errors and lag, heartbeat staleness), each
 * sending to the alarm topic, and the dashboard.
 */
export class Observability extends Construct {
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  readonly saleLatency: Metric;
  readonly saleServerErrors: Metric;
  readonly schedulerLag: Metric;
  private readonly titles = new Map<Alarm, string>();
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const { api, functions, jobs, deliveryQueue, deliveryDlq, scheduleGroup } = props;
    this.action = new SnsAction(props.alarmTopic);

    // Access log lines carry routeKey, status and latency as numbers (infra/constructs/api.ts).
    const sale = FilterPattern.stringValue('$.routeKey', '=', SALE_ROUTE);
    this.saleLatency = new MetricFilter(this, 'SaleLatencyFilter', {
      logGroup: props.accessLogs,
      // A metric value taken from a JSON field must be matched by the pattern too.
      filterPattern: FilterPattern.all(sale, FilterPattern.exists('$.latency')),
      metricNamespace: METRICS_NAMESPACE,
      metricName: SALE_LATENCY_METRIC,
      metricValue: '$.latency',
    }).metric({ period: PERIOD, statistic: 'p99' });
    this.saleServerErrors = new MetricFilter(this, 'SaleServerErrorsFilter', {
      logGroup: props.accessLogs,
      filterPattern: FilterPattern.all(sale, FilterPattern.numberValue('$.status', '>=', 500)),
      metricNamespace: METRICS_NAMESPACE,
      metricName: SALE_SERVER_ERRORS_METRIC,
      metricValue: '1',
    }).metric({ period: PERIOD, statistic: 'Sum' });
    // One value per job run whose due time is known (shared/jobs.ts writes lagMs only then).
    this.schedulerLag = new MetricFilter(this, 'SchedulerLagFilter', {
      logGroup: props.jobsLogs,
      filterPattern: FilterPattern.all(
        FilterPattern.stringValue('$.message', '=', JOB_RUN_LOG),
        FilterPattern.exists('$.lagMs'),
      ),
      metricNamespace: METRICS_NAMESPACE,
      metricName: SCHEDULER_LAG_METRIC,
      metricValue: '$.lagMs',
    }).metric({ period: PERIOD, statistic: 'Maximum' });

    const api5xx = this.atLeastOne('Api5xx', api.metricServerError({ period: PERIOD }), 'API answered 5xx');
    const perFunction = [...functions].flatMap(([name, fn]) => [
      this.atLeastOne(`${constructIdOf(name)}Errors`, fn.metricErrors({ period: PERIOD }), `${name} errors`),
      this.atLeastOne(
        `${constructIdOf(name)}Throttles`,
        fn.metricThrottles({ period: PERIOD }),
        `${name} throttled`,
      ),
    ]);
    // A message in the DLQ is a webhook that exhausted its retries: someone has to look at it.
    const dlqDepth = this.atLeastOne(
      'DeliveryDlqDepth',
      deliveryDlq.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
      'webhook deliveries in the DLQ',
    );
    // Anything in a failure queue is an event or stream batch a consumer gave up on.
    const failureDepths = [...props.failureQueues].map(([consumer, queue]) =>
      this.atLeastOne(
        `${constructIdOf(consumer)}FailuresDepth`,
        queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
        `${consumer} gave up on events (on-failure queue)`,
      ),
    );
    // Emitted (embedded metric format) when a delivery is marked failed after its last attempt.
    const deliveriesFailed = this.atLeastOne(
      'WebhookDeliveriesFailed',
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: DELIVERY_FAILED_METRIC,
        statistic: 'Sum',
        period: PERIOD,
      }),
      'webhook deliveries marked failed',
    );
    // Emitted (embedded metric format) by every seller's daily reconciliation: any difference with
    // the provider (repaired or not) is for a person to read in the record and the log line.
    const reconciliationDifferences = this.atLeastOne(
      'ReconciliationDifferences',
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: RECONCILIATION_DIFFERENCES_METRIC,
        statistic: 'Sum',
        period: PERIOD,
      }),
      'the daily reconciliation found differences with the provider',
    );
    const backlogTitle = `webhook backlog older than ${BACKLOG_AGE_ALARM_SECONDS / 60} minutes`;
    const backlogAge = this.track(
      backlogTitle,
      new Alarm(this, 'WebhookBacklogAge', {
        alarmDescription: `${backlogTitle}: the delivery consumers are not keeping up`,
        metric: deliveryQueue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
        threshold: BACKLOG_AGE_ALARM_SECONDS,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 2,
        datapointsToAlarm: 2,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
    const schedulerErrors = this.atLeastOne(
      'SchedulerTargetErrors',
      scheduleGroup.metricTargetErrors({ period: PERIOD }),
      'Scheduler could not invoke the jobs function',
    );
    const lagTitle = `a job started more than ${HEARTBEAT_INTERVAL.toMinutes()} minutes after its due time`;
    const schedulerLag = this.track(
      lagTitle,
      new Alarm(this, 'SchedulerLag', {
        alarmDescription: `${lagTitle}: scheduled work is behind`,
        metric: this.schedulerLag,
        threshold: SCHEDULER_LAG_ALARM_MS,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        // No job ran in the period: heartbeat staleness is the alarm for that, not this one.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
    // No data means no invocations: the heartbeat stopped, which is exactly what this alarm is for.
    const staleTitle = `jobs ran less than once in ${2 * HEARTBEAT_INTERVAL.toMinutes()} minutes`;
    const heartbeatStale = this.track(
      staleTitle,
      new Alarm(this, 'HeartbeatStale', {
        alarmDescription: `${staleTitle}: the heartbeat schedule stopped`,
        metric: jobs.metricInvocations({ period: HEARTBEAT_INTERVAL, statistic: 'Sum' }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
        evaluationPeriods: 2,
        datapointsToAlarm: 2,
        treatMissingData: TreatMissingData.BREACHING,
      }),
    );

    this.dashboard = buildDashboard(this, {
      api,
      transactions: functions.get('transactions'),
      saleLatency: this.saleLatency,
      saleServerErrors: this.saleServerErrors,
      schedulerLag: this.schedulerLag,
      deliveryQueue,
      deliveryDlq,
      fanoutQueue: props.fanoutQueue,
      failureQueues: props.failureQueues,
      jobs,
      alarms: [
        api5xx,
        backlogAge,
        dlqDepth,
        deliveriesFailed,
        reconciliationDifferences,
        schedulerLag,
        schedulerErrors,
        heartbeatStale,
        ...failureDepths,
      ].map((alarm) => ({ alarm, title: this.titles.get(alarm) as string })),
      perFunction: perFunction.map((a) => a.metric),
    });
  }

  private atLeastOne(id: string, metric: IMetric, description: string): Alarm {
    return this.track(
      description,
      new Alarm(this, id, {
        alarmDescription: description,
        metric,
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        // Errors that never happened publish no data; silence is healthy here.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  /** Every alarm goes through here, so none is created without the topic as its action. */
  private track(title: string, alarm: Alarm): Alarm {
    alarm.addAlarmAction(this.action);
    this.alarms.push(alarm);
    this.titles.set(alarm, title);
    return alarm;
  }
}
