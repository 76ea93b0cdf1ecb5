import { gunzipSync, gzipSync } from 'node:zlib';
import type { CloudWatchLogsEvent } from 'aws-lambda';
import * as z from 'zod';
import type { RequestLogEntry } from '#shared/domain/ports';
import { REQUEST_LOG_FIELD } from '#shared/adapters/system/request-log-line';

/** What a line must hold to be kept: anything else on the log group is not an entry. */
const entrySchema = z.object({
  tenant: z.object({ sellerId: z.number().int(), environment: z.enum(['test', 'live']) }),
  requestId: z.string().min(1).max(200),
  method: z.string().max(10),
  path: z.string().max(500),
  status: z.number().int(),
  latencyMs: z.number().int().min(0),
  idempotencyKey: z.string().max(255).nullable(),
  via: z.enum(['apiKey', 'jwt']),
  at: z.iso.datetime(),
});

/** The payload CloudWatch Logs hands a subscription's function, as it sends it (gzip, base64). */
interface SubscriptionData {
  logEvents: { id: string; timestamp: number; message: string }[];
}

/** The request-log entries of a subscription batch; lines that are not entries are skipped. */
export function requestLogEntriesOf(event: CloudWatchLogsEvent): RequestLogEntry[] {
  const data = JSON.parse(gunzipSync(Buffer.from(event.awslogs.data, 'base64')).toString('utf8')) as SubscriptionData;
  const entries: RequestLogEntry[] = [];
  for (const { message } of data.logEvents ?? []) {
    let line: unknown;
    try {
      line = JSON.parse(message);
    } catch {
      continue;
    }
    const parsed = entrySchema.safeParse((line as Record<string, unknown> | null)?.[REQUEST_LOG_FIELD]);
    if (parsed.success) entries.push(parsed.data);
  }
  return entries;
}

/** A subscription batch of the given lines, as CloudWatch Logs would send it (the local runtime's). */
export function subscriptionEventOf(lines: readonly string[], at: number): CloudWatchLogsEvent {
  const data = {
    messageType: 'DATA_MESSAGE',
    logEvents: lines.map((message, i) => ({ id: `${at}-${i}`, timestamp: at, message })),
  };
  return { awslogs: { data: gzipSync(JSON.stringify(data)).toString('base64') } };
}
