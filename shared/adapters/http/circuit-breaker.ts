/**
 * A circuit breaker for one provider endpoint (docs/decisions.md, "A provider that is down").
 * Closed: calls go out; FAILURE_THRESHOLD consecutive failures (a timeout, a network failure, a 5xx)
 * open it. Open: calls fail fast for OPEN_MS without reaching the provider. Then half-open: one call
 * goes out as the probe while the others still fail fast; its success closes the circuit, its
 * failure opens it again for OPEN_MS. Any answer below 500 is a success: the provider is reachable.
 *
 * Kept in process, per container: see the decision record for why not in the table.
 */
export const FAILURE_THRESHOLD = 3;
export const OPEN_MS = 30_000;

export type CircuitState = 'closed' | 'open' | 'half_open';

export interface CircuitBreakerOptions {
  failureThreshold?: number;
  openMs?: number;
  /** Wall time in ms (the local runtime's skewable wall clock in tests). */
  now?: () => number;
}

export class CircuitBreaker {
  private failures = 0;
  /** 0 while closed; else when the open period ends and a probe may go out. */
  private openUntil = 0;
  private probing = false;

  constructor(private readonly options: CircuitBreakerOptions = {}) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  state(): CircuitState {
    if (this.openUntil === 0) return 'closed';
    return this.now() < this.openUntil ? 'open' : 'half_open';
  }

  /** Whether a call would be refused now, without taking the probe: the check before anything is written. */
  refuses(): boolean {
    const state = this.state();
    return state === 'open' || (state === 'half_open' && this.probing);
  }

  /**
   * Whether this call may go out. In half-open only the first caller gets true: it is the probe, and
   * must report its outcome (succeeded or failed).
   */
  tryCall(): boolean {
    const state = this.state();
    if (state === 'closed') return true;
    if (state === 'open' || this.probing) return false;
    this.probing = true;
    return true;
  }

  succeeded(): void {
    this.failures = 0;
    this.openUntil = 0;
    this.probing = false;
  }

  failed(): void {
    if (this.openUntil !== 0) {
      // A failed probe (or a call that went out before the circuit opened): open for another period.
      this.probing = false;
      this.openUntil = this.now() + (this.options.openMs ?? OPEN_MS);
      return;
    }
    this.failures += 1;
    if (this.failures >= (this.options.failureThreshold ?? FAILURE_THRESHOLD)) {
      this.failures = 0;
      this.openUntil = this.now() + (this.options.openMs ?? OPEN_MS);
    }
  }
}
