import type { RateWindow } from '#shared/domain/auth/rate-limit';
import { ConditionFailedError, type Item, type Table } from './table';

/**
 * Counting requests per fixed window inside the item that authentication reads anyway, so that
 * authentication and rate limiting cost one UpdateItem.
 *
 * Two slots alternate by window parity (rl0, rl1); each request adds to its window's slot and
 * removes the other. A slot that exists was therefore written in the current window, unless the
 * item sat idle for an even number of windows: `rlAt` (epoch ms of the last count) tells that case
 * apart, the condition fails, and one more UpdateItem resets the slot. Steady traffic: one round
 * trip; the first request after such an idle gap: two.
 */
export interface CountOptions {
  table: Table;
  key: { pk: string; sk: string };
  window: RateWindow;
  now: Date;
  /** Extra condition the item must meet (API key exists and is not revoked). */
  guard?: string;
  /** Values the guard names (`:g…`), beside the counter's own. */
  guardValues?: Record<string, unknown>;
  /**
   * Whether the item a failed condition returned still meets the guard (then the window slot was
   * the failure). Default: the item exists and is not revoked.
   */
  guardHolds?: (existing: Item | undefined) => boolean;
  set?: Record<string, unknown>;
  ttlSeconds?: number;
}

export interface CountResult {
  item: Item;
  count: number;
}

export async function countRequest(options: CountOptions): Promise<CountResult | null> {
  const slot = `rl${options.window.index % 2}`;
  const other = `rl${(options.window.index + 1) % 2}`;
  const names: Record<string, string> = { '#cur': slot, '#other': other, '#rlAt': 'rlAt' };
  const values: Record<string, unknown> = {
    ':now': options.now.getTime(),
    ':start': options.window.startsAt.getTime(),
    ...options.guardValues,
  };
  const sets = ['#rlAt = :now'];
  for (const [i, [k, v]] of Object.entries(options.set ?? {}).entries()) {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    sets.push(`#s${i} = :s${i}`);
  }
  if (options.ttlSeconds) {
    names['#ttl'] = 'ttl';
    values[':ttl'] = Math.floor(options.now.getTime() / 1000) + options.ttlSeconds;
    sets.push('#ttl = :ttl');
  }
  const guard = options.guard ? `${options.guard} AND ` : '';
  const holds = options.guardHolds ?? guardStillHolds;

  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const item = await options.table.update<Item>({
        Key: options.key,
        UpdateExpression: `SET ${sets.join(', ')} ADD #cur :one REMOVE #other`,
        ConditionExpression: `${guard}(attribute_not_exists(#cur) OR #rlAt >= :start)`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':one': 1 },
        ReturnValues: 'ALL_NEW',
      });
      return { item: item ?? {}, count: Number(item?.[slot] ?? 1) };
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      if (options.guard && !holds(error.existing)) return null;
    }
    try {
      // The slot is left over from an idle gap: start the window at 1.
      const item = await options.table.update<Item>({
        Key: options.key,
        UpdateExpression: `SET ${sets.join(', ')}, #cur = :one REMOVE #other`,
        ConditionExpression: `${guard}#rlAt < :start`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':one': 1 },
        ReturnValues: 'ALL_NEW',
      });
      return { item: item ?? {}, count: 1 };
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      if (options.guard && !holds(error.existing)) return null;
      // Another request reset the window first: count on top of it.
    }
  }
  throw new Error('rate counter did not settle after 3 attempts');
}

/** The guards used here are "the item exists and is not revoked". */
function guardStillHolds(existing: Item | undefined): boolean {
  return existing !== undefined && existing.revokedAt === undefined;
}
