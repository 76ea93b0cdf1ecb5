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
