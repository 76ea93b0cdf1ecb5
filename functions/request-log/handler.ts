import type { CloudWatchLogsEvent } from 'aws-lambda';
import { requestLogEntriesOf } from '#shared/adapters/cloudwatch-logs/subscription';
import { appendRequestLogs } from '#shared/domain/request-log/request-log';
import { getContainer } from '#shared/platform/current';

/**
 * The request log's writer: the HTTP functions' log groups hand it their request-log lines
 * through a subscription filter. A thrown error makes CloudWatch Logs retry the batch; a batch
 * written twice writes the same items (keyed by time and request id).
 */
export const handler = async (event: CloudWatchLogsEvent) => {
  const { deps } = await getContainer();
  await appendRequestLogs(deps, requestLogEntriesOf(event));
};
