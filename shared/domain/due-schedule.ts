import type { Deps } from '#shared/domain/deps';
import type { ScheduledJob } from '#shared/domain/ports';
import { isConflict } from '#shared/errors';

/**
 * The due engine of every resource with time-driven work (scheduled charges, carnê, subscriptions,
 * saved cards' expiry): the resource keeps the next instant it has work (`dueAt`), one one-time
 * schedule fires its due job then, the job re-reads the resource and advances it by a save on the
 * version it read, and the heartbeat's sweep of the due index runs whatever a schedule missed.
 * Firing twice changes nothing: the second run finds nothing due, or loses the version race.
 */

/** How far back the heartbeat looks in the hour buckets of the due index for work a schedule missed. */
export const SWEEP_HOURS_BACK = 6;

export const NOTHING_DUE = { outcome: 'nothing_due' } as const;
export type NothingDue = typeof NOTHING_DUE;

/**
 * A due job's run: the resource its job id names (`read`; null when the id is not one or the
 * resource is gone; or it lives on another clock than the run's), then `advance`. Another run that saved first (ConflictError `changed`) means
 * the work is done: nothing due.
 */
export async function runDue<T extends object, O>(
  deps: Partial<Pick<Deps, 'clockScope'>>,
  read: () => Promise<T | null>,
  advance: (resource: T) => Promise<O | NothingDue>,
): Promise<O | NothingDue> {
  const resource = await read();
  // A resource on a sandbox test clock runs in that clock's advance only, one in real time never there.
  const clockId = (resource as { testClockId?: string | null } | null)?.testClockId ?? null;
  if (!resource || clockId !== (deps.clockScope?.current() ?? null)) return NOTHING_DUE;
  try {
    return await advance(resource);
  } catch (error) {
    if (isConflict(error, 'changed')) return NOTHING_DUE;
    throw error;
  }
}

/**
 * One save after another while the resource written still has work due by now (each save moves
 * its version on), `maxRounds` at most; the rest is left to its schedule. Null when nothing was due.
 */
export async function advanceWhileDue<T extends { version: number }>(
  advanceOnce: (resource: T) => Promise<T | null>,
  resource: T,
  maxRounds: number,
): Promise<T | null> {
  let last: T | null = null;
  let current = resource;
  for (let round = 0; round < maxRounds; round += 1) {
    const saved = await advanceOnce(current);
    if (!saved || saved.version === current.version) return last;
    last = saved;
    current = saved;
  }
  return last;
}

/**
 * The heartbeat's backstop of the one-time schedules: runs the due job of every id the due index
 * lists by now. One that fails is reported and left to the next beat; the others still run.
 */
export async function sweepDue(
  deps: Pick<Deps, 'reporter'>,
  job: string,
  dueIds: string[],
  run: (jobId: string) => Promise<{ outcome: string }>,
): Promise<{ due: number; ran: number }> {
  let ran = 0;
  for (const jobId of dueIds) {
    try {
      if ((await run(jobId)).outcome !== NOTHING_DUE.outcome) ran += 1;
    } catch (error) {
      deps.reporter.error('could not run a due job', error, { job, id: jobId });
    }
  }
  return { due: dueIds.length, ran };
}

/** A schedule never targets the past: work already due runs a minute from now (the sweep is the backstop). */
export const MIN_LEAD_MS = 60_000;

/** The change is saved: a failed schedule is reported and left to the heartbeat's sweep. */
export type ScheduleDeps = Pick<Deps, 'scheduler' | 'clock' | 'reporter'>;

/** What a resource's due job needs: its payload, and one schedule name per due time. */
export interface DueJob {
  payload: ScheduledJob;
  /** One name per resource and due time: a due time is never scheduled twice under two names. */
  nameAt(dueAt: string): string;
  /**
   * The sandbox test clock the resource lives on: its due work runs when that clock is advanced
   * (through the clock's due index), never on a real-time schedule.
   */
  testClockId?: string | null;
}

/**
 * Schedules the due job at `dueAt`. Scheduler `at()` expressions have whole seconds: the time is
 * rounded up, so the job never fires before `dueAt` and finds nothing due. Work already due runs a
 * minute from now, and a schedule of the same name may still be pending from an earlier save inside
 * that minute (a pause and a resume): it is replaced, since Scheduler refuses a second schedule of a
 * name. A failure is reported, not thrown: the change is saved and the heartbeat sweep runs it later.
 */
export async function scheduleAtDue(deps: ScheduleDeps, job: DueJob, dueAt: string | null): Promise<void> {
  if (!dueAt || job.testClockId) return;
  const due = Math.ceil(Date.parse(dueAt) / 1000) * 1000;
  const soonest = deps.clock.now().getTime() + MIN_LEAD_MS;
  const name = job.nameAt(dueAt);
  try {
    if (due < soonest) await deps.scheduler.cancel(name);
    await deps.scheduler.scheduleAt(name, new Date(Math.max(due, soonest)), job.payload);
  } catch (error) {
    deps.reporter.error('could not schedule a due job', error, { job: job.payload.job, id: job.payload.id });
  }
}

/**
 * After a saved change: a new due time is scheduled; the schedule of a due time that is gone and
 * still ahead is deleted (it would only find nothing due, but it would still run).
 */
export async function followDueAt(
  deps: ScheduleDeps,
  job: DueJob,
  previousDueAt: string | null,
  nextDueAt: string | null,
): Promise<void> {
  if (nextDueAt === previousDueAt) return;
  if (previousDueAt && !job.testClockId && Date.parse(previousDueAt) > deps.clock.now().getTime()) {
    await deps.scheduler.cancel(job.nameAt(previousDueAt)).catch((error) =>
      deps.reporter.error('could not delete a due job', error, {
        job: job.payload.job,
        id: job.payload.id,
      }),
    );
  }
  await scheduleAtDue(deps, job, nextDueAt);
}
