import type { RequestLogSink } from '#shared/domain/ports';
import { REQUEST_LOG_FIELD } from '#shared/domain/request-log/request-log';

/**
 * The request log on AWS: one JSON line on stdout per request, whatever the log level, which the
 * function's log group hands to the request-log function through a subscription filter. Writing a
 * line costs the request no round trip and cannot fail it.
 */
export const logLineRequestLog: RequestLogSink = {
  record(entry) {
    process.stdout.write(`${JSON.stringify({ [REQUEST_LOG_FIELD]: entry })}\n`);
  },
};
