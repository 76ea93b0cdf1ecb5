export interface Clock {
  now(): Date;
}

export interface Ids {
  uuid(): string;
  /** `prefix_` followed by random base62 characters from a CSPRNG. */
  prefixed(prefix: string, length?: number): string;
}

export interface Metrics {
  count(name: string, value?: number): void;
}

/**
 * A 32-byte key kept in the secret store (Secrets Manager on AWS, read once per container by the
 * functions granted it; a key file in the data folder locally; memory in tests). Never an
 * environment variable, never logged.
 */
export interface SecretKey {
  key(): Promise<Uint8Array>;
}

/**
 * Writes that stand or fall together: the creates and saves `work` makes through the repositories
 * are written when it returns, all of them or none. A write whose stored state is not what it
 * assumed throws that repository's ConflictError, and nothing is written; so does work that throws.
 * Reads inside see the state before any of the writes.
 */
export type Atomically = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * Where a use case reports a failure that must not fail it: the change it follows is committed
 * (a schedule, an e-mail, a clean-up after the write), and a sweep or the operator takes it from
 * the report. `what` says what could not be done; `context` names the item (a job id, a kind).
 */
export interface Reporter {
  error(what: string, error: unknown, context?: Record<string, unknown>): void;
}

/**
 * Whose time the business clock (`Deps.clock`) reads. Outside any scope it is real time (the local
 * runtime's global test clock); work run on a sandbox test clock reads that clock's frozen time,
 * through every adapter that reads the business clock, and finds its items by the clock's id.
 */
export interface ClockScope {
  /** The test clock the work in progress runs on, or null (real time). */
  current(): string | null;
  /** Runs `work` on test clock `clockId`: the business clock reads `time()` inside it. */
  run<T>(clockId: string, time: () => Date, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` in real time, out of any test clock's scope: the guards of a provider call in
   * flight (a registration's reconciler), which wait real minutes whatever clock the resource is on.
   */
  outside<T>(work: () => Promise<T>): Promise<T>;
}
