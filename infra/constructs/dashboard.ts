import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  type Alarm,
  AlarmWidget,
  Dashboard,
  GraphWidget,
  type IMetric,
  type Metric,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

const PERIOD = Duration.minutes(5);

export interface DashboardSources {
  api: HttpApi;
  transactions: IFunction | undefined;
  saleLatency: Metric;
  saleServerErrors: Metric;
  schedulerLag: Metric;
  deliveryQueue: IQueue;
  deliveryDlq: IQueue;
  fanoutQueue: IQueue;
  failureQueues: Map<string, IQueue>;
  jobs: IFunction;
  alarms: { alarm: Alarm; title: string }[];
  perFunction: IMetric[];
}

/**
 * One dashboard, top to bottom: the sale path, the webhook backlog, the scheduler's lag, then every
 * alarm and the per-function errors.
 */
export function buildDashboard(scope: Construct, s: DashboardSources): Dashboard {
  const dashboard = new Dashboard(scope, 'Dashboard', { defaultInterval: Duration.hours(6) });
  dashboard.addWidgets(
    new TextWidget({
      markdown: `**Sale path**: \`POST /api/transactions\` from the API access log; the transactions function's own duration and errors beside it.`,
      width: 24,
      height: 1,
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: 'POST /api/transactions latency (ms)',
      left: [
        s.saleLatency.with({ statistic: 'p50', label: 'p50' }),
        s.saleLatency.with({ statistic: 'p99', label: 'p99' }),
      ],
      right: s.transactions
        ? [s.transactions.metricDuration({ period: PERIOD, statistic: 'p99', label: 'function p99' })]
        : [],
      width: 12,
    }),
    new GraphWidget({
      title: 'POST /api/transactions 5xx',
      left: [
        s.saleServerErrors.with({ label: 'sale 5xx' }),
        s.api.metricServerError({ period: PERIOD, label: 'API 5xx (all routes)' }),
        ...(s.transactions
          ? [s.transactions.metricErrors({ period: PERIOD, label: 'function errors' })]
          : []),
      ],
      width: 12,
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: 'Webhook backlog (fan-out and delivery queues)',
      left: [
        s.deliveryQueue.metricApproximateNumberOfMessagesVisible({
          period: PERIOD,
          statistic: 'Maximum',
          label: 'deliveries visible',
        }),
        s.fanoutQueue.metricApproximateNumberOfMessagesVisible({
          period: PERIOD,
          statistic: 'Maximum',
          label: 'events awaiting fan-out',
        }),
      ],
      right: [
        s.deliveryQueue.metricApproximateAgeOfOldestMessage({
          period: PERIOD,
          statistic: 'Maximum',
          label: 'oldest delivery (s)',
        }),
        s.fanoutQueue.metricApproximateAgeOfOldestMessage({
          period: PERIOD,
          statistic: 'Maximum',
          label: 'oldest event (s)',
        }),
      ],
      width: 12,
    }),
    new GraphWidget({
      title: 'Dead letters and on-failure queues',
      left: [
        s.deliveryDlq.metricApproximateNumberOfMessagesVisible({
          period: PERIOD,
          statistic: 'Maximum',
          label: 'webhook DLQ',
        }),
        ...[...s.failureQueues].map(([consumer, queue]) =>
          queue.metricApproximateNumberOfMessagesVisible({
            period: PERIOD,
            statistic: 'Maximum',
            label: consumer,
          }),
        ),
      ],
      width: 12,
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: 'Scheduler lag: job start minus due time (ms)',
      left: [
        s.schedulerLag.with({ statistic: 'p50', label: 'p50' }),
        s.schedulerLag.with({ statistic: 'Maximum', label: 'max' }),
      ],
      right: [s.jobs.metricInvocations({ period: PERIOD, statistic: 'Sum', label: 'job runs' })],
      width: 12,
    }),
    new GraphWidget({
      title: 'API requests and errors',
      left: [s.api.metricCount({ period: PERIOD })],
      right: [s.api.metricClientError({ period: PERIOD }), s.api.metricServerError({ period: PERIOD })],
      width: 12,
    }),
  );
  dashboard.addWidgets(...s.alarms.map(({ alarm, title }) => new AlarmWidget({ alarm, title, width: 8 })));
  dashboard.addWidgets(
    new GraphWidget({ title: 'Lambda errors and throttles', left: s.perFunction, width: 24 }),
  );
  return dashboard;
}
