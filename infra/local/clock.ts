import type { Clock } from '#shared/domain/ports';
import { Persisted } from './persisted';

/**
 * The local runtime's business clock: wall-clock speed, plus an offset that the test helper moves
 * forward. It never goes backwards, and the offset is kept in the data folder (`clock.json`), so a
 * restart goes on from the time the last run reached.
 */
export class TestClock implements Clock {
  private readonly state: Persisted<{ offsetMs: number }>;

  constructor(file: string | null = null) {
    this.state = new Persisted(file, { offsetMs: 0 });
    const kept = this.state.value.offsetMs;
    if (!Number.isFinite(kept) || kept < 0) this.state.value = { offsetMs: 0 };
  }

  /** How far ahead of real time the clock is, in milliseconds (0 until it is advanced). */
  get offsetMs(): number {
    return this.state.value.offsetMs;
  }

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Moves forward to `target`; a target in the past changes nothing. */
  setTo(target: Date): void {
    const delta = target.getTime() - this.now().getTime();
    if (delta > 0) this.move(delta);
  }

  advance(seconds: number): void {
    if (seconds > 0) this.move(seconds * 1000);
  }

  private move(deltaMs: number): void {
    this.state.value = { offsetMs: this.offsetMs + deltaMs };
    this.state.save();
  }
}

/**
 * Real time, for what the test clock must not move: credentials (API keys, dashboard tokens), the
 * request rate limit and webhook signatures. No route moves it; a test in the same process may skew
 * it forward to start a fresh rate window without waiting a minute.
 */
export class WallClock implements Clock {
  private skewMs = 0;

  now(): Date {
    return new Date(Date.now() + this.skewMs);
  }

  skew(seconds: number): void {
    if (seconds > 0) this.skewMs += seconds * 1000;
  }
}
