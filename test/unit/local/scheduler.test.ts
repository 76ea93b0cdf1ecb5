import { describe, expect, it } from 'vitest';
import { LocalScheduler, ScheduleConflictError } from '#infra/local/scheduler';
import type { ScheduledJob } from '#shared/domain/ports';
import { ManualClock } from './fake-clock';

const T0 = Date.parse('2026-11-21T12:00:00.000Z');
const job: ScheduledJob = { job: 'expire-payment', id: 'pay_1' };
/** The payload as the jobs function receives it: with the due time, as Scheduler fills it in. */
const due = (payload: ScheduledJob, at: number) => ({ ...payload, dueAt: new Date(at).toISOString() });

function setup(target: (payload: ScheduledJob) => Promise<unknown> = async () => {}) {
  const clock = new ManualClock(T0);
  const calls: { payload: ScheduledJob; at: number }[] = [];
  const scheduler = new LocalScheduler(
    clock,
    async (payload) => {
      calls.push({ payload, at: clock.now().getTime() });
      return target(payload);
    },
    null,
  );
  return { clock, calls, scheduler };
}

describe('LocalScheduler one-time schedules', () => {
  it('does not fire before its time', async () => {
    const { calls, scheduler } = setup();
    await scheduler.scheduleAt('expire-pay_1', new Date(T0 + 60_000), job);
    expect(scheduler.nextDueAt()).toBe(T0 + 60_000);
    expect(await scheduler.runNext(new Date(T0 + 59_999))).toBe(false);
    expect(calls).toEqual([]);
    expect(scheduler.pending()).toHaveLength(1);
  });

  it('fires at its time with its payload and then deletes itself', async () => {
    const { calls, scheduler } = setup();
    await scheduler.scheduleAt('expire-pay_1', new Date(T0 + 60_000), job);
    expect(await scheduler.runNext(new Date(T0 + 60_000))).toBe(true);
    expect(calls.map((c) => c.payload)).toEqual([due(job, T0 + 60_000)]);
    expect(scheduler.pending()).toEqual([]);
    expect(scheduler.nextDueAt()).toBeUndefined();
    expect(await scheduler.runNext(new Date(T0 + 3_600_000))).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it('fires the earliest schedule first', async () => {
    const { calls, scheduler } = setup();
    await scheduler.scheduleAt('b', new Date(T0 + 20_000), { job: 'j', id: 'b' });
    await scheduler.scheduleAt('a', new Date(T0 + 10_000), { job: 'j', id: 'a' });
    await scheduler.runNext(new Date(T0 + 30_000));
    await scheduler.runNext(new Date(T0 + 30_000));
    expect(calls.map((c) => c.payload.id)).toEqual(['a', 'b']);
  });

  it('refuses a second schedule with the same name as ConflictException', async () => {
    const { scheduler } = setup();
    await scheduler.scheduleAt('expire-pay_1', new Date(T0 + 60_000), job);
    const attempt = scheduler.scheduleAt('expire-pay_1', new Date(T0 + 120_000), job);
    await expect(attempt).rejects.toBeInstanceOf(ScheduleConflictError);
    await expect(scheduler.scheduleAt('expire-pay_1', new Date(T0), job)).rejects.toMatchObject({
      name: 'ConflictException',
      message: 'Schedule expire-pay_1 already exists',
    });
    expect(scheduler.pending()).toHaveLength(1);
  });

  it('accepts the name again once the schedule has fired', async () => {
    const { scheduler } = setup();
    await scheduler.scheduleAt('expire-pay_1', new Date(T0), job);
    await scheduler.runNext(new Date(T0));
    await expect(scheduler.scheduleAt('expire-pay_1', new Date(T0 + 1_000), job)).resolves.toBeUndefined();
  });

  it('forgets a cancelled schedule, and cancelling an unknown name is not an error', async () => {
    const { calls, scheduler } = setup();
    await scheduler.scheduleAt('expire-pay_1', new Date(T0), job);
    await scheduler.cancel('expire-pay_1');
    await scheduler.cancel('never-existed');
    expect(await scheduler.runNext(new Date(T0 + 60_000))).toBe(false);
    expect(calls).toEqual([]);
  });
});

describe('LocalScheduler retries', () => {
  it('retries a failing target 60 s later and then deletes the schedule', async () => {
    let failures = 1;
    const { calls, scheduler } = setup(async () => {
      if (failures-- > 0) throw new Error('target down');
    });
    await scheduler.scheduleAt('expire-pay_1', new Date(T0), job);
    await expect(scheduler.runNext(new Date(T0))).rejects.toThrow('target down');
    expect(scheduler.pending()).toEqual([
      { name: 'expire-pay_1', at: T0 + 60_000, payload: job, attempts: 1 },
    ]);
    expect(await scheduler.runNext(new Date(T0 + 59_999))).toBe(false);
    expect(await scheduler.runNext(new Date(T0 + 60_000))).toBe(true);
    expect(calls).toHaveLength(2);
    // A retry carries the schedule's own due time, so its lag includes the wait for the retry.
    expect(calls.map((c) => c.payload)).toEqual([due(job, T0), due(job, T0)]);
    expect(scheduler.pending()).toEqual([]);
    expect(scheduler.deadLetters).toEqual([]);
  });

  it('keeps a retried schedule name taken until the retry has run', async () => {
    const { scheduler } = setup(async () => {
      throw new Error('down');
    });
    await scheduler.scheduleAt('n', new Date(T0), job);
    await expect(scheduler.runNext(new Date(T0))).rejects.toThrow();
    await expect(scheduler.scheduleAt('n', new Date(T0), job)).rejects.toBeInstanceOf(ScheduleConflictError);
  });

  it('dead-letters a schedule after 185 failed attempts', async () => {
    const { clock, calls, scheduler } = setup(async () => {
      throw new Error('down');
    });
    await scheduler.scheduleAt('n', new Date(T0), job);
    for (let due = scheduler.nextDueAt(); due !== undefined; due = scheduler.nextDueAt()) {
      clock.set(due);
      await scheduler.runNext(clock.now()).catch(() => undefined);
    }
    expect(calls).toHaveLength(185);
    expect(scheduler.deadLetters).toHaveLength(1);
    expect(scheduler.deadLetters[0]).toMatchObject({ name: 'n', payload: job, attempts: 185 });
  });

  it('dead-letters a schedule whose event is older than 24 hours', async () => {
    const { scheduler } = setup(async () => {
      throw new Error('down');
    });
    await scheduler.scheduleAt('n', new Date(T0), job);
    await expect(scheduler.runNext(new Date(T0 + 86_400_001))).rejects.toThrow('down');
    expect(scheduler.pending()).toEqual([]);
    expect(scheduler.deadLetters).toHaveLength(1);
  });
});

describe('LocalScheduler rate() schedules', () => {
  it('repeats every interval from the first run', async () => {
    const { calls, scheduler } = setup();
    scheduler.every('heartbeat', 300, { job: 'heartbeat', id: 'cron' }, new Date(T0));
    expect(await scheduler.runNext(new Date(T0))).toBe(true);
    expect(scheduler.nextDueAt()).toBe(T0 + 300_000);
    expect(await scheduler.runNext(new Date(T0 + 299_999))).toBe(false);
    expect(await scheduler.runNext(new Date(T0 + 300_000))).toBe(true);
    expect(scheduler.nextDueAt()).toBe(T0 + 600_000);
    expect(calls).toHaveLength(2);
  });

  it('replaces a rate() schedule of the same name', () => {
    const { scheduler } = setup();
    scheduler.every('heartbeat', 300, { job: 'heartbeat', id: 'cron' }, new Date(T0));
    scheduler.every('heartbeat', 60, { job: 'heartbeat', id: 'cron' }, new Date(T0 + 5_000));
    expect(scheduler.pending()).toHaveLength(1);
    expect(scheduler.nextDueAt()).toBe(T0 + 5_000);
  });

  it('skips a failed rate() run without retrying it, keeping the next one', async () => {
    const { scheduler } = setup(async () => {
      throw new Error('down');
    });
    scheduler.every('heartbeat', 300, { job: 'heartbeat', id: 'cron' }, new Date(T0));
    await expect(scheduler.runNext(new Date(T0))).rejects.toThrow('down');
    expect(scheduler.pending()).toHaveLength(1);
    expect(scheduler.nextDueAt()).toBe(T0 + 300_000);
    expect(scheduler.deadLetters).toEqual([]);
  });
});

describe('LocalScheduler rate() schedules under an advance', () => {
  const heartbeat: ScheduledJob = { job: 'heartbeat', id: 'cron' };

  it('leaves rate() schedules out of the one-time work an advance asks for', async () => {
    const { calls, scheduler } = setup();
    scheduler.every('heartbeat', 300, heartbeat, new Date(T0 + 300_000));
    await scheduler.scheduleAt('expire-pay_1', new Date(T0 + 86_400_000), job);
    expect(scheduler.nextDueAt()).toBe(T0 + 300_000);
    expect(scheduler.nextDueAt({ skipPeriodic: true })).toBe(T0 + 86_400_000);
    expect(await scheduler.runNext(new Date(T0 + 86_400_000), { skipPeriodic: true })).toBe(true);
    expect(calls.map((c) => c.payload)).toEqual([due(job, T0 + 86_400_000)]);
    expect(scheduler.nextDueAt({ skipPeriodic: true })).toBeUndefined();
    expect(scheduler.nextDueAt()).toBe(T0 + 300_000);
  });

  it('runs a rate() schedule once for all its occurrences up to now and arms it one interval later', async () => {
    const { clock, calls, scheduler } = setup();
    scheduler.every('heartbeat', 300, heartbeat, new Date(T0 + 300_000));
    const target = T0 + 31 * 86_400_000;
    clock.set(target);
    expect(await scheduler.runPeriodic(new Date(target))).toBe(1);
    // Due at the latest occurrence by now, which is the one that runs.
    expect(calls).toEqual([{ payload: due(heartbeat, target), at: target }]);
    expect(scheduler.nextDueAt()).toBe(target + 300_000);
    expect(await scheduler.runPeriodic(new Date(target + 299_999))).toBe(0);
    expect(calls).toHaveLength(1);
  });

  it('leaves one-time schedules and rate() schedules not yet due to their times', async () => {
    const { calls, scheduler } = setup();
    await scheduler.scheduleAt('expire-pay_1', new Date(T0), job);
    scheduler.every('hourly', 3_600, { job: 'heartbeat', id: 'hourly' }, new Date(T0 + 3_600_000));
    expect(await scheduler.runPeriodic(new Date(T0 + 60_000))).toBe(0);
    expect(calls).toEqual([]);
    expect(scheduler.pending().map((e) => [e.name, e.at])).toEqual([
      ['expire-pay_1', T0],
      ['hourly', T0 + 3_600_000],
    ]);
  });

  it('arms a failed coalesced run for one interval later without retrying or dead-lettering it', async () => {
    const { scheduler } = setup(async () => {
      throw new Error('down');
    });
    scheduler.every('heartbeat', 300, heartbeat, new Date(T0));
    await expect(scheduler.runPeriodic(new Date(T0 + 86_400_000))).rejects.toThrow('down');
    expect(scheduler.nextDueAt()).toBe(T0 + 86_400_000 + 300_000);
    expect(scheduler.pending()).toHaveLength(1);
    expect(scheduler.deadLetters).toEqual([]);
  });
});
