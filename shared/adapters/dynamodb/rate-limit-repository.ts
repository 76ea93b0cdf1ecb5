import type { FailedAuthCounter, RateLimitRepository } from '#shared/domain/ports';
import { type Key, keys } from './keys';
import { countRequest } from './rate-counter';
import { ConditionFailedError, type Item, type Table } from './table';

/** Counters outlive their window by this much at least (TTL deletion also lags by hours). */
const MIN_TTL_SECONDS = 3_600;

const same = (a: Key, b: Item) => a.pk === b.pk && a.sk === b.sk;

export function createRateLimitRepository(table: Table): RateLimitRepository {
  return {
    async hit(principal, at, window) {
      const result = await countRequest({
        table,
        key: keys.rate(principal),
        window,
        now: at,
        set: { entity: 'rate', version: 1 },
        // A day's window must not be deleted before it ends.
        ttlSeconds: Math.max(MIN_TTL_SECONDS, Math.ceil((window.resetsAt.getTime() - at.getTime()) / 1000)),
      });
      return result?.count ?? 1;
    },

    async peek(principals, at) {
      const wanted = principals.flatMap(({ principal }) => [keys.rate(principal), keys.rateHold(principal)]);
      const items = wanted.length > 0 ? await table.batchGet(wanted) : [];
      return principals.map(({ principal, window }) => {
        const counter = items.find((i) => same(keys.rate(principal), i));
        const hold = items.find((i) => same(keys.rateHold(principal), i));
        // The slot of the window's parity is this window's only when the last count fell in it.
        const current = counter && Number(counter.rlAt) >= window.startsAt.getTime();
        const until = hold ? Number(hold.heldUntil) : 0;
        return {
          count: current ? Number(counter[`rl${window.index % 2}`] ?? 0) : 0,
          heldUntil: until > at.getTime() ? new Date(until) : null,
        };
      });
    },

    async hold(principal, until) {
      try {
        await table.update({
          Key: keys.rateHold(principal),
          UpdateExpression: 'SET #entity = :entity, #version = :version, #until = :until, #ttl = :ttl',
          ConditionExpression: 'attribute_not_exists(#until) OR #until < :until',
          ExpressionAttributeNames: {
            '#entity': 'entity',
            '#version': 'version',
            '#until': 'heldUntil',
            '#ttl': 'ttl',
          },
          ExpressionAttributeValues: {
            ':entity': 'rate-hold',
            ':version': 1,
            ':until': until.getTime(),
            ':ttl': Math.floor(until.getTime() / 1000) + MIN_TTL_SECONDS,
          },
        });
      } catch (error) {
        // A longer hold is already there: it stands.
        if (!(error instanceof ConditionFailedError)) throw error;
      }
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
