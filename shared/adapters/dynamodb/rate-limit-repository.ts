import type { RateLimitRepository } from '#shared/domain/ports';
import { keys } from './keys';
import { countRequest } from './rate-counter';
import type { Table } from './table';

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
