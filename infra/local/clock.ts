import type { Clock } from '#shared/domain/ports';

/**
 * The local runtime's clock: wall-clock speed, plus an offset that the test helper moves forward.
 * It never goes backwards.
 */
export class TestClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Moves forward to `target`; a target in the past changes nothing. */
  setTo(target: Date): void {
    const delta = target.getTime() - this.now().getTime();
    if (delta > 0) this.offsetMs += delta;
  }

  advance(seconds: number): void {
    if (seconds > 0) this.offsetMs += seconds * 1000;
  }
}
