import type { Reporter } from '#shared/domain/ports';

export interface Report {
  what: string;
  error: unknown;
  context?: Record<string, unknown>;
}

/** Keeps what the use cases report, in order, for a test to assert on. */
export class FakeReporter implements Reporter {
  readonly reports: Report[] = [];
  error(what: string, error: unknown, context?: Record<string, unknown>): void {
    this.reports.push(context === undefined ? { what, error } : { what, error, context });
  }
  /** The reported errors alone. */
  get errors(): unknown[] {
    return this.reports.map((r) => r.error);
  }
}
