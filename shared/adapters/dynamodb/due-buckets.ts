import { jobId } from '#shared/domain/job-id';
import type { Tenant } from '#shared/domain/tenant';
import type { AccessPattern } from './entities/entity';
import { type Environment, keys } from './keys';
import type { Item, Table } from './table';

const HOUR_MS = 3_600_000;

/** The index's sort key of a resource due at `dueAt`. */
export const dueSortKey = (dueAt: string, tenant: Tenant, id: string | number) =>
  `${dueAt}#${jobId(tenant, id)}`;

/**
 * A due resource's place on its test clock's due index (`byTestClock`), or null: in real time (the
 * hour buckets hold it) or nothing due. A resource on a clock is never in the hour buckets.
 */
export const testClockDuePlace = (
  r: { tenant: Tenant; testClockId?: string | null; dueAt: string | null },
  id: string | number,
) =>
  r.testClockId && r.dueAt
    ? { pk: keys.testClockDue(r.tenant, r.testClockId), sk: dueSortKey(r.dueAt, r.tenant, id) }
    : null;

/** Where a due resource in real time sits in the hour buckets of `bucketOf`, or null (on a clock, or nothing due). */
export const hourBucketPlace = (
  r: { tenant: Tenant; testClockId?: string | null; dueAt: string | null },
  id: string | number,
  bucketOf: (instant: string) => string,
) => (r.dueAt && !r.testClockId ? { pk: bucketOf(r.dueAt), sk: dueSortKey(r.dueAt, r.tenant, id) } : null);

/** The hour buckets of the last `hoursBack` hours up to `now`, oldest first. */
export function hourBuckets(now: Date, hoursBack: number, bucketOf: (instant: string) => string): string[] {
  const buckets: string[] = [];
  for (let h = hoursBack; h >= 0; h--)
    buckets.push(bucketOf(new Date(now.getTime() - h * HOUR_MS).toISOString()));
  return buckets;
}

/**
 * The job ids due by `now` in `buckets` of an entity's due pattern (`byDueHour`, a saved card's
 * `byExpiryMonth`: time buckets `DUE#<kind>#<hour or month>` sorted by `<dueAt>#<job id>`), in
 * their order: the heartbeat's backstop of one-time schedules. `accept` keeps the items of the
 * entity the bucket belongs to; the job names the resource by its `id` attribute or what `idOf`
 * reads (an installment plan's `uuid`).
 */
export async function dueJobIds(
  table: Table,
  index: AccessPattern,
  buckets: string[],
  now: Date,
  options: { accept?: (item: Item) => boolean; idOf?: (item: Item) => string } = {},
): Promise<string[]> {
  const due: string[] = [];
  const nowIso = now.toISOString();
  for (const bucket of buckets) {
    let cursor: string | undefined;
    do {
      const out = await table.query<Item>({
        IndexName: index.name,
        KeyConditionExpression: '#pk = :pk AND #sk <= :now',
        ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
        ExpressionAttributeValues: { ':pk': bucket, ':now': `${nowIso}~` },
        cursor,
      });
      for (const item of out.items) {
        if ((options.accept && !options.accept(item)) || String(item[index.sortKey]).split('#')[0] > nowIso)
          continue;
        const tenant = { sellerId: Number(item.sellerId), environment: item.environment as Environment };
        due.push(jobId(tenant, options.idOf ? options.idOf(item) : String(item.id)));
      }
      cursor = out.cursor;
    } while (cursor);
  }
  return due;
}
