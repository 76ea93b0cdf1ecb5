import { describe, expect, it } from 'vitest';
import { clockScope, scopedClock } from '#shared/adapters/system/clock';
import { NOTHING_DUE, runDue } from '#shared/domain/due-schedule';
import type { ScheduledJob, TestClockRepository } from '#shared/domain/ports';
import type { ClockDueItem, TestClock } from '#shared/domain/test-clocks/test-clock';
import { advanceTestClock, createTestClock } from '#shared/domain/test-clocks/test-clocks';
import { ConflictError } from '#shared/errors';
import { SequentialIds } from '../support/fakes/ids';
import { FakeReporter } from '../support/fakes/reporter';

const TENANT = { sellerId: 7, environment: 'test' as const };
const START = '2026-11-28T12:00:00.000Z';
const wall = { now: () => new Date('2026-11-28T17:00:00.000Z') };
const business = scopedClock({ now: () => new Date('2026-11-28T17:00:00.000Z') });

/** The clock and its due index in memory; `due` is what the due jobs leave on it. */
function fakeClocks(due: ClockDueItem[]) {
  const clocks = new Map<string, TestClock>();
  const repo: TestClockRepository = {
    create: async (c) => void clocks.set(c.id, c),
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
    subscriptionPeriods: async () => [{ billingInterval: 'month', intervalCount: 1 }],
  };
  return { clocks, repo };
}

function scene(due: ClockDueItem[], run: (job: ScheduledJob, at: Date) => void) {
  const { clocks, repo } = fakeClocks(due);
  const deps = {
    testClocks: repo,
    clockScope,
    wallClock: wall,
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
