import type { Clock, ScheduledJob, Scheduler } from '#shared/domain/ports';
import { Persisted } from './persisted';
import type { TimedSource } from './timeline';

interface Entry {
  name: string;
  at: number;
  payload: ScheduledJob;
  /** Seconds between runs for rate() schedules; absent for one-time at() schedules. */
  everySeconds?: number;
  attempts: number;
}

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

  nextDueAt(): number | undefined {
    let min: number | undefined;
    for (const e of this.state.value.entries) if (min === undefined || e.at < min) min = e.at;
    return min;
  }

  async runNext(now: Date): Promise<boolean> {
    const due = [...this.state.value.entries].sort((a, b) => a.at - b.at)[0];
    if (!due || due.at > now.getTime()) return false;
    const entries = this.state.value.entries;
    entries.splice(entries.indexOf(due), 1);
    if (due.everySeconds) entries.push({ ...due, at: due.at + due.everySeconds * 1000, attempts: 0 });
    this.state.save();
    try {
      await this.target(due.payload);
    } catch (error) {
      const attempts = due.attempts + 1;
      const firstAt = due.at - due.attempts * 60_000;
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
}
