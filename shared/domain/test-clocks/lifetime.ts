import type { Deps } from '#shared/domain/deps';
import { NOTHING_DUE, type NothingDue, SWEEP_HOURS_BACK, sweepDue } from '#shared/domain/due-schedule';
import { jobId, parseJobId } from '#shared/domain/job-id';
import {
  TEST_CLOCK_DELETION_JOB,
  TEST_CLOCK_ID,
  TEST_CLOCK_LIFETIME_DAYS,
  type TestClock,
} from './test-clock';

/*
 * A test clock's lifetime: it deletes itself TEST_CLOCK_LIFETIME_DAYS after its creation, by a
 * one-time schedule with the heartbeat's sweep as backstop, as every scheduled move here.
 */

const DAY_MS = 86_400_000;

/** What a clock's deletion (DELETE, or its own at `deletesAfter`) needs. */
export type DeletionDeps = Pick<Deps, 'testClocks' | 'scheduler' | 'reporter'>;

/** The one-time schedule of a clock's deletion: one per clock. */
const deletionScheduleName = (clockId: string) => `test-clock-deletion-${clockId}`;

/**
 * When a clock made at `now` deletes itself: on the service's clock (real time on AWS, the local
 * runtime's global clock locally), the clock its schedule fires on and its sweep reads.
 */
export const deletesAfterCreation = (now: Date): string =>
  new Date(now.getTime() + TEST_CLOCK_LIFETIME_DAYS * DAY_MS).toISOString();

/** After the clock is saved: a failed schedule is reported and left to the heartbeat's sweep. */
export async function scheduleDeletion(
  deps: Pick<Deps, 'scheduler' | 'reporter'>,
  clock: TestClock,
): Promise<void> {
  await deps.scheduler
    .scheduleAt(deletionScheduleName(clock.id), new Date(clock.deletesAfter), {
      job: TEST_CLOCK_DELETION_JOB,
      id: jobId(clock.tenant, clock.id),
    })
    .catch((error) =>
      deps.reporter.error('could not schedule a test clock deletion', error, { id: clock.id }),
    );
}

/**
 * The deletion itself, DELETE's and the clock's own at `deletesAfter`: the clock goes and frees its
 * slot; its pending deletion schedule goes too (left, it would only find the clock gone). False
 * when another deletion came first.
 */
export async function removeTestClock(deps: DeletionDeps, clock: TestClock): Promise<boolean> {
  if (!(await deps.testClocks.delete(clock.tenant, clock.id))) return false;
  await deps.scheduler
    .cancel(deletionScheduleName(clock.id))
    .catch((error) =>
      deps.reporter.error('could not delete a test clock deletion schedule', error, { id: clock.id }),
    );
  return true;
}

/**
 * The job TEST_CLOCK_DELETION_JOB (its one-time schedule, or the heartbeat's sweep): deletes the
 * clock its id names once the service's clock is past its `deletesAfter`. Firing twice, early or
 * after a DELETE changes nothing.
 */
export async function deleteExpiredTestClock(
  deps: DeletionDeps & Pick<Deps, 'clock'>,
  id: string,
): Promise<{ outcome: 'deleted' } | NothingDue> {
  const ref = parseJobId(id, TEST_CLOCK_ID);
  const clock = ref && (await deps.testClocks.get(ref.tenant, ref.id));
  if (!clock || Date.parse(clock.deletesAfter) > deps.clock.now().getTime()) return NOTHING_DUE;
  return (await removeTestClock(deps, clock)) ? { outcome: 'deleted' } : NOTHING_DUE;
}

/** The heartbeat's backstop of the deletion schedules: the clocks past their `deletesAfter`. */
export async function sweepExpiredTestClocks(deps: DeletionDeps & Pick<Deps, 'clock'>) {
  const due = await deps.testClocks.dueDeletions(deps.clock.now(), SWEEP_HOURS_BACK);
  return sweepDue(deps, TEST_CLOCK_DELETION_JOB, due, (jobId) => deleteExpiredTestClock(deps, jobId));
}
