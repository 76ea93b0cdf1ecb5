import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, RATE_LIMIT, RATE_WINDOW_SECONDS, rateWindow } from '#shared/domain/auth/rate-limit';

describe('rateWindow', () => {
  it('is the fixed minute containing the instant', () => {
    const w = rateWindow(new Date('2026-11-21T12:34:56.789Z'));
    expect(w.startsAt.toISOString()).toBe('2026-11-21T12:34:00.000Z');
    expect(w.resetsAt.toISOString()).toBe('2026-11-21T12:35:00.000Z');
    expect(w.index).toBe(Date.parse('2026-11-21T12:34:00.000Z') / 60_000);
  });

  it('starts a window exactly on the minute and ends it one millisecond before the next', () => {
    const start = rateWindow(new Date('2026-11-21T12:35:00.000Z'));
    const last = rateWindow(new Date('2026-11-21T12:34:59.999Z'));
    expect(start.startsAt.toISOString()).toBe('2026-11-21T12:35:00.000Z');
    expect(last.startsAt.toISOString()).toBe('2026-11-21T12:34:00.000Z');
    expect(start.index).toBe(last.index + 1);
  });

  it('always contains its instant and lasts 60 seconds (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        const w = rateWindow(new Date(ms));
        expect(w.startsAt.getTime()).toBeLessThanOrEqual(ms);
        expect(w.resetsAt.getTime()).toBeGreaterThan(ms);
        expect(w.resetsAt.getTime() - w.startsAt.getTime()).toBe(RATE_WINDOW_SECONDS * 1000);
      }),
    );
  });
});

describe('decide', () => {
  const now = new Date('2026-11-21T12:34:20.000Z');
  const window = rateWindow(now);

  it('allows the first request with 99 remaining', () => {
    const d = decide(1, window, now);
    expect(d.allowed).toBe(true);
    expect(d.headers).toEqual({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '99',
      'x-ratelimit-reset': String(Date.parse('2026-11-21T12:35:00.000Z') / 1000),
    });
  });

  it('allows the 100th request with 0 remaining', () => {
    const d = decide(RATE_LIMIT, window, now);
    expect(d.allowed).toBe(true);
    expect(d.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('refuses the 101st request and never reports a negative remaining', () => {
    const d = decide(RATE_LIMIT + 1, window, now);
    expect(d.allowed).toBe(false);
    expect(d.headers['x-ratelimit-remaining']).toBe('0');
    expect(decide(500, window, now).headers['x-ratelimit-remaining']).toBe('0');
  });

  it('asks to retry after the seconds left in the window, rounded up', () => {
    expect(decide(101, window, now).retryAfterSeconds).toBe(40);
    expect(decide(101, window, new Date('2026-11-21T12:34:20.001Z')).retryAfterSeconds).toBe(40);
    expect(decide(101, window, new Date('2026-11-21T12:34:00.000Z')).retryAfterSeconds).toBe(60);
  });

  it('asks to retry after at least 1 second at the very end of the window', () => {
    expect(decide(101, window, new Date('2026-11-21T12:34:59.999Z')).retryAfterSeconds).toBe(1);
    expect(decide(101, window, new Date('2026-11-21T12:35:00.000Z')).retryAfterSeconds).toBe(1);
  });

  it('gives Retry-After between 1 and 60 for any instant in the window (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.nat(1_000), (ms, count) => {
        const at = new Date(ms);
        const d = decide(count, rateWindow(at), at);
        expect(d.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        expect(d.retryAfterSeconds).toBeLessThanOrEqual(60);
        expect(d.allowed).toBe(count <= RATE_LIMIT);
      }),
    );
  });
});
