import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TestClock } from '#infra/local/clock';
import { LocalQueue } from '#infra/local/queue';
import { LocalScheduler } from '#infra/local/scheduler';
import { type Drainable, type DrainOptions, type TimedSource, Timeline } from '#infra/local/timeline';
import type { ScheduledJob } from '#shared/domain/ports';

/** The test clock runs at wall-clock speed, so readings may trail a due time by a few ms. */
const SLACK_MS = 1_000;

function setup() {
  const clock = new TestClock();
  const ran: { id: string; at: number }[] = [];
  const errors: unknown[] = [];
  const handlers = new Map<string, (job: ScheduledJob) => Promise<void>>();
  const scheduler = new LocalScheduler(
    clock,
    async (job) => {
      ran.push({ id: job.id, at: clock.now().getTime() });
      await handlers.get(job.id)?.(job);
    },
    null,
  );
  const queue = new LocalQueue({ name: 'jobs', clock, file: null });
  queue.setConsumer(async (event) => {
    ran.push({ id: event.Records[0].body, at: clock.now().getTime() });
  });
  const drains: number[] = [];
  const drainable: Drainable = {
    drain: async () => {
      drains.push(clock.now().getTime());
    },
  };
  const timeline = new Timeline(clock, [scheduler, queue], [drainable], (e) => errors.push(e));
  return { clock, ran, errors, handlers, scheduler, queue, timeline, drains };
}

describe('Timeline.advance', () => {
  it('runs every item that falls due, in time order, across sources', async () => {
    const { clock, ran, scheduler, queue, timeline } = setup();
    const start = clock.now().getTime();
    await scheduler.scheduleAt('c', new Date(start + 20_000), { job: 'j', id: 'c' });
    await scheduler.scheduleAt('a', new Date(start + 5_000), { job: 'j', id: 'a' });
    await queue.send({ body: 'b', delaySeconds: 10 });
    await timeline.advance(30);
    expect(ran.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it('sets the clock to each item due time before running it', async () => {
    const { clock, ran, scheduler, timeline } = setup();
    const start = clock.now().getTime();
    const hours = (h: number) => start + h * 3_600_000;
    await scheduler.scheduleAt('a', new Date(hours(2)), { job: 'j', id: 'a' });
    await scheduler.scheduleAt('b', new Date(hours(26)), { job: 'j', id: 'b' });
    await timeline.advance(30 * 3_600);
    expect(ran.map((r) => r.id)).toEqual(['a', 'b']);
    expect(ran[0].at).toBeGreaterThanOrEqual(hours(2));
    expect(ran[0].at).toBeLessThan(hours(2) + SLACK_MS);
    expect(ran[1].at).toBeGreaterThanOrEqual(hours(26));
    expect(ran[1].at).toBeLessThan(hours(26) + SLACK_MS);
  });

  it('ends at the target time and returns it', async () => {
    const { clock, timeline } = setup();
    const target = clock.now().getTime() + 3_600_000;
    const returned = (await timeline.advance(3_600)).getTime();
    expect(returned).toBeGreaterThanOrEqual(target);
    expect(returned).toBeLessThan(target + SLACK_MS);
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(target);
  });

  it('leaves work due after the target for later', async () => {
    const { clock, ran, scheduler, timeline } = setup();
    const start = clock.now().getTime();
    await scheduler.scheduleAt('late', new Date(start + 120_000), { job: 'j', id: 'late' });
    await timeline.advance(60);
    expect(ran).toEqual([]);
    expect(scheduler.pending()).toHaveLength(1);
    await timeline.advance(60);
    expect(ran.map((r) => r.id)).toEqual(['late']);
  });

  it('runs work that other work makes due within the window', async () => {
    const { clock, ran, handlers, scheduler, timeline } = setup();
    const start = clock.now().getTime();
    handlers.set('first', async () => {
      await scheduler.scheduleAt('second', new Date(clock.now().getTime() + 10_000), {
        job: 'j',
        id: 'second',
      });
    });
    await scheduler.scheduleAt('first', new Date(start + 10_000), { job: 'j', id: 'first' });
    await timeline.advance(60);
    expect(ran.map((r) => r.id)).toEqual(['first', 'second']);
    expect(ran[1].at).toBeGreaterThanOrEqual(start + 20_000);
    expect(ran[1].at).toBeLessThan(start + 20_000 + SLACK_MS);
  });

  it('reports a failing item to onError, retries it, and keeps going', async () => {
    const { clock, ran, errors, handlers, scheduler, timeline } = setup();
    const start = clock.now().getTime();
    let failures = 1;
    handlers.set('flaky', async () => {
      if (failures-- > 0) throw new Error('flaky failed');
    });
    await scheduler.scheduleAt('flaky', new Date(start + 1_000), { job: 'j', id: 'flaky' });
    await scheduler.scheduleAt('ok', new Date(start + 2_000), { job: 'j', id: 'ok' });
    await timeline.advance(120);
    expect(errors.map((e) => (e as Error).message)).toEqual(['flaky failed']);
    expect(ran.map((r) => r.id)).toEqual(['flaky', 'ok', 'flaky']);
    // Retried a minute after its due time. Not measured from ran[0].at: that reading may trail the
    // due time by a millisecond or so (SLACK_MS), while the retry's clock is set to its due time.
    expect(ran[2].at).toBeGreaterThanOrEqual(start + 1_000 + 60_000);
    expect(ran[2].at).toBeLessThan(start + 1_000 + 60_000 + SLACK_MS);
    expect(scheduler.pending()).toEqual([]);
  });

  it('drains the streams before each item and at the end', async () => {
    const { clock, drains, scheduler, timeline } = setup();
    const start = clock.now().getTime();
    await scheduler.scheduleAt('a', new Date(start + 5_000), { job: 'j', id: 'a' });
    await timeline.advance(10);
    expect(drains.length).toBeGreaterThanOrEqual(3);
    expect(drains[drains.length - 1]).toBeGreaterThanOrEqual(start + 10_000);
  });

  it('runs advances one after the other, never interleaved', async () => {
    const { clock, ran, scheduler, timeline } = setup();
    const start = clock.now().getTime();
    await scheduler.scheduleAt('a', new Date(start + 5_000), { job: 'j', id: 'a' });
    await scheduler.scheduleAt('b', new Date(start + 15_000), { job: 'j', id: 'b' });
    const [first, second] = await Promise.all([timeline.advance(10), timeline.advance(10)]);
    expect(second.getTime()).toBeGreaterThanOrEqual(first.getTime() + 10_000);
    expect(ran.map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('asks only the earliest source to run at each step', async () => {
    const clock = new TestClock();
    const start = clock.now().getTime();
    const order: string[] = [];
    const source = (name: string, dueAt: number[]): TimedSource => ({
      name,
      nextDueAt: () => dueAt[0],
      runNext: async (now) => {
        if (dueAt[0] === undefined || dueAt[0] > now.getTime()) return false;
        order.push(`${name}@${dueAt.shift()! - start}`);
        return true;
      },
    });
    const timeline = new Timeline(
      clock,
      [source('x', [start + 3_000, start + 9_000]), source('y', [start + 1_000, start + 6_000])],
      [],
      () => {},
    );
    await timeline.advance(10);
    expect(order).toEqual(['y@1000', 'x@3000', 'y@6000', 'x@9000']);
  });
});

describe('Timeline.advance with a rate() heartbeat', () => {
  // The wall clock stands still, so the test clock reads exactly the times the timeline sets.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-11-21T12:00:00.000Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const DAY = 86_400_000;
  const INTERVAL_S = 300;
  const heartbeat: ScheduledJob = { job: 'heartbeat', id: 'hb' };

  function withHeartbeat() {
    const s = setup();
    const start = s.clock.now().getTime();
    s.scheduler.every('heartbeat', INTERVAL_S, heartbeat, new Date(start + INTERVAL_S * 1000));
    const job = (id: string, at: number) => s.scheduler.scheduleAt(id, new Date(at), { job: 'j', id });
    return { ...s, start, job };
  }

  it('runs the heartbeat once, at the target, for a 31-day advance', async () => {
    const { ran, start, timeline } = withHeartbeat();
    await timeline.advance(31 * 86_400);
    expect(ran).toEqual([{ id: 'hb', at: start + 31 * DAY }]);
  });

  it('arms the next heartbeat one interval after the target', async () => {
    const { ran, scheduler, start, timeline } = withHeartbeat();
    await timeline.advance(31 * 86_400);
    const target = start + 31 * DAY;
    expect(scheduler.nextDueAt()).toBe(target + INTERVAL_S * 1000);
    await timeline.advance(INTERVAL_S - 1);
    expect(ran.map((r) => r.id)).toEqual(['hb']);
    await timeline.advance(1);
    expect(ran).toEqual([
      { id: 'hb', at: target },
      { id: 'hb', at: target + INTERVAL_S * 1000 },
    ]);
  });

  it('leaves the heartbeat alone when none of its occurrences falls inside the advance', async () => {
    const { ran, scheduler, start, timeline } = withHeartbeat();
    await timeline.advance(INTERVAL_S - 1);
    expect(ran).toEqual([]);
    expect(scheduler.nextDueAt()).toBe(start + INTERVAL_S * 1000);
  });

  it('runs one-time jobs in time order, each with the clock at its own time, then the heartbeat', async () => {
    const { ran, start, job, queue, timeline } = withHeartbeat();
    await job('day-20', start + 20 * DAY);
    await job('day-2', start + 2 * DAY + 1_234);
    await job('day-9', start + 9 * DAY);
    await queue.send({ body: 'message', delaySeconds: 900 });
    await job('day-31', start + 31 * DAY);
    await timeline.advance(31 * 86_400);
    expect(ran).toEqual([
      { id: 'message', at: start + 900_000 },
      { id: 'day-2', at: start + 2 * DAY + 1_234 },
      { id: 'day-9', at: start + 9 * DAY },
      { id: 'day-20', at: start + 20 * DAY },
      { id: 'day-31', at: start + 31 * DAY },
      { id: 'hb', at: start + 31 * DAY },
    ]);
  });

  it('runs a job that another job schedules during the advance when it falls due before the target', async () => {
    const { clock, ran, handlers, scheduler, start, job, timeline } = withHeartbeat();
    handlers.set('renewal', async () => {
      const now = clock.now().getTime();
      await job('next-renewal', now + 10 * DAY);
      await job('after-target', now + 40 * DAY);
    });
    await job('renewal', start + 3 * DAY);
    await timeline.advance(31 * 86_400);
    expect(ran).toEqual([
      { id: 'renewal', at: start + 3 * DAY },
      { id: 'next-renewal', at: start + 13 * DAY },
      { id: 'hb', at: start + 31 * DAY },
    ]);
    expect(scheduler.pending().map((e) => e.name)).toEqual(['heartbeat', 'after-target']);
  });

  it('runs at the target the work the heartbeat makes due', async () => {
    const { clock, ran, handlers, start, job, timeline } = withHeartbeat();
    handlers.set('hb', async () => {
      await job('swept', clock.now().getTime());
    });
    await timeline.advance(31 * 86_400);
    expect(ran).toEqual([
      { id: 'hb', at: start + 31 * DAY },
      { id: 'swept', at: start + 31 * DAY },
    ]);
  });

  it('reports a failing heartbeat and still arms its next occurrence', async () => {
    const { errors, handlers, scheduler, start, timeline } = withHeartbeat();
    handlers.set('hb', async () => {
      throw new Error('sweep failed');
    });
    await timeline.advance(31 * 86_400);
    expect(errors.map((e) => (e as Error).message)).toEqual(['sweep failed']);
    expect(scheduler.nextDueAt()).toBe(start + 31 * DAY + INTERVAL_S * 1000);
  });

  it('keeps the ticker firing the heartbeat at each of its occurrences', async () => {
    const { clock, ran, scheduler, start, timeline } = withHeartbeat();
    clock.advance(INTERVAL_S);
    await timeline.tick();
    expect(ran).toEqual([{ id: 'hb', at: start + INTERVAL_S * 1000 }]);
    expect(scheduler.nextDueAt()).toBe(start + 2 * INTERVAL_S * 1000);
  });
});

describe('Timeline.tick', () => {
  it('runs the sources due now side by side with the stream drain, until nothing is due', async () => {
    const clock = new TestClock();
    let inFlight = 0;
    let most = 0;
    const busy = async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      inFlight -= 1;
    };
    const source = (name: string, items: number): TimedSource => ({
      name,
      nextDueAt: () => (items > 0 ? clock.now().getTime() - 1 : undefined),
      runNext: async () => {
        await busy();
        items -= 1;
        return true;
      },
    });
    const bus = source('bus', 2);
    const queue = source('queue', 1);
    const timeline = new Timeline(clock, [bus, queue], [{ drain: busy }], () => undefined);
    await timeline.tick();
    expect(most).toBe(3);
    expect(bus.nextDueAt()).toBeUndefined();
    expect(queue.nextDueAt()).toBeUndefined();
  });
});

describe('Timeline drains', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for a paced drain on a background tick, and a full one on tick() and advance', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = new TestClock();
    const asked: (DrainOptions | undefined)[] = [];
    const timeline = new Timeline(
      clock,
      [],
      [{ drain: async (options) => void asked.push(options) }],
      () => undefined,
    );
    timeline.start(50);
    await vi.advanceTimersByTimeAsync(50);
    expect(asked).toEqual([{ paced: true }]);
    await timeline.stop();

    asked.length = 0;
    await timeline.tick();
    await timeline.advance(60);
    expect(asked.length).toBeGreaterThan(1);
    expect(asked.every((o) => !o?.paced)).toBe(true);
  });
});
