import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { toProfile } from './customer-queries';
import { customerOverdueEntity } from './entities/customer-links';
import { keys } from './keys';
import {
  alreadyExists,
  ConditionFailedError,
  contended,
  type Item,
  type Table,
  type TransactItem,
} from './table';

/** TransactWriteItems takes at most 100 entries. */
export const MAX_TRANSACT_ITEMS = 100;
/** Rounds on the customer's overdue count (lost compare-and-set or a concurrent transaction) before giving up. */
const OVERDUE_ROUNDS = 5;

/**
 * The writes that move a customer's overdue count by `delta` from the profile item as read: a
 * compare-and-set of the count read (the first write), the overdue marker put on 0 → 1 and
 * deleted on 1 → 0, so the marker flips exactly once. No writes when the count does not move (0 − 1).
 */
export function overdueCountWrites(
  tenant: Tenant,
  customerUuid: string,
  profile: Item,
  delta: number,
): { writes: TransactItem[]; before: number; after: number } {
  const before = Number(profile.overdueCount ?? 0);
  const after = Math.max(0, before + delta);
  if (after === before) return { writes: [], before, after };
  const marker = keys.customerOverdue(tenant, customerUuid);
  const writes: TransactItem[] = [
    {
      Update: {
        Key: keys.customerProfile(tenant, customerUuid),
        UpdateExpression: 'SET overdueCount = :after',
        ConditionExpression:
          before === 0
            ? 'attribute_exists(pk) AND (attribute_not_exists(overdueCount) OR overdueCount = :before)'
            : 'overdueCount = :before',
        ExpressionAttributeValues: { ':after': after, ':before': before },
      },
    },
  ];
  if (before === 0)
    writes.push({
      Put: {
        Item: customerOverdueEntity.toItem(toProfile(profile)),
      },
    });
  if (after === 0) writes.push({ Delete: { Key: marker } });
  return { writes, before, after };
}

/**
 * One TransactWriteItems of a state change (`fixed`, its conditioned item at index 0) and, with a
 * non-zero `overdue.delta`, the customer's overdue count moved by it (the profile read strongly
 * consistent each round; nothing for a missing profile). Without a delta it is a Table.write: inside
 * `atomically` it goes out with the unit's other writes (a create's customer check); with one it is
 * sent at once, its own transaction, since the count's compare-and-set is read and retried here. A race with another transaction on any of
 * these items (the customer's count, a shared list counter) and a lost compare-and-set of the count
 * are retried with the count read again; a failed condition at index 0 is the entity's
 * `already_exists` (creating) or `changed`, never retried (the next round would fail it again);
 * any other is a stored transaction (`already_exists`). More than 100 writes is an Error, nothing
 * written.
 */
export async function transactWithOverdueCount(
  table: Table,
  fixed: TransactItem[],
  /** Whose overdue count moves, by how much (0: it does not). */
  overdue: { tenant: Tenant; customerUuid: string; delta: number },
  options: {
    /** The entity whose item is at index 0 ("The scheduled charge"). */
    entity: string;
    /** A create (`attribute_not_exists`) rather than a versioned save. */
    creating: boolean;
    /** The caller's own reading of a failed condition (one of its entries), before the ones below. */
    failure?: (error: ConditionFailedError) => Error | undefined;
  },
): Promise<void> {
  const ownFailure = (error: ConditionFailedError): Error => {
    const own = options.failure?.(error);
    if (own) return own;
    if (error.failedIndexes.includes(0))
      return options.creating
        ? alreadyExists(options.entity)(error)
        : new ConflictError(`${options.entity} changed at the same time; retry`, 'concurrent_update', {
            reason: 'changed',
            cause: error,
          });
    return alreadyExists('The transaction')(error);
  };
  // Without a count to move the writes are fixed: one part of the caller's unit of work (Table.write).
  if (!overdue.delta) return table.write({ items: fixed, toError: ownFailure });
  for (let round = 1; ; round++) {
    let countWrites: TransactItem[] = [];
    if (overdue.delta) {
      const key = keys.customerProfile(overdue.tenant, overdue.customerUuid);
      const profile = await table.get<Item>(key, { consistent: true });
      if (profile)
        countWrites = overdueCountWrites(overdue.tenant, overdue.customerUuid, profile, overdue.delta).writes;
    }
    const writes = [...fixed, ...countWrites];
    if (writes.length > MAX_TRANSACT_ITEMS)
      throw new Error(
        `${options.entity} change of ${writes.length} writes exceeds TransactWriteItems' ${MAX_TRANSACT_ITEMS}`,
      );
    try {
      await table.transact(writes);
      return;
    } catch (error) {
      // Another transaction was writing one of these items: nothing was written; the next round
      // reads the count again, and a state that moved meanwhile fails its version condition then.
      if (contended(error) && round < OVERDUE_ROUNDS) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** round));
        continue;
      }
      if (!(error instanceof ConditionFailedError)) throw error;
      const countLost =
        countWrites.length > 0 &&
        error.failedIndexes.includes(fixed.length) &&
        !error.failedIndexes.some((i) => i < fixed.length);
      if (!countLost) throw ownFailure(error);
      if (round >= OVERDUE_ROUNDS)
        throw new ConflictError("The customer's overdue count is contended; retry", 'concurrent_update', {
          reason: 'changed',
          cause: error,
        });
    }
  }
}
