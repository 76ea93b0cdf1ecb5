import type { Clock } from '#shared/domain/ports';

/** A clock that only moves when told to, for driving the local services step by step. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  now(): Date {
    return new Date(this.ms);
  }
  set(at: number | Date): void {
    this.ms = typeof at === 'number' ? at : at.getTime();
  }
  plusSeconds(seconds: number): Date {
    return new Date(this.ms + seconds * 1000);
  }
}
