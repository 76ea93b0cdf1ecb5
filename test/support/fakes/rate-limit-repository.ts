import type { RateWindow } from '../../../shared/domain/auth/rate-limit';
import type { RateLimitRepository } from '../../../shared/domain/ports';

/** One fixed-window counter per principal: a request in a later window starts it again at 1. */
export class FakeRateLimitRepository implements RateLimitRepository {
  readonly windows = new Map<string, { window: number; count: number }>();

  async hit(principal: string, _at: Date, window: RateWindow): Promise<number> {
    const current = this.windows.get(principal);
    const count = current?.window === window.index ? current.count + 1 : 1;
    this.windows.set(principal, { window: window.index, count });
    return count;
  }
}
