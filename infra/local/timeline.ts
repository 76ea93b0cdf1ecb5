import type { TestClock } from './clock';

/** A local stand-in for an AWS service that does work at given times (Scheduler, SQS, EventBridge). */
export interface TimedSource {
  readonly name: string;
  /** Epoch ms of the earliest pending work, or undefined. */
  nextDueAt(): number | undefined;
  /** Runs the work due at `now` (only the earliest item), returning whether anything ran. */
  runNext(now: Date): Promise<boolean>;
}

/** Something that must be caught up before time moves on (the DynamoDB stream poller). */
export interface Drainable {
  drain(): Promise<void>;
}

/**
 * Drives every local service from the test clock. Between advances a ticker runs due work at
 * wall-clock speed; `advance` runs, in time order, everything that becomes due, setting the clock
 * to each item's time first, so a job due in 26 hours runs "at" its time.
 */
export class Timeline {
  private chain: Promise<unknown> = Promise.resolve();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly clock: TestClock,
    private readonly sources: TimedSource[],
    private readonly drainables: Drainable[],
    private readonly onError: (error: unknown) => void,
  ) {}

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async drainAll() {
    for (const d of this.drainables) {
      try {
        await d.drain();
      } catch (error) {
        // A failing stream consumer is retried on the next drain, as Lambda retries a batch.
        this.onError(error);
      }
    }
  }

  private earliest(limit: number): TimedSource | undefined {
    let best: TimedSource | undefined;
    let bestAt = Number.POSITIVE_INFINITY;
    for (const source of this.sources) {
      const at = source.nextDueAt();
      if (at !== undefined && at <= limit && at < bestAt) {
        best = source;
        bestAt = at;
      }
    }
    return best;
  }

  /** Runs everything due now (and what that work makes due now), then drains the streams. */
  private async runDueUntil(limit: () => number, moveClock: boolean) {
    for (let guard = 0; guard < 100_000; guard++) {
      await this.drainAll();
      const source = this.earliest(limit());
      if (!source) return;
      const at = source.nextDueAt() as number;
      if (moveClock) this.clock.setTo(new Date(at));
      try {
        await source.runNext(this.clock.now());
      } catch (error) {
        this.onError(error);
      }
    }
    throw new Error('timeline did not settle after 100000 steps');
  }

  tick(): Promise<void> {
    return this.exclusive(() => this.runDueUntil(() => this.clock.now().getTime(), false));
  }

  advance(seconds: number): Promise<Date> {
    return this.exclusive(async () => {
      const target = this.clock.now().getTime() + seconds * 1000;
      await this.runDueUntil(() => target, true);
      this.clock.setTo(new Date(target));
      await this.runDueUntil(() => this.clock.now().getTime(), false);
      return this.clock.now();
    });
  }

  start(intervalMs = 200): void {
    this.timer = setInterval(() => {
      this.tick().catch(this.onError);
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.chain;
  }
}
