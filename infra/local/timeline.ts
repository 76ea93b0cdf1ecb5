import type { TestClock } from './clock';

/** How an advance asks a source for its work: without the periodic work it coalesces. */
export interface DueOptions {
  /** Leave out periodic work (rate() schedules); `runPeriodic` runs it once at the end instead. */
  skipPeriodic?: boolean;
}

/** A local stand-in for an AWS service that does work at given times (Scheduler, SQS, EventBridge). */
export interface TimedSource {
  readonly name: string;
  /** Epoch ms of the earliest pending work, or undefined. */
  nextDueAt(options?: DueOptions): number | undefined;
  /** Runs the work due at `now` (only the earliest item), returning whether anything ran. */
  runNext(now: Date, options?: DueOptions): Promise<boolean>;
  /**
   * Sources with periodic work: runs, once each, the periodic items with an occurrence due by `now`,
   * and re-arms each one interval after `now`. Returns how many ran.
   */
  runPeriodic?(now: Date): Promise<number>;
}

export interface DrainOptions {
  /** The ticker's drain: a source may skip it while it was idle a moment ago (the stream poller does). */
  paced?: boolean;
}

/** Something that must be caught up before time moves on (the DynamoDB stream poller). */
export interface Drainable {
  drain(options?: DrainOptions): Promise<void>;
}

/**
 * Drives every local service from the test clock. Between advances a ticker runs due work at
 * wall-clock speed; `advance` runs, in time order, everything that becomes due, setting the clock
 * to each item's time first, so a job due in 26 hours runs "at" its time.
 *
 * Periodic work (the rate() heartbeat) is coalesced by an advance: its occurrences inside the
 * window are skipped and it runs once, at the target time, then every interval from there. It is
 * a backstop sweep, and firing it every 5 simulated minutes made a month take minutes
 * (docs/decisions.md, "The local runtime and test clock").
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

  private async drainAll(options: DrainOptions = {}) {
    for (const d of this.drainables) {
      try {
        await d.drain(options);
      } catch (error) {
        // A failing stream consumer is retried on the next drain, as Lambda retries a batch.
        this.onError(error);
      }
    }
  }

  private earliest(limit: number, options: DueOptions): { source: TimedSource; at: number } | undefined {
    let best: { source: TimedSource; at: number } | undefined;
    for (const source of this.sources) {
      const at = source.nextDueAt(options);
      if (at !== undefined && at <= limit && (!best || at < best.at)) best = { source, at };
    }
    return best;
  }

  /** Runs everything due now (and what that work makes due now), then drains the streams. */
  private async runDueUntil(limit: () => number, moveClock: boolean, options: DueOptions = {}) {
    for (let guard = 0; guard < 100_000; guard++) {
      await this.drainAll();
      const next = this.earliest(limit(), options);
      if (!next) return;
      if (moveClock) this.clock.setTo(new Date(next.at));
      try {
        await next.source.runNext(this.clock.now(), options);
      } catch (error) {
        this.onError(error);
      }
    }
    throw new Error('timeline did not settle after 100000 steps');
  }

  private async runPeriodic(now: Date) {
    for (const source of this.sources) {
      try {
        await source.runPeriodic?.(now);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /**
   * Between advances the services run side by side, as they do on AWS: the streams are read while
   * the bus, the queue and the scheduler each run what is due now, so a long queue run does not
   * hold back the fan-out of the next events. Repeats until nothing is due.
   */
  private async runDueNow(drain: DrainOptions) {
    for (let guard = 0; guard < 100_000; guard++) {
      const now = this.clock.now();
      const due = this.sources.filter((source) => {
        const at = source.nextDueAt();
        return at !== undefined && at <= now.getTime();
      });
      const run = (source: TimedSource) => source.runNext(now).catch(this.onError);
      await Promise.all([this.drainAll(drain), ...due.map(run)]);
      if (due.length === 0 && !this.earliest(this.clock.now().getTime(), {})) return;
    }
    throw new Error('timeline did not settle after 100000 steps');
  }

  /** Runs what is due now, the streams read in full (a test or the bench settling the pipeline). */
  tick(): Promise<void> {
    return this.exclusive(() => this.runDueNow({}));
  }

  advance(seconds: number): Promise<Date> {
    return this.exclusive(async () => {
      const target = this.clock.now().getTime() + seconds * 1000;
      await this.runDueUntil(() => target, true, { skipPeriodic: true });
      this.clock.setTo(new Date(target));
      await this.runPeriodic(new Date(target));
      await this.runDueUntil(() => this.clock.now().getTime(), false);
      return this.clock.now();
    });
  }

  start(intervalMs = 200): void {
    // The background ticker's drains are paced: an idle stream is not read on every tick.
    this.timer = setInterval(() => {
      this.exclusive(() => this.runDueNow({ paced: true })).catch(this.onError);
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.chain;
  }
}
