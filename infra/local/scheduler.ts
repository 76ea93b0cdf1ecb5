import type { Clock, ScheduledJob, Scheduler } from '#shared/domain/ports';
import { Persisted } from './persisted';
import type { DueOptions, TimedSource } from './timeline';

interface Entry {
  name: string;
  at: number;
  payload: ScheduledJob;
  /** Seconds between runs for rate() schedules; absent for one-time at() schedules. */
  everySeconds?: number;
  attempts: number;
}

/**
 * What EventBridge Scheduler's `<aws.scheduler.scheduled-time>` gives the jobs function in AWS: the
 * time the schedule was due (the first attempt's, on a retry), so local job lines carry a lag too.
 */
const withDueAt = (payload: ScheduledJob, dueAtMs: number): ScheduledJob & { dueAt: string } => ({
  ...payload,
  dueAt: new Date(dueAtMs).toISOString(),
});

/** Retry policy of our schedules: up to 185 attempts within 24 hours, as the stack configures. */
const MAX_ATTEMPTS = 185;
const MAX_EVENT_AGE_MS = 86_400_000;

export class ScheduleConflictError extends Error {
  constructor(name: string) {
    super(`Schedule ${name} already exists`);
    this.name = 'ConflictException';
  }
}

/**
 * EventBridge Scheduler, locally: named one-time schedules that fire at their time and delete
 * themselves (ActionAfterCompletion DELETE), rate() schedules, retries of a failed target, and a
 * dead-letter list after the retry policy is exhausted.
 */
export class LocalScheduler implements Scheduler, TimedSource {
  readonly name = 'scheduler';
  private readonly state: Persisted<{ entries: Entry[]; deadLetters: Entry[] }>;

  constructor(
    /** Kept for symmetry with the other local services; due times come from the timeline. */
    readonly clock: Clock,
    private readonly target: (payload: ScheduledJob) => Promise<unknown>,
    file: string | null,
  ) {
    this.state = new Persisted(file, { entries: [], deadLetters: [] });
  }

  get deadLetters(): readonly Entry[] {
    return this.state.value.deadLetters;
  }

  pending(): readonly Entry[] {
    return this.state.value.entries;
  }

  async scheduleAt(name: string, at: Date, payload: ScheduledJob): Promise<void> {
    if (this.state.value.entries.some((e) => e.name === name)) throw new ScheduleConflictError(name);
    this.state.value.entries.push({ name, at: at.getTime(), payload, attempts: 0 });
    this.state.save();
  }

  /** A rate() schedule; replaces one of the same name. */
  every(name: string, seconds: number, payload: ScheduledJob, firstAt: Date): void {
    this.state.value.entries = this.state.value.entries.filter((e) => e.name !== name);
    this.state.value.entries.push({
      name,
      at: firstAt.getTime(),
      payload,
      everySeconds: seconds,
      attempts: 0,
    });
    this.state.save();
  }

  async cancel(name: string): Promise<void> {
    this.state.value.entries = this.state.value.entries.filter((e) => e.name !== name);
    this.state.save();
  }

  private earliest(options: DueOptions): Entry | undefined {
    let min: Entry | undefined;
    for (const e of this.state.value.entries) {
      if (options.skipPeriodic && e.everySeconds) continue;
      if (!min || e.at < min.at) min = e;
    }
    return min;
  }

  nextDueAt(options: DueOptions = {}): number | undefined {
    return this.earliest(options)?.at;
  }

  async runNext(now: Date, options: DueOptions = {}): Promise<boolean> {
    const due = this.earliest(options);
    if (!due || due.at > now.getTime()) return false;
    const entries = this.state.value.entries;
    entries.splice(entries.indexOf(due), 1);
    if (due.everySeconds) entries.push({ ...due, at: due.at + due.everySeconds * 1000, attempts: 0 });
    this.state.save();
    const firstAt = due.at - due.attempts * 60_000;
    try {
      await this.target(withDueAt(due.payload, due.everySeconds ? due.at : firstAt));
    } catch (error) {
      const attempts = due.attempts + 1;
      if (due.everySeconds) throw error; // a missed rate() run is simply the next one
      if (attempts >= MAX_ATTEMPTS || now.getTime() - firstAt > MAX_EVENT_AGE_MS) {
        this.state.value.deadLetters.push({ ...due, attempts });
      } else {
        entries.push({ ...due, at: now.getTime() + 60_000, attempts });
      }
      this.state.save();
      throw error;
    }
    return true;
  }

  /**
   * What an advance does with rate() schedules: each one with an occurrence due by `now` runs once
   * (the occurrences it skipped are not made up) and is next due at its following occurrence.
   * A failed run is not retried, as in runNext.
   */
  async runPeriodic(now: Date): Promise<number> {
    const due = this.state.value.entries.filter((e) => e.everySeconds && e.at <= now.getTime());
    if (due.length === 0) return 0;
    // The occurrence that runs is the latest one due by now; the skipped ones are not made up.
    const runs = due.map((e) => {
      const everyMs = (e.everySeconds as number) * 1000;
      const dueAt = e.at + Math.floor((now.getTime() - e.at) / everyMs) * everyMs;
      // The next occurrence keeps the schedule's phase (a daily cron stays at its hour), after now.
      e.at = dueAt + everyMs;
      return withDueAt(e.payload, dueAt);
    });
    this.state.save();
    const errors: unknown[] = [];
    for (const run of runs) {
      try {
        await this.target(run);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'rate() schedules failed');
    return due.length;
  }
}
