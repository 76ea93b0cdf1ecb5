import { AsyncLocalStorage } from 'node:async_hooks';
import { ServiceUnavailableError } from '#shared/errors';

/**
 * API Gateway's HTTP API answers 504 to the client when an integration runs past 30 s, whatever the
 * function does afterwards. A request's own work ends by REQUEST_DEADLINE_MS after API Gateway
 * received it: past that no new DynamoDB call starts, and the request answers 503 with Retry-After
 * instead. One call started just before the deadline ends within the client's own bounds (one
 * connection timeout plus one request timeout per attempt, two attempts: about 8 s,
 * shared/adapters/dynamodb/table.ts), so 20 + 8 stays under 30.
 */
export const REQUEST_DEADLINE_MS = 20_000;

/**
 * A request that reaches its function with less than this left before the deadline (it waited that
 * long in front of the service) is shed at once, before authentication or anything else writes:
 * a sale's round trips and provider call would not fit in what is left.
 */
export const MIN_REQUEST_BUDGET_MS = 10_000;

/** What a shed request asks the client to wait, in seconds. */
export const RETRY_AFTER_SECONDS = 2;

/** The 503 of a request past its deadline: nothing more was started. */
export function deadlineExceeded(): ServiceUnavailableError {
  return new ServiceUnavailableError(
    'The service is overloaded and could not finish this request in time; retry later.',
    'deadline_exceeded',
    { retryAfterSeconds: RETRY_AFTER_SECONDS },
  );
}

const scope = new AsyncLocalStorage<{ at: number }>();

/** Runs `work` with a deadline (epoch ms, wall time): the calls it makes read it through pastDeadline. */
export function withDeadline<T>(at: number, work: () => Promise<T>): Promise<T> {
  return scope.run({ at }, work);
}

/** Whether the running request's deadline has passed (false outside a request). */
export function pastDeadline(now = Date.now()): boolean {
  const deadline = scope.getStore();
  return deadline !== undefined && now >= deadline.at;
}

/**
 * The deadline of a request API Gateway received at `arrivedAt` (epoch ms), or the shed 503 when too
 * little of it is left at `now`.
 */
export function requestDeadline(arrivedAt: number | undefined, now = Date.now()): number {
  // A clock ahead of this one (API Gateway's, skewed) never grants more than the whole budget.
  const at = Math.min(arrivedAt ?? now, now) + REQUEST_DEADLINE_MS;
  if (at - now < MIN_REQUEST_BUDGET_MS) throw deadlineExceeded();
  return at;
}

/** What is left of the running request's deadline, in ms (Infinity outside a request). */
export function timeLeftMs(now = Date.now()): number {
  const deadline = scope.getStore();
  return deadline === undefined ? Number.POSITIVE_INFINITY : deadline.at - now;
}
