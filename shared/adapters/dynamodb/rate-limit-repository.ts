import type { FailedAuthCounter, RateLimitRepository } from '#shared/domain/ports';
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

/** Past this many remembered clients, those of earlier windows are forgotten. */
const REMEMBERED_CLIENTS = 10_000;

/**
 * The failure count lives in a rate item of its own (`RATE#authfail:<client>`); the container
 * remembers the last count it read for each client, in the window it was read.
 */
export function createFailedAuthCounter(table: Table): FailedAuthCounter {
  const rates = createRateLimitRepository(table);
  const remembered = new Map<string, { window: number; count: number }>();
  return {
    known(client, window) {
      const entry = remembered.get(client);
      return entry?.window === window.index ? entry.count : 0;
    },
    async count(client, at, window) {
      const count = await rates.hit(`authfail:${client}`, at, window);
      if (remembered.size >= REMEMBERED_CLIENTS) {
        for (const [name, entry] of remembered) if (entry.window < window.index) remembered.delete(name);
      }
      const before = remembered.get(client);
      const known = before?.window === window.index ? before.count : 0;
      remembered.set(client, { window: window.index, count: Math.max(known, count) });
      return count;
    },
  };
}
