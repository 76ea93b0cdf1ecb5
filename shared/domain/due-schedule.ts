import type { Clock, ScheduledJob, Scheduler } from '#shared/domain/ports';

/**
 * The one-time schedule of a resource's due job, kept in step with its `dueAt` (subscriptions,
 * scheduled charges). The heartbeat's sweep of the due index is the backstop of every schedule.
 */

/** A schedule never targets the past: work already due runs a minute from now (the sweep is the backstop). */
export const MIN_LEAD_MS = 60_000;

export interface ScheduleDeps {
  scheduler: Scheduler;
  clock: Clock;
  /** The change is saved: a failed schedule is reported here and left to the heartbeat's sweep. */
  onScheduleError?: (error: unknown) => void;
}

/** What a resource's due job needs: its payload, and one schedule name per due time. */
export interface DueJob {
  payload: ScheduledJob;
  /** One name per resource and due time: a due time is never scheduled twice under two names. */
  nameAt(dueAt: string): string;
}

/**
 * Schedules the due job at `dueAt`. Scheduler `at()` expressions have whole seconds: the time is
 * rounded up, so the job never fires before `dueAt` and finds nothing due. Work already due runs a
 * minute from now, and a schedule of the same name may still be pending from an earlier save inside
 * that minute (a pause and a resume): it is replaced, since Scheduler refuses a second schedule of a
 * name. A failure is reported, not thrown: the change is saved and the heartbeat sweep runs it later.
 */
export async function scheduleAtDue(deps: ScheduleDeps, job: DueJob, dueAt: string | null): Promise<void> {
  if (!dueAt) return;
  const due = Math.ceil(Date.parse(dueAt) / 1000) * 1000;
  const soonest = deps.clock.now().getTime() + MIN_LEAD_MS;
  const name = job.nameAt(dueAt);
  try {
    if (due < soonest) await deps.scheduler.cancel(name);
    await deps.scheduler.scheduleAt(name, new Date(Math.max(due, soonest)), job.payload);
  } catch (error) {
    deps.onScheduleError?.(error);
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
  if (previousDueAt && Date.parse(previousDueAt) > deps.clock.now().getTime()) {
    await deps.scheduler.cancel(job.nameAt(previousDueAt)).catch((error) => deps.onScheduleError?.(error));
  }
  await scheduleAtDue(deps, job, nextDueAt);
}
