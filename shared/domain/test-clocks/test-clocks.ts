import type { Deps } from '#shared/domain/deps';
import { INSTALLMENT_PLAN_DUE_JOB } from '#shared/domain/installment-plans/plan';
import { PAYMENT_METHOD_EXPIRY_JOB } from '#shared/domain/payment-methods/expiry';
import type { ScheduledJob } from '#shared/domain/ports';
import { SCHEDULED_CHARGE_DUE_JOB } from '#shared/domain/scheduled-charges/charge';
import { periodEnd } from '#shared/domain/subscriptions/periods';
import { SUBSCRIPTION_DUE_JOB } from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';
import { type DeletionDeps, deletesAfterCreation, removeTestClock, scheduleDeletion } from './lifetime';
import {
  type AdvanceTestClockInput,
  type ClockDueKind,
  type CreateTestClockInput,
  MAX_PERIODS_PER_ADVANCE,
  MAX_RUNS_PER_ADVANCE,
  MAX_TEST_CLOCKS,
  MAX_YEARS_PER_ADVANCE,
  TEST_CLOCK_NOT_FOUND,
  type TestClock,
  toTestClockView,
} from './test-clock';

export type TestClockDeps = Pick<Deps, 'testClocks' | 'clockScope' | 'wallClock' | 'ids' | 'reporter'>;

/** A creation also schedules the clock's deletion on the service's clock. */
export type CreateDeps = TestClockDeps & Pick<Deps, 'clock' | 'scheduler'>;

export interface AdvanceDeps extends TestClockDeps {
  /** Runs one due job through the jobs' own dispatch (shared/jobs.ts), as its schedule would. */
  runJob(job: ScheduledJob): Promise<{ outcome?: string } | unknown>;
}

/** The due job each kind of resource on a clock runs: the same the real-time schedules fire. */
const DUE_JOB: Record<ClockDueKind, string> = {
  subscription: SUBSCRIPTION_DUE_JOB,
  'scheduled-charge': SCHEDULED_CHARGE_DUE_JOB,
  'installment-plan': INSTALLMENT_PLAN_DUE_JOB,
  'payment-method': PAYMENT_METHOD_EXPIRY_JOB,
};

async function found(deps: Pick<Deps, 'testClocks'>, tenant: Tenant, id: string): Promise<TestClock> {
  const clock = await deps.testClocks.get(tenant, id);
  if (!clock) throw new NotFoundError(TEST_CLOCK_NOT_FOUND);
  return clock;
}

/**
 * POST /api/test-helpers/test-clocks: a sandbox clock at `frozenTime`, ready, one of at most
 * MAX_TEST_CLOCKS of the tenant, deleting itself TEST_CLOCK_LIFETIME_DAYS later (a one-time
 * schedule; the heartbeat's sweep runs what the schedule missed).
 */
export async function createTestClock(deps: CreateDeps, tenant: Tenant, input: CreateTestClockInput) {
  const now = deps.wallClock.now().toISOString();
  const clock: TestClock = {
    tenant,
    id: deps.ids.prefixed('clock', 24),
    name: input.name ?? null,
    frozenTime: input.frozenTime,
    status: 'ready',
    advancingTo: null,
    createdAt: now,
    updatedAt: now,
    deletesAfter: deletesAfterCreation(deps.clock.now()),
    version: 1,
  };
  await deps.testClocks.create(clock, MAX_TEST_CLOCKS);
  await scheduleDeletion(deps, clock);
  return toTestClockView(clock);
}

export async function getTestClock(deps: Pick<Deps, 'testClocks'>, tenant: Tenant, id: string) {
  return toTestClockView(await found(deps, tenant, id));
}

export async function listTestClocks(
  deps: Pick<Deps, 'testClocks'>,
  tenant: Tenant,
  query: { limit: number; cursor?: string },
) {
  const page = await deps.testClocks.list(tenant, query);
  return { data: page.items.map(toTestClockView), nextCursor: page.cursor ?? null };
}

/**
 * DELETE /api/test-helpers/test-clocks/{id}: the clock goes; what lived on it stays on it, frozen
 * (no schedule, sweep or advance runs it again), and its customers' new subscriptions, charges and
 * carnês are refused (docs/decisions.md, "Test clocks per sandbox seller").
 */
export async function deleteTestClock(deps: DeletionDeps, tenant: Tenant, id: string) {
  const clock = await found(deps, tenant, id);
  if (!(await removeTestClock(deps, clock))) throw new NotFoundError(TEST_CLOCK_NOT_FOUND);
  return { id: clock.id, deleted: true as const };
}

/**
 * The latest time an advance from the clock's frozenTime may reach, and why (Stripe's limits): two
 * billing periods of the shortest subscription on it, or two years when no subscription on it has
 * work due.
 */
async function advanceLimit(
  deps: Pick<Deps, 'testClocks'>,
  clock: TestClock,
): Promise<{ limit: string; rule: string }> {
  const periods = await deps.testClocks.subscriptionPeriods(clock.tenant, clock.id);
  let limit: string | null = null;
  for (const p of periods) {
    const end = periodEnd(clock.frozenTime, p.billingInterval, p.intervalCount, MAX_PERIODS_PER_ADVANCE);
    if (limit === null || Date.parse(end) < Date.parse(limit)) limit = end;
  }
  if (limit !== null)
    return {
      limit,
      rule: `an advance moves at most ${MAX_PERIODS_PER_ADVANCE} billing periods of the shortest subscription on the clock`,
    };
  return {
    limit: periodEnd(clock.frozenTime, 'year', 1, MAX_YEARS_PER_ADVANCE),
    rule: `with no subscription on the clock, an advance moves at most ${MAX_YEARS_PER_ADVANCE} years`,
  };
}

/**
 * POST /api/test-helpers/test-clocks/{id}/advance: moves the clock to `frozenTime`, running in time
 * order the due work of its items up to then through the due jobs the schedules fire (renewals,
 * retries, reminders, issuance, expiry), each at its due time on the clock. The clock is
 * `advancing` meanwhile; an advance cut short (a timeout, MAX_RUNS_PER_ADVANCE) is resumed by the
 * same request repeated: the due jobs find done work done.
 */
export async function advanceTestClock(
  deps: AdvanceDeps,
  tenant: Tenant,
  id: string,
  input: AdvanceTestClockInput,
) {
  const stored = await found(deps, tenant, id);
  const target = input.frozenTime;
  let clock = stored;
  if (stored.status === 'advancing') {
    if (stored.advancingTo !== target)
      throw new ConflictError(
        `The test clock is advancing to ${stored.advancingTo}: repeat that advance to finish it`,
        'test_clock_advancing',
      );
  } else {
    if (Date.parse(target) <= Date.parse(stored.frozenTime))
      throw new ValidationError([
        `frozenTime must be later than the clock's frozenTime (${stored.frozenTime})`,
      ]);
    const { limit, rule } = await advanceLimit(deps, stored);
    if (Date.parse(target) > Date.parse(limit))
      throw new ValidationError([`frozenTime may be at most ${limit}: ${rule}`]);
    clock = {
      ...stored,
      status: 'advancing',
      advancingTo: target,
      updatedAt: deps.wallClock.now().toISOString(),
      version: stored.version + 1,
    };
    await deps.testClocks.save(clock, stored);
  }
  await runDueWork(deps, clock, target);
  const ready: TestClock = {
    ...clock,
    status: 'ready',
    frozenTime: target,
    advancingTo: null,
    updatedAt: deps.wallClock.now().toISOString(),
    version: clock.version + 1,
  };
  await deps.testClocks.save(ready, clock);
  return toTestClockView(ready);
}

/**
 * Runs the clock's due work up to `target`, earliest first, each job at its due time (never before
 * the time the clock reached). A job that fails is reported and left (as the heartbeat's sweep
 * leaves it); a job that leaves its resource due at the same time is not run twice.
 */
async function runDueWork(deps: AdvanceDeps, clock: TestClock, target: string): Promise<void> {
  let reached = Date.parse(clock.frozenTime);
  const ran = new Set<string>();
  for (let runs = 0; runs < MAX_RUNS_PER_ADVANCE; runs += 1) {
    const due = await deps.testClocks.dueOn(clock.tenant, clock.id, target);
    // By kind too: a subscription and a saved card may have the same numeric id and due time.
    const next = due.find((item) => !ran.has(`${item.kind}:${item.jobId}@${item.dueAt}`));
    if (!next) return;
    ran.add(`${next.kind}:${next.jobId}@${next.dueAt}`);
    reached = Math.max(reached, Date.parse(next.dueAt));
    const at = new Date(reached);
    try {
      await deps.clockScope.run(
        clock.id,
        () => at,
        () => Promise.resolve(deps.runJob({ job: DUE_JOB[next.kind], id: next.jobId })),
      );
    } catch (error) {
      deps.reporter.error('could not run a due job on a test clock', error, {
        job: DUE_JOB[next.kind],
        id: next.jobId,
      });
    }
  }
  throw new ConflictError(
    `The advance ran ${MAX_RUNS_PER_ADVANCE} due jobs: repeat it to run the rest`,
    'test_clock_advancing',
  );
}
