import { describe, expect, it } from 'vitest';
import { TestClock } from '../../../infra/local/clock';

describe('TestClock', () => {
  it('starts at wall-clock time', () => {
    const before = Date.now();
    const now = new TestClock().now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('moves forward to a later target', () => {
    const clock = new TestClock();
    const target = new Date(Date.now() + 26 * 3_600_000);
    clock.setTo(target);
    const now = clock.now().getTime();
    expect(now).toBeGreaterThanOrEqual(target.getTime());
    expect(now - target.getTime()).toBeLessThan(1_000);
  });

  it('ignores a target in the past', () => {
    const clock = new TestClock();
    clock.advance(3_600);
    const before = clock.now().getTime();
    clock.setTo(new Date(Date.now()));
    clock.setTo(new Date(0));
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(before);
  });

  it('advances by whole and fractional seconds', () => {
    const clock = new TestClock();
    const before = clock.now().getTime();
    clock.advance(90);
    clock.advance(0.5);
    const moved = clock.now().getTime() - before;
    expect(moved).toBeGreaterThanOrEqual(90_500);
    expect(moved).toBeLessThan(91_500);
  });

  it('never reads earlier than a previous reading across setTo and advance', () => {
    const clock = new TestClock();
    let last = clock.now().getTime();
    for (const step of [
      () => clock.advance(10),
      () => clock.setTo(new Date(0)),
      () => clock.setTo(new Date(last + 5_000)),
    ]) {
      step();
      const now = clock.now().getTime();
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
  });

  // The class promises it never goes backwards, yet advance() accepts a negative number of seconds.
  it('does not go backwards when advanced by a negative number of seconds', () => {
    const clock = new TestClock();
    const before = clock.now().getTime();
    clock.advance(-60);
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(before);
  });
});
