import { gzipSync } from 'node:zlib';
import type { CloudWatchLogsEvent } from 'aws-lambda';
import type { RequestLogEntry, RequestLogSink } from '#shared/domain/ports';
import { REQUEST_LOG_FIELD } from '#shared/domain/request-log/request-log';
import type { Drainable } from './timeline';

/** A subscription batch of the given lines, as CloudWatch Logs sends it (gzip, base64). */
function subscriptionEventOf(lines: readonly string[], at: number): CloudWatchLogsEvent {
  const data = {
    messageType: 'DATA_MESSAGE',
    logGroup: 'local',
    logStream: 'local',
    subscriptionFilters: ['request-log'],
    owner: 'local',
    logEvents: lines.map((message, i) => ({ id: `${at}-${i}`, timestamp: at, message })),
  };
  return { awslogs: { data: gzipSync(JSON.stringify(data)).toString('base64') } };
}

/** CloudWatch Logs hands a subscription at most this many lines per batch (far more on AWS). */
const BATCH = 100;

/**
 * The local stand-in for the HTTP functions' log groups and their request-log subscription
 * filter: the pipeline's entries wait here, as log lines, until the timeline's ticker drains them
 * into the request-log function in CloudWatch Logs' own event shape. The drain runs outside any
 * request, as on AWS, so no request waits on it or counts its writes.
 */
export class LocalLogSubscription implements RequestLogSink, Drainable {
  private lines: string[] = [];

  constructor(
    private readonly deliver: (event: CloudWatchLogsEvent) => Promise<unknown>,
    private readonly now: () => number,
  ) {}

  record(entry: RequestLogEntry): void {
    this.lines.push(JSON.stringify({ [REQUEST_LOG_FIELD]: entry }));
  }

  async drain(): Promise<void> {
    while (this.lines.length > 0) {
      const batch = this.lines.slice(0, BATCH);
      // A failed batch stays at the head and is tried again on the next drain, as CloudWatch retries.
      await this.deliver(subscriptionEventOf(batch, this.now()));
      this.lines.splice(0, batch.length);
    }
  }
}
