import { describe, expect, it } from 'vitest';
import { clockScope, scopedClock } from '#shared/adapters/system/clock';
import { NOTHING_DUE, runDue } from '#shared/domain/due-schedule';
import type { ScheduledJob, TestClockRepository } from '#shared/domain/ports';
import type { BillingInterval } from '#shared/domain/subscriptions/price';
import { deleteExpiredTestClock, sweepExpiredTestClocks } from '#shared/domain/test-clocks/lifetime';
import {
  type ClockDueItem,
  TEST_CLOCK_DELETION_JOB,
  type TestClock,
  TestClockLimitError,
} from '#shared/domain/test-clocks/test-clock';
import { advanceTestClock, createTestClock } from '#shared/domain/test-clocks/test-clocks';
import { ConflictError } from '#shared/errors';
import { SequentialIds } from '../support/fakes/ids';
import { FakeReporter } from '../support/fakes/reporter';
import { FakeScheduler } from '../support/fakes/scheduler';

const TENANT = { sellerId: 7, environment: 'test' as const };
const START = '2026-11-28T12:00:00.000Z';
const wall = { now: () => new Date('2026-11-28T17:00:00.000Z') };
const business = scopedClock({ now: () => new Date('2026-11-28T17:00:00.000Z') });

/**
 * The clock and its due index in memory; `due` is what the due jobs leave on it, `periods` the
 * billing periods of the subscriptions on it.
 */
function fakeClocks(
  due: ClockDueItem[],
  periods: { billingInterval: BillingInterval; intervalCount: number }[] = [
    { billingInterval: 'month', intervalCount: 1 },
  ],
) {
  const clocks = new Map<string, TestClock>();
  const repo: TestClockRepository = {
    create: async (c, max) => {
      if (clocks.size >= max) throw new TestClockLimitError(max);
      clocks.set(c.id, c);
    },
    get: async (_t, id) => clocks.get(id) ?? null,
    list: async () => ({ items: [...clocks.values()] }),
    save: async (next, previous) => {
      if (clocks.get(next.id)?.version !== previous.version)
        throw new ConflictError('changed', 'x', { reason: 'changed' });
      clocks.set(next.id, next);
    },
    delete: async (_t, id) => clocks.delete(id),
    dueOn: async (_t, _id, until) =>
      due.filter((d) => d.dueAt <= until).sort((a, b) => a.dueAt.localeCompare(b.dueAt)),
    subscriptionPeriods: async () => periods,
    dueDeletions: async (now) =>
      [...clocks.values()]
        .filter((c) => c.deletesAfter <= now.toISOString())
        .map((c) => `${c.tenant.sellerId}:${c.tenant.environment}:${c.id}`),
  };
  return { clocks, repo };
}

function scene(
  due: ClockDueItem[],
  run: (job: ScheduledJob, at: Date) => void,
  periods?: Parameters<typeof fakeClocks>[1],
) {
  const { clocks, repo } = fakeClocks(due, periods);
  const deps = {
    testClocks: repo,
    clockScope,
    wallClock: wall,
    clock: business,
    scheduler: new FakeScheduler(),
    ids: new SequentialIds(),
    reporter: new FakeReporter(),
    runJob: async (job: ScheduledJob) => {
      expect(clockScope.current()).toMatch(/^clock_/);
      run(job, business.now());
      return {};
    },
  };
  return { clocks, deps };
}

describe('advancing a test clock', () => {
  it("runs the clock's due jobs in time order, each at its due time on the clock, then is ready at frozenTime", async () => {
    const due: ClockDueItem[] = [
      { kind: 'scheduled-charge', jobId: '7:test:sch_b', dueAt: '2026-12-10T03:00:00.000Z' },
      { kind: 'subscription', jobId: '7:test:1', dueAt: '2026-12-28T12:00:00.000Z' },
    ];
    const runs: [string, string, string][] = [];
    const { deps } = scene(due, (job, at) => {
      runs.push([job.job, job.id, at.toISOString()]);
      // The renewal moves the subscription's due time a month on, past the target.
      const i = due.findIndex((d) => d.jobId === job.id);
      if (job.job === 'subscription-due') due[i] = { ...due[i], dueAt: '2027-01-28T12:00:00.000Z' };
      else due.splice(i, 1);
    });
    const clock = await createTestClock(deps, TENANT, { frozenTime: START });
    const done = await advanceTestClock(deps, TENANT, clock.id, { frozenTime: '2026-12-28T13:00:00.000Z' });
    expect(runs).toEqual([
      ['scheduled-charge-due', '7:test:sch_b', '2026-12-10T03:00:00.000Z'],
      ['subscription-due', '7:test:1', '2026-12-28T12:00:00.000Z'],
    ]);
    expect(done).toMatchObject({ frozenTime: '2026-12-28T13:00:00.000Z', status: 'ready' });
    // Outside the advance the business clock is real time again.
    expect(business.now().toISOString()).toBe('2026-11-28T17:00:00.000Z');
  });

  it('refuses a target not later than the clock, or past two periods of the shortest subscription', async () => {
    const { deps } = scene([], () => undefined);
    const clock = await createTestClock(deps, TENANT, { frozenTime: START });
    const same = advanceTestClock(deps, TENANT, clock.id, { frozenTime: START });
    await expect(same).rejects.toMatchObject({ statusCode: 400 });
    await expect(same).rejects.toThrow(/frozenTime must be later/);
    const far = advanceTestClock(deps, TENANT, clock.id, { frozenTime: '2027-01-28T12:00:01.000Z' });
    await expect(far).rejects.toMatchObject({ statusCode: 400 });
    await expect(far).rejects.toThrow(/frozenTime may be at most 2027-01-28T12:00:00.000Z/);
  });

  it('refuses a target more than two years ahead when no subscription is on the clock', async () => {
    const { deps } = scene([], () => undefined, []);
    const clock = await createTestClock(deps, TENANT, { frozenTime: START });
    const far = advanceTestClock(deps, TENANT, clock.id, { frozenTime: '2028-11-28T12:00:01.000Z' });
    await expect(far).rejects.toMatchObject({ statusCode: 400 });
    await expect(far).rejects.toThrow(
      'frozenTime may be at most 2028-11-28T12:00:00.000Z: with no subscription on the clock, an advance moves at most 2 years',
    );
    const twoYears = await advanceTestClock(deps, TENANT, clock.id, {
      frozenTime: '2028-11-28T12:00:00.000Z',
    });
    expect(twoYears).toMatchObject({ status: 'ready', frozenTime: '2028-11-28T12:00:00.000Z' });
  });

  it('an advance cut short is finished by the same advance repeated; another target is a 409', async () => {
    let failOnce = true;
    const due: ClockDueItem[] = [
      { kind: 'subscription', jobId: '7:test:1', dueAt: '2026-12-01T00:00:00.000Z' },
    ];
    const { clocks, deps } = scene(due, () => {
      if (failOnce) {
        failOnce = false;
        throw new Error('the Lambda timed out');
      }
      due.splice(0, 1);
    });
    const clock = await createTestClock(deps, TENANT, { frozenTime: START });
    // The run fails: the job is reported and left, and the clock still becomes ready (as the sweep leaves a failure).
    const target = '2026-12-02T00:00:00.000Z';
    await advanceTestClock(deps, TENANT, clock.id, { frozenTime: target });
    expect(deps.reporter.reports).toHaveLength(1);
    // A clock left advancing (a timeout) resumes with the same target and refuses another.
    const stored = clocks.get(clock.id) as TestClock;
    clocks.set(clock.id, {
      ...stored,
      status: 'advancing',
      advancingTo: '2026-12-03T00:00:00.000Z',
      version: stored.version + 1,
    });
    await expect(
      advanceTestClock(deps, TENANT, clock.id, { frozenTime: '2026-12-04T00:00:00.000Z' }),
    ).rejects.toMatchObject({
      statusCode: 409,
      code: 'test_clock_advancing',
    });
    const resumed = await advanceTestClock(deps, TENANT, clock.id, {
      frozenTime: '2026-12-03T00:00:00.000Z',
    });
    expect(resumed).toMatchObject({ status: 'ready', frozenTime: '2026-12-03T00:00:00.000Z' });
    expect(due).toEqual([]);
  });

  it("runs a saved card's expiry step and a subscription of the same id due at the same time, each once", async () => {
    const at = '2027-01-01T03:00:00.000Z';
    const due: ClockDueItem[] = [
      { kind: 'payment-method', jobId: '7:test:1', dueAt: at },
      { kind: 'subscription', jobId: '7:test:1', dueAt: at },
    ];
    const runs: string[] = [];
    // Each job leaves its item due where it was (its next step is past the target): run once each.
    const { deps } = scene(due, (job) => void runs.push(job.job));
    const clock = await createTestClock(deps, TENANT, { frozenTime: START });
    await advanceTestClock(deps, TENANT, clock.id, { frozenTime: '2027-01-01T04:00:00.000Z' });
    expect(runs).toEqual(['payment-method-expiry', 'subscription-due']);
  });
});

describe("a test clock's lifetime and cap", () => {
  it('schedules its deletion 30 days after its creation on the service clock; the job deletes it then, once', async () => {
    const { clocks, deps } = scene([], () => undefined);
    const clock = await createTestClock(deps, TENANT, { frozenTime: START });
    expect(clock.deletesAfter).toBe('2026-12-28T17:00:00.000Z');
    const job = { job: TEST_CLOCK_DELETION_JOB, id: `7:test:${clock.id}` };
    expect(deps.scheduler.scheduled).toEqual([
      { name: `test-clock-deletion-${clock.id}`, at: new Date(clock.deletesAfter), payload: job },
    ]);
    // Early (a forged or early run): nothing happens.
    expect(await deleteExpiredTestClock(deps, job.id)).toBe(NOTHING_DUE);
    expect(clocks.has(clock.id)).toBe(true);
    const later = { ...deps, clock: { now: () => new Date('2026-12-28T17:00:00.000Z') } };
    expect(await deleteExpiredTestClock(later, job.id)).toEqual({ outcome: 'deleted' });
    expect(clocks.has(clock.id)).toBe(false);
    expect(deps.scheduler.canceled).toEqual([`test-clock-deletion-${clock.id}`]);
    // Fired twice, or by the sweep after it: nothing more.
    expect(await deleteExpiredTestClock(later, job.id)).toBe(NOTHING_DUE);
    expect(await sweepExpiredTestClocks(later)).toEqual({ due: 0, ran: 0 });
  });

  it('the sweep deletes the clocks past their deletesAfter that no schedule deleted; a job id of no clock changes nothing', async () => {
    const { clocks, deps } = scene([], () => undefined);
    const old = await createTestClock(deps, TENANT, { frozenTime: START });
    const later = { ...deps, clock: { now: () => new Date('2026-12-29T00:00:00.000Z') } };
    const young = await createTestClock(later, TENANT, { frozenTime: START });
    expect(await sweepExpiredTestClocks(later)).toEqual({ due: 1, ran: 1 });
    expect([...clocks.keys()]).toEqual([young.id]);
    expect(clocks.has(old.id)).toBe(false);
    expect(await deleteExpiredTestClock(later, '7:test:not-a-clock')).toBe(NOTHING_DUE);
  });

  it('a failed deletion schedule is reported; the clock is still created', async () => {
    const { clocks, deps } = scene([], () => undefined);
    deps.scheduler.failWith = new Error('throttled');
    const clock = await createTestClock(deps, TENANT, { frozenTime: START });
    expect(clocks.has(clock.id)).toBe(true);
    expect(deps.reporter.reports).toHaveLength(1);
  });
});

describe('the due engine and test clocks', () => {
  it('finds nothing due for an item on a clock outside its advance, and for a real-time item inside one', async () => {
    const onClock = { testClockId: 'clock_a' };
    const realTime = { testClockId: null };
    const advance = async () => ({ outcome: 'ran' });
    const deps = { clockScope };
    expect(await runDue(deps, async () => onClock, advance)).toBe(NOTHING_DUE);
    expect(await runDue(deps, async () => realTime, advance)).toEqual({ outcome: 'ran' });
    const inScope = (work: () => Promise<unknown>) => clockScope.run('clock_a', () => new Date(START), work);
    expect(await inScope(() => runDue(deps, async () => onClock, advance))).toEqual({ outcome: 'ran' });
    expect(await inScope(() => runDue(deps, async () => realTime, advance))).toBe(NOTHING_DUE);
    expect(await inScope(async () => business.now().toISOString())).toBe(START);
  });
});
