import type { ScheduledJob, Scheduler } from '#shared/domain/ports';

export interface ScheduledCall {
  name: string;
  at: Date;
  payload: ScheduledJob;
}

/** Records one-time schedules; `failWith` makes the next scheduleAt calls reject. */
export class FakeScheduler implements Scheduler {
  readonly scheduled: ScheduledCall[] = [];
  readonly canceled: string[] = [];
  failWith: Error | null = null;
  async scheduleAt(name: string, at: Date, payload: ScheduledJob): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.scheduled.push({ name, at, payload });
  }
  async cancel(name: string): Promise<void> {
    this.canceled.push(name);
  }
}
