import { describe, expect, it } from 'vitest';
import { CircuitBreaker, FAILURE_THRESHOLD, OPEN_MS } from '#shared/adapters/http/circuit-breaker';

/** The breaker's states on a clock the test moves. */
function breaker() {
  let now = 1_000_000;
  const b = new CircuitBreaker({ now: () => now });
  const pass = (ms: number) => {
    now += ms;
  };
  return { b, pass };
}

describe('CircuitBreaker', () => {
  it(`opens after ${FAILURE_THRESHOLD} consecutive failures, and refuses every call while open`, () => {
    const { b } = breaker();
    for (let i = 0; i < FAILURE_THRESHOLD - 1; i++) {
      expect(b.tryCall()).toBe(true);
      b.failed();
      expect(b.state()).toBe('closed');
    }
    b.failed();
    expect(b.state()).toBe('open');
    expect(b.refuses()).toBe(true);
    expect(b.tryCall()).toBe(false);
  });

  it('counts consecutive failures only: an answer in between starts the count again', () => {
    const { b } = breaker();
    b.failed();
    b.failed();
    b.succeeded();
    b.failed();
    b.failed();
    expect(b.state()).toBe('closed');
  });

  it(`lets one probe out after ${OPEN_MS} ms, refusing the others; the probe's answer closes it`, () => {
    const { b, pass } = breaker();
    for (let i = 0; i < FAILURE_THRESHOLD; i++) b.failed();
    pass(OPEN_MS - 1);
    expect(b.tryCall()).toBe(false);
    pass(1);
    expect(b.state()).toBe('half_open');
    expect(b.refuses()).toBe(false);
    expect(b.tryCall()).toBe(true);
    expect(b.refuses()).toBe(true);
    expect(b.tryCall()).toBe(false);
    b.succeeded();
    expect(b.state()).toBe('closed');
    expect(b.tryCall()).toBe(true);
  });

  it('opens again for a whole period when the probe fails', () => {
    const { b, pass } = breaker();
    for (let i = 0; i < FAILURE_THRESHOLD; i++) b.failed();
    pass(OPEN_MS);
    expect(b.tryCall()).toBe(true);
    b.failed();
    expect(b.state()).toBe('open');
    pass(OPEN_MS - 1);
    expect(b.tryCall()).toBe(false);
    pass(1);
    expect(b.tryCall()).toBe(true);
  });
});
