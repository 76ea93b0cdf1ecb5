import { logConfig } from '#shared/config';

/**
 * Structured JSON logs. Callers pass context objects; keys that could carry a secret are
 * replaced before anything is written, so a careless `log.info({ headers })` cannot leak a key.
 */
const SECRET_KEY = /authorization|secret|password|token|api[-_]?key|card|cvv|number$|^key$/i;
const SECRET_VALUE = /\b(sk_(test|live)_[A-Za-z0-9]+|whsec_[A-Za-z0-9]+|eyJ[\w-]+\.[\w-]+\.[\w-]*)/g;
/** A pay link's secret (the request log's path carries it): the charge it names stays readable. */
const PAY_TOKEN_SECRET = /\b(cob_(?:\d+_sch_(?:test|live)_[A-Za-z0-9]{24}_)?)[A-Za-z0-9]{32}\b/g;
/** A carnê booklet link's secret (`/carne/{token}`): the seller and plan it names stay readable. */
const BOOKLET_TOKEN_SECRET = /\b(crn_\d+_(?:test|live)_[0-9a-f-]{36}_)[A-Za-z0-9]{32}\b/g;
/**
 * A checkout session id opens the buyer's data on the hosted page: its random part goes, the
 * product uuid it ends with (32 hex digits, shown on the page anyway) stays readable.
 */
const SESSION_ID =
  /\b(cs_(?:test|live)_)[A-Za-z0-9]{24}([0-9a-f]{32})?(?![A-Za-z0-9])|\b(cs_(?:test|live)_)[A-Za-z0-9]+/g;
const redactSessionId = (_: string, prefix?: string, uuid?: string, other?: string) =>
  `${prefix ?? other}[redacted]${uuid ?? ''}`;

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[depth]';
  if (typeof value === 'string')
    return value
      .replace(SECRET_VALUE, '[redacted]')
      .replace(PAY_TOKEN_SECRET, '$1[redacted]')
      .replace(BOOKLET_TOKEN_SECRET, '$1[redacted]')
      .replace(SESSION_ID, redactSessionId);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof Error) {
    return {
      name: value.name,
      message: redact(value.message),
      // The first line of a stack repeats the message, secrets included.
      stack: redact(value.stack),
      cause: redact(value.cause, depth + 1),
    };
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1);
    return out;
  }
  return value;
}

export interface Logger {
  debug(message: string, context?: Record<string, unknown>): void;
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
  child(context: Record<string, unknown>): Logger;
}

export type LogSink = (line: string) => void;

let sink: LogSink = (line) => process.stdout.write(`${line}\n`);
let threshold: LogLevel = logConfig().level;

/** The local runtime and tests redirect or silence logs here. */
export function configureLogs(options: { sink?: LogSink; level?: LogLevel }): void {
  if (options.sink) sink = options.sink;
  if (options.level) threshold = options.level;
}

export function createLogger(base: Record<string, unknown> = {}): Logger {
  const write = (level: LogLevel, message: string, context?: Record<string, unknown>) => {
    if (ORDER[level] < ORDER[threshold]) return;
    const entry = { level, time: new Date().toISOString(), message, ...base, ...(context ?? {}) };
    sink(JSON.stringify(redact(entry)));
  };
  return {
    debug: (m, c) => write('debug', m, c),
    info: (m, c) => write('info', m, c),
    warn: (m, c) => write('warn', m, c),
    error: (m, c) => write('error', m, c),
    child: (context) => createLogger({ ...base, ...context }),
  };
}

export const logger = createLogger({ service: 'payment-service' });
