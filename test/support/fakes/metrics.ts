import type { Metrics } from '#shared/domain/ports';

/** Sums what is counted, per metric name. */
export class FakeMetrics implements Metrics {
  readonly counts = new Map<string, number>();
  count(name: string, value = 1): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + value);
  }
}
