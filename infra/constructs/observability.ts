import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '#shared/adapters/metrics/emf';
import { DELIVERY_FAILED_METRIC } from '#shared/domain/webhooks/deliveries';
import { HEARTBEAT_INTERVAL } from './async';
import { constructIdOf } from './functions';

export interface ObservabilityProps {
  api: HttpApi;
  functions: Map<string, IFunction>;
  jobs: IFunction;
  deliveryDlq: IQueue;
  scheduleGroup: ScheduleGroup;
}

const PERIOD = Duration.minutes(5);

/**
 * The alarms the design lists (5xx, Lambda errors and throttles, DLQ depth, failed deliveries,
 * scheduler target errors, heartbeat staleness) and one dashboard that shows each of them.
 */
export class Observability extends Construct {
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  private readonly titles = new Map<Alarm, string>();

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const { api, functions, jobs, deliveryDlq, scheduleGroup } = props;

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
    const schedulerErrors = this.atLeastOne(
      'SchedulerTargetErrors',
      scheduleGroup.metricTargetErrors({ period: PERIOD }),
      'Scheduler could not invoke the jobs function',
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

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(6) });
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'API requests and errors',
        left: [api.metricCount({ period: PERIOD })],
        right: [api.metricClientError({ period: PERIOD }), api.metricServerError({ period: PERIOD })],
        width: 12,
      }),
      new GraphWidget({
        title: 'API latency (p99)',
        left: [api.metricLatency({ period: PERIOD, statistic: 'p99' })],
        width: 12,
      }),
    );
    this.dashboard.addWidgets(
      ...[api5xx, dlqDepth, deliveriesFailed, schedulerErrors, heartbeatStale].map(
        (alarm) => new AlarmWidget({ alarm, title: this.titles.get(alarm), width: 8 }),
      ),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Lambda errors and throttles',
        left: perFunction.map((a) => a.metric),
        width: 24,
      }),
    );
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

  private track(title: string, alarm: Alarm): Alarm {
    this.alarms.push(alarm);
    this.titles.set(alarm, title);
    return alarm;
  }
}
