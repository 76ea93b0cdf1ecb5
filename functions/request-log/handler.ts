import { gunzipSync } from 'node:zlib';
import type { CloudWatchLogsDecodedData, CloudWatchLogsEvent } from 'aws-lambda';
import { once } from '#shared/once';
import { getContainer } from '#shared/platform/current';

// The use case (with zod) loads on the first invocation, not at cold start (docs/decisions.md, "Cold start").
const useCases = once(() => import('#shared/domain/request-log/request-log'));

/**
 * The request log's writer: the HTTP functions' log groups hand it their request-log lines
 * through a subscription filter (gzip, base64). A thrown error makes CloudWatch Logs retry the
 * batch; a batch written twice writes the same items (keyed by time and request id).
 */
export const handler = async (event: CloudWatchLogsEvent) => {
  const data = JSON.parse(
    gunzipSync(Buffer.from(event.awslogs.data, 'base64')).toString('utf8'),
  ) as CloudWatchLogsDecodedData;
  const { deps } = await getContainer();
  const { appendRequestLogs, entriesOfLines } = await useCases();
  await appendRequestLogs(deps, entriesOfLines(data.logEvents.map((e) => e.message)));
};
