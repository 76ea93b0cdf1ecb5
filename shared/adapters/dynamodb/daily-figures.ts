import { addDays, daysBetween } from '#shared/dates';
import {
  type DayFigures,
  emptyDay,
  FIGURE_METHODS,
  type FigureCell,
  type FigureMethod,
  RECEIVABLE_KINDS,
  type ReceivableKind,
  SALE_FIELDS,
  type SaleField,
} from '#shared/domain/dashboard/figures';
import type { Tenant } from '#shared/domain/tenant';
import { type Key, keys } from './keys';
import type { Item, Table, TransactItem } from './table';

/**
 * A tenant's daily figures (docs/decisions.md, "The home's daily figures"): one item per
 * shard and block of BLOCK_DAYS days, each day's numbers as flat attributes (`<offset><method><field>`,
 * `<offset>r<kind>`), moved with ADD in the same TransactWriteItems as the transaction that changes
 * them. A block stays under 1 KB (1 WCU a write) with every method on every day; the shard is the
 * transaction id modulo SHARDS, so one transaction always moves the same shard.
 */
export const BLOCK_DAYS = 4;
export const SHARDS = 2;
export const FIGURES_ENTITY = 'daily-figures';

const EPOCH = '1970-01-01';
const METHOD_CODE: Record<FigureMethod, string> = { pix: 'x', boleto: 'b', card: 'c', pixAutomatic: 'a' };
const FIELD_CODE: Record<SaleField, string> = { gross: 'g', net: 'n', count: 'k', declined: 'd' };
const RECEIVABLE_CODE: Record<ReceivableKind, string> = {
  pendingPix: 'p',
  pendingBoleto: 'b',
  card: 'c',
  boletoClearing: 'l',
};

/** The first day of the block holding `day`, and the day's offset inside it. */
function blockOf(day: string): { firstDay: string; offset: number } {
  const n = daysBetween(EPOCH, day);
  const offset = ((n % BLOCK_DAYS) + BLOCK_DAYS) % BLOCK_DAYS;
  return { firstDay: addDays(day, -offset), offset };
}

function attributeOf(cell: FigureCell, offset: number): string {
  return cell.kind === 'sale'
    ? `${offset}${METHOD_CODE[cell.method]}${FIELD_CODE[cell.field]}`
    : `${offset}r${RECEIVABLE_CODE[cell.receivable]}`;
}

/** The ADDs that move the figures by `cells` (one UpdateItem per block touched; none for no cells). */
export function figureUpdates(tenant: Tenant, shardOf: number, cells: readonly FigureCell[]): TransactItem[] {
  const shard = shardOf % SHARDS;
  const blocks = new Map<string, Map<string, number>>();
  for (const cell of cells) {
    const { firstDay, offset } = blockOf(cell.day);
    const sums = blocks.get(firstDay) ?? new Map<string, number>();
    blocks.set(firstDay, sums);
    const name = attributeOf(cell, offset);
    sums.set(name, (sums.get(name) ?? 0) + cell.amount);
  }
  const updates: TransactItem[] = [];
  for (const [firstDay, sums] of blocks) {
    const moved = [...sums].filter(([, amount]) => amount !== 0);
    if (moved.length === 0) continue;
    const names: Record<string, string> = { '#ver': 'version' };
    const values: Item = { ':e': FIGURES_ENTITY, ':ver': 1 };
    const adds = moved.map(([name, amount], i) => {
      names[`#a${i}`] = name;
      values[`:a${i}`] = amount;
      return `#a${i} :a${i}`;
    });
    updates.push({
      Update: {
        Key: keys.dailyFigures(tenant, shard, firstDay),
        UpdateExpression: `ADD ${adds.join(', ')} SET entity = :e, #ver = :ver`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    });
  }
  return updates;
}

/** The keys holding the days of `ranges` (inclusive, YYYY-MM-DD), every shard of every block. */
export function figureKeys(tenant: Tenant, ranges: readonly { from: string; to: string }[]): Key[] {
  const firstDays = new Set<string>();
  for (const { from, to } of ranges) {
    for (let day = blockOf(from).firstDay; day <= to; day = addDays(day, BLOCK_DAYS)) firstDays.add(day);
  }
  return [...firstDays].flatMap((firstDay) =>
    Array.from({ length: SHARDS }, (_, shard) => keys.dailyFigures(tenant, shard, firstDay)),
  );
}

/** The figures of the days of `ranges`, summed over shards (a day nothing touched is absent). */
export async function readFigures(
  table: Table,
  tenant: Tenant,
  ranges: readonly { from: string; to: string }[],
): Promise<{ days: Map<string, DayFigures>; itemsRead: number }> {
  const items = await table.batchGet<Item>(figureKeys(tenant, ranges));
  const days = new Map<string, DayFigures>();
  for (const item of items) {
    const firstDay = String(item.sk).slice('DAYS#'.length);
    for (let offset = 0; offset < BLOCK_DAYS; offset++) {
      const day = addDays(firstDay, offset);
      let figures: DayFigures | undefined;
      const at = () => {
        figures ??= days.get(day) ?? emptyDay();
        days.set(day, figures);
        return figures;
      };
      for (const method of FIGURE_METHODS) {
        for (const field of SALE_FIELDS) {
          const value = item[`${offset}${METHOD_CODE[method]}${FIELD_CODE[field]}`];
          if (typeof value === 'number') at().sales[method][field] += value;
        }
      }
      for (const kind of RECEIVABLE_KINDS) {
        const value = item[`${offset}r${RECEIVABLE_CODE[kind]}`];
        if (typeof value === 'number') at().receivables[kind] += value;
      }
    }
  }
  return { days, itemsRead: items.length };
}
