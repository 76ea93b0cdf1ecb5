import type { Clock } from '#shared/domain/ports';

/** A clock that stands still unless a test moves it: every `now()` answers the same instant. */
export class FakeClock implements Clock {
  private ms: number;
  constructor(at: string | Date) {
    this.ms = new Date(at).getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  set(at: string | Date): void {
    this.ms = new Date(at).getTime();
  }
  advanceSeconds(seconds: number): void {
    this.ms += seconds * 1000;
  }
}
