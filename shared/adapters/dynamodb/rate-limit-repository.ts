import type { RateWindow } from '#shared/domain/auth/rate-limit';
import { keys } from './keys';
import { countRequest } from './rate-counter';
import type { Table } from './table';

export interface RateLimitRepository {
  /** Counts one request of a principal (JWT subject, client IP) and returns the window's count. */
  hit(principal: string, at: Date, window: RateWindow): Promise<number>;
}

export function createRateLimitRepository(table: Table): RateLimitRepository {
  return {
    async hit(principal, at, window) {
      const result = await countRequest({
        table,
        key: keys.rate(principal),
        window,
        now: at,
        set: { entity: 'rate', version: 1 },
        ttlSeconds: 3_600,
      });
      return result?.count ?? 1;
    },
  };
}
