import type { RateWindow } from '#shared/domain/auth/rate-limit';
import type { RateLimitRepository, RateState } from '#shared/domain/ports';

/** One fixed-window counter per principal: a request in a later window starts it again at 1. */
export class FakeRateLimitRepository implements RateLimitRepository {
  readonly windows = new Map<string, { window: number; count: number }>();
  readonly holds = new Map<string, number>();

  async hit(principal: string, _at: Date, window: RateWindow): Promise<number> {
    const current = this.windows.get(principal);
    const count = current?.window === window.index ? current.count + 1 : 1;
    this.windows.set(principal, { window: window.index, count });
    return count;
  }

  async peek(
    principals: readonly { principal: string; window: RateWindow }[],
    at: Date,
  ): Promise<RateState[]> {
    return principals.map(({ principal, window }) => {
      const current = this.windows.get(principal);
      const until = this.holds.get(principal) ?? 0;
      return {
        count: current?.window === window.index ? current.count : 0,
        heldUntil: until > at.getTime() ? new Date(until) : null,
      };
    });
  }

  async hold(principal: string, until: Date): Promise<void> {
    this.holds.set(principal, Math.max(this.holds.get(principal) ?? 0, until.getTime()));
  }
}
