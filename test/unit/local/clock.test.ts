import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClock, WallClock } from '#infra/local/clock';

const folder = mkdtempSync(join(tmpdir(), 'ps-clock-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

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

describe('TestClock kept in the data folder', () => {
  it('goes on after a restart from the time the last run reached', () => {
    const file = join(folder, 'clock.json');
    const first = new TestClock(file);
    first.advance(32 * 86_400);
    const reached = first.now().getTime();

    const restarted = new TestClock(file);
    expect(restarted.offsetMs).toBe(32 * 86_400_000);
    expect(restarted.now().getTime()).toBeGreaterThanOrEqual(reached);
  });

  it('starts at real time when the file is missing or unreadable', () => {
    const file = join(folder, 'broken-clock.json');
    writeFileSync(file, '{not json');
    expect(new TestClock(file).offsetMs).toBe(0);
    expect(new TestClock(join(folder, 'none.json')).offsetMs).toBe(0);
  });
});

describe('WallClock', () => {
  it('reads real time, and only an explicit skew (a test in the same process) moves it', () => {
    const clock = new WallClock();
    const before = Date.now();
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(before);
    expect(clock.now().getTime()).toBeLessThanOrEqual(Date.now());
    clock.skew(61);
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(before + 61_000);
    clock.skew(-3_600);
    expect(clock.now().getTime()).toBeLessThan(Date.now() + 62_000);
  });
});
