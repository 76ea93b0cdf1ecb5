import type { Tenant } from '#shared/domain/tenant';
import type { Environment } from './keys';
import type { Item, Table } from './table';
import { TABLE } from './table-definition';

/** The index of due times: hour buckets (`DUE#<kind>#<hour>`) sorted by `<dueAt>#<job id>`. */
export const byDue = TABLE.indexes.byGatewayPayId;

const HOUR_MS = 3_600_000;

/**
 * The job ids due by `now` in the hour buckets of the last `hoursBack` hours, oldest bucket first:
 * the heartbeat's backstop of one-time schedules (subscriptions, scheduled charges, installment
 * plans). `accept` keeps the items of the entity the bucket belongs to; `jobIdOf` names the job of
 * one, from its `id` attribute or what `idOf` reads (an installment plan's `uuid`).
 */
export async function dueJobIds(
  table: Table,
  options: {
    bucketOf: (instant: string) => string;
    accept?: (item: Item) => boolean;
    jobIdOf: (tenant: Tenant, id: string) => string;
    idOf?: (item: Item) => string;
  },
  now: Date,
  hoursBack: number,
): Promise<string[]> {
  const due: string[] = [];
  const nowIso = now.toISOString();
  for (let h = hoursBack; h >= 0; h--) {
    const bucket = options.bucketOf(new Date(now.getTime() - h * HOUR_MS).toISOString());
    let cursor: string | undefined;
    do {
      const out = await table.query<Item>({
        IndexName: byDue.name,
        KeyConditionExpression: '#pk = :pk AND #sk <= :now',
        ExpressionAttributeNames: { '#pk': byDue.partitionKey, '#sk': byDue.sortKey },
        ExpressionAttributeValues: { ':pk': bucket, ':now': `${nowIso}~` },
        cursor,
      });
      for (const item of out.items) {
        if ((options.accept && !options.accept(item)) || String(item.dueAt) > nowIso) continue;
        const tenant = { sellerId: Number(item.sellerId), environment: item.environment as Environment };
        due.push(options.jobIdOf(tenant, options.idOf ? options.idOf(item) : String(item.id)));
      }
      cursor = out.cursor;
    } while (cursor);
  }
  return due;
}
