import type { RequestLogStore } from '#shared/domain/ports';
import { requestLogEntity } from './entities/request-log';
import { ATTRIBUTES, keys } from './keys';
import type { Item, Table } from './table';

/** A filtered page reads at most this many store pages to fill itself (then answers a cursor). */
const MAX_READS_PER_PAGE = 5;

export function createRequestLogStore(table: Table): RequestLogStore {
  return {
    // One PutItem per entry, in parallel: entries have keys of their own (time and request id), so
    // a batch carried twice by the subscription writes the same items again and nothing more.
    async append(entries) {
      await Promise.all(entries.map((e) => table.put(requestLogEntity.toItem(e))));
    },

    async list(tenant, query) {
      const filters = [
        ...(query.status === undefined ? [] : ['#status = :status']),
        ...(query.method === undefined ? [] : ['#method = :method']),
      ];
      const items: Item[] = [];
      let cursor = query.cursor;
      for (let reads = 0; reads < MAX_READS_PER_PAGE; reads++) {
        const page = await table.queryPage<Item>(
          {
            KeyConditionExpression: '#pk = :pk AND #sk >= :from',
            ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
            ExpressionAttributeNames: {
              '#pk': ATTRIBUTES.partitionKey,
              '#sk': ATTRIBUTES.sortKey,
              ...(query.status === undefined ? {} : { '#status': 'status' }),
              ...(query.method === undefined ? {} : { '#method': 'method' }),
            },
            ExpressionAttributeValues: {
              ':pk': keys.requestLogsOfTenant(tenant),
              ':from': query.from,
              ...(query.status === undefined ? {} : { ':status': query.status }),
              ...(query.method === undefined ? {} : { ':method': query.method }),
            },
            ScanIndexForward: false,
            cursor,
          },
          query.limit - items.length,
        );
        items.push(...page.items);
        cursor = page.cursor;
        if (!cursor || items.length >= query.limit) break;
      }
      return { items: items.map(requestLogEntity.fromItem), cursor };
    },
  };
}
