import type { Metrics } from '#shared/domain/ports';

export const METRICS_NAMESPACE = 'PaymentService';

/**
 * CloudWatch embedded metric format: one JSON line on stdout becomes a metric, no API call.
 * The stack's alarm on WebhookDeliveriesFailed reads it.
 */
export function createEmfMetrics(
  write: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Metrics {
  return {
    count(name, value = 1) {
      write(
        JSON.stringify({
          _aws: {
            Timestamp: Date.now(),
            CloudWatchMetrics: [
              { Namespace: METRICS_NAMESPACE, Dimensions: [[]], Metrics: [{ Name: name, Unit: 'Count' }] },
            ],
          },
          [name]: value,
        }),
      );
    },
  };
}
