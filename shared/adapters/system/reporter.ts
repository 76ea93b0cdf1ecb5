import { AsyncLocalStorage } from 'node:async_hooks';
import type { Reporter } from '#shared/domain/ports';
import type { Logger } from '#shared/logger';

const scopedLog = new AsyncLocalStorage<Logger>();

/**
 * Runs `work` (one request's handler) with `log`, the request's logger (its id and route), as
 * where reports go: a report made during a request is one of that request's log lines.
 */
export const reportingTo = <T>(log: Logger, work: () => Promise<T>): Promise<T> => scopedLog.run(log, work);

/**
 * The Reporter over the structured logger: one error line per report, to the log of the request
 * under way (reportingTo), else to `log`. The logger redacts secrets from the error and context.
 */
export function logReporter(log: Logger): Reporter {
  return {
    error: (what, error, context) => (scopedLog.getStore() ?? log).error(what, { ...context, error }),
  };
}
