/** 100 requests per minute per principal (API key, JWT subject or client IP), fixed windows. */
export const RATE_LIMIT = 100;
export const RATE_WINDOW_SECONDS = 60;
/**
 * Failed authentications (any 401) one client address may make in a window; past them every
 * request of that address to an authenticated route answers 429 until the window ends.
 */
export const FAILED_AUTH_LIMIT = 20;

export interface RateWindow {
  /** Window number since the epoch. */
  index: number;
  startsAt: Date;
  resetsAt: Date;
}

export function rateWindow(now: Date): RateWindow {
  return fixedWindow(now, RATE_WINDOW_SECONDS);
}

/** The fixed window of `seconds` (counted from the epoch) that `now` falls in. */
export function fixedWindow(now: Date, seconds: number): RateWindow {
  const index = Math.floor(now.getTime() / 1000 / seconds);
  return {
    index,
    startsAt: new Date(index * seconds * 1000),
    resetsAt: new Date((index + 1) * seconds * 1000),
  };
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  retryAfterSeconds: number;
}

/** Whole seconds until the window ends, at least 1 (Retry-After). */
export const secondsUntilReset = (window: RateWindow, now: Date) =>
  Math.max(1, Math.ceil((window.resetsAt.getTime() - now.getTime()) / 1000));

export function decide(count: number, window: RateWindow, now: Date): RateDecision {
  const retryAfterSeconds = secondsUntilReset(window, now);
  return {
    allowed: count <= RATE_LIMIT,
    retryAfterSeconds,
    headers: {
      'x-ratelimit-limit': String(RATE_LIMIT),
      'x-ratelimit-remaining': String(Math.max(0, RATE_LIMIT - count)),
      'x-ratelimit-reset': String(Math.floor(window.resetsAt.getTime() / 1000)),
    },
  };
}
