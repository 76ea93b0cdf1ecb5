import { randomUUID } from 'node:crypto';
import type { Middleware } from 'openapi-fetch';
import { ConnectionError } from './errors.ts';
import { IDEMPOTENT_OPERATIONS } from './routes.generated.ts';

export const IDEMPOTENCY_HEADER = 'X-Idempotency-Key';

/** How a client retries: counts and delays. */
export interface RetryOptions {
  /** Retries after the first attempt (0 turns retrying off). Default 2. */
  maxRetries?: number;
  /** The first retry's delay before jitter; each next one doubles. Default 500 ms. */
  initialRetryDelayMs?: number;
  /** The longest backoff delay. Default 8 s. */
  maxRetryDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once. Default 60 s. */
  maxRetryAfterSeconds?: number;
  /** Each attempt's timeout; a timed-out attempt counts as a lost connection. Default 60 s. */
  timeoutMs?: number;
}

type Fetch = (request: Request) => Promise<Response>;

/**
 * Whether a request may be sent again after a 5xx or a lost connection, when the first may have
 * run: GET, HEAD, PUT, PATCH and DELETE say the same thing twice; a POST only where the service
 * replays the first answer for the same X-Idempotency-Key (IDEMPOTENT_OPERATIONS, generated from
 * the routes that declare the header). A refund POST without that guarantee is never repeated
 * after a 5xx: it could refund twice. A 429 is retried everywhere: the service refused it unrun.
 */
const repeatable = new WeakMap<Request, boolean>();

/**
 * The client's middleware: the API key, and on every POST an X-Idempotency-Key made once per call
 * (so its retries carry the same one) unless the caller gave one.
 */
export function authAndIdempotency(apiKey: string): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      request.headers.set('authorization', `Bearer ${apiKey}`);
      const method = request.method.toUpperCase();
      if (method === 'POST' && !request.headers.has(IDEMPOTENCY_HEADER)) {
        request.headers.set(IDEMPOTENCY_HEADER, randomUUID());
      }
      repeatable.set(
        request,
        method !== 'POST' ||
          (IDEMPOTENT_OPERATIONS.has(`POST ${schemaPath}`) && request.headers.has(IDEMPOTENCY_HEADER)),
      );
    },
  };
}

/**
 * A fetch that retries with exponential backoff and jitter: 429 always (after its Retry-After);
 * 5xx, a 409 `idempotency_in_progress` and lost connections when the request is repeatable.
 * Every attempt sends a copy of the same Request, idempotency key included.
 */
export function retryingFetch(base: Fetch, options: RetryOptions = {}): Fetch {
  const maxRetries = options.maxRetries ?? 2;
  const initial = options.initialRetryDelayMs ?? 500;
  const ceiling = options.maxRetryDelayMs ?? 8_000;
  const maxRetryAfter = options.maxRetryAfterSeconds ?? 60;
  const timeoutMs = options.timeoutMs ?? 60_000;

  const backoff = (attempt: number) => {
    const delay = Math.min(ceiling, initial * 2 ** attempt);
    return delay / 2 + Math.random() * (delay / 2);
  };

  return async (request) => {
    const mayRepeat = repeatable.get(request) ?? request.method.toUpperCase() !== 'POST';
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= maxRetries;
      let response: Response;
      try {
        const signal = request.signal
          ? AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)])
          : AbortSignal.timeout(timeoutMs);
        response = await base(new Request(request.clone(), { signal }));
      } catch (error) {
        if (request.signal?.aborted) throw error;
        if (last || !mayRepeat) {
          throw new ConnectionError(
            `${request.method} ${new URL(request.url).pathname} got no answer` +
              (attempt > 0 ? ` after ${attempt + 1} attempts` : '') +
              `: ${error instanceof Error ? error.message : String(error)}` +
              (mayRepeat
                ? ''
                : '. It may have run: check before sending it again (this route does not replay).'),
            { cause: error },
          );
        }
        await sleep(backoff(attempt), request.signal);
        continue;
      }
      if (last) return response;
      const wait = await retryDelay(response, mayRepeat, attempt);
      if (wait === null) return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };

  /** How long to wait before the next attempt, or null when this answer is final. */
  async function retryDelay(response: Response, mayRepeat: boolean, attempt: number): Promise<number | null> {
    const { status } = response;
    if (status === 429) {
      const after = retryAfterMs(response.headers.get('retry-after'));
      if (after === null) return backoff(attempt);
      return after > maxRetryAfter * 1000 ? null : after;
    }
    if (!mayRepeat) return null;
    if (status >= 500) {
      const after = retryAfterMs(response.headers.get('retry-after'));
      return after !== null && after <= maxRetryAfter * 1000
        ? Math.max(after, backoff(attempt))
        : backoff(attempt);
    }
    if (status === 409 && (await codeOf(response)) === 'idempotency_in_progress') return backoff(attempt);
    return null;
  }
}

async function codeOf(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body?.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
