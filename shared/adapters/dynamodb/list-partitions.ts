import { type Key, keys } from './keys';
import type { Item, Table, TransactItem } from './table';

/** The entity of a list partition's counter item. */
export const COUNTER_ENTITY = 'counter';

/** One index partition an entity is listed in, counted by the counter item of `scope`. */
export interface ListPartition {
  scope: string;
  index: { name: string; partitionKey: string; sortKey: string };
  value: string;
}

/** The index attributes that put an item in each of its list partitions, sorted by `order`. */
export function partitionAttributes(partitions: readonly ListPartition[], order: string): Item {
  const item: Item = {};
  for (const p of partitions) {
    item[p.index.partitionKey] = p.value;
    item[p.index.sortKey] = order;
  }
  return item;
}

/**
 * The counter of one list partition moved by `delta`. It lives inside the partition it counts
 * (index sort key `~COUNT`, after every item's), so a newest-first read meets it first and a total
 * costs no query of its own (docs/decisions.md, "List totals").
 */
export function counterUpdate(key: Key, p: ListPartition, delta: number): TransactItem {
  return {
    Update: {
      Key: key,
      UpdateExpression: 'ADD #c :d SET entity = :e, #ver = :ver, #ipk = :ipk, #isk = :isk',
      ExpressionAttributeNames: {
        '#c': 'count',
        '#ver': 'version',
        '#ipk': p.index.partitionKey,
        '#isk': p.index.sortKey,
      },
      ExpressionAttributeValues: {
        ':d': delta,
        ':e': COUNTER_ENTITY,
        ':ver': 1,
        ':ipk': p.value,
        ':isk': keys.counterSortKey,
      },
    },
  };
}

/**
 * Counters of the partitions an entity leaves go down, those it enters go up (`before` null: a
 * creation). Both lists name the same partitions in the same order; `counterKey` keys a scope.
 */
export function counterMoves(
  before: readonly ListPartition[] | null,
  after: readonly ListPartition[],
  counterKey: (scope: string) => Key,
): TransactItem[] {
  return after.flatMap((p, i) => {
    const old = before?.[i];
    if (old && old.value === p.value) return [];
    return [
      ...(old ? [counterUpdate(counterKey(old.scope), old, -1)] : []),
      counterUpdate(counterKey(p.scope), p, 1),
    ];
  });
}

/**
 * The first `wanted` items of each partition, newest first, and the partitions' counters summed
 * (each met first, so no query of its own): the unfiltered read of a list whose every filter is a
 * partition. Each partition is read up to the page's end, never past it.
 */
export async function readNewestFirst(
  table: Table,
  partitions: readonly Pick<ListPartition, 'index' | 'value'>[],
  wanted: number,
): Promise<{ rows: Item[]; totalCount: number; itemsRead: number }> {
  const rows: Item[] = [];
  let totalCount = 0;
  let itemsRead = 0;
  for (const p of partitions) {
    let taken = 0;
    let first = true;
    let cursor: string | undefined;
    do {
      const page = await table.query<Item>({
        IndexName: p.index.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': p.index.partitionKey },
        ExpressionAttributeValues: { ':pk': p.value },
        ScanIndexForward: false,
        // Exactly the rows this partition can still add (plus its counter on the first read).
        Limit: Math.min(500, wanted - taken + (first ? 1 : 0)),
        cursor,
      });
      first = false;
      itemsRead += page.scanned ?? page.items.length;
      for (const item of page.items) {
        if (item.entity === COUNTER_ENTITY) totalCount += Number(item.count ?? 0);
        else {
          rows.push(item);
          taken++;
        }
      }
      cursor = page.cursor;
    } while (cursor && taken < wanted);
  }
  return { rows, totalCount, itemsRead };
}
