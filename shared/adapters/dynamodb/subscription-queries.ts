import type { SubscriptionPage, SubscriptionQuery } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { subscriptionEntity } from './entities/subscription';
import { keys } from './keys';
import type { Item, Table } from './table';

export const SUBSCRIPTION_COUNTER = 'counter';
/** A filtered list reads its whole partition to count its total; this bounds one request's reads. */
const MAX_ITEMS_READ = 20_000;

const { byTenant, byStatus, byCustomer, byProduct } = subscriptionEntity.patterns;
type Index = { name: string; partitionKey: string; sortKey: string };

/**
 * The narrowest filter picks the partition (customer, then product, then status, else all), newest
 * first; the others are filter expressions. Unfiltered, the partition's counter (read first, in
 * the same query) is the total and the query stops at the page; filtered, the partition is read
 * to its end (bounded) and the matches counted.
 */
export async function listSubscriptions(
  table: Table,
  tenant: Tenant,
  q: SubscriptionQuery,
): Promise<SubscriptionPage> {
  const [index, value]: [Index, string] =
    q.customerId !== undefined
      ? [byCustomer, keys.subscriptionsOfCustomer(tenant, q.customerId)]
      : q.productId !== undefined
        ? [byProduct, keys.subscriptionsOfProduct(tenant, q.productId)]
        : q.status !== undefined
          ? [byStatus, keys.subscriptionsByStatus(tenant, q.status)]
          : [byTenant, keys.subscriptionsOfTenant(tenant)];
  const names: Record<string, string> = { '#pk': index.partitionKey };
  const values: Item = { ':pk': value };
  const filters: string[] = [];
  if (q.productId !== undefined && index !== byProduct) {
    Object.assign(names, { '#price': 'price', '#product': 'product', '#id': 'id' });
    values[':product'] = q.productId;
    filters.push('#price.#product.#id = :product');
  }
  if (q.status !== undefined && index !== byStatus) {
    names['#status'] = 'status';
    values[':status'] = q.status;
    filters.push('#status = :status');
  }
  const filtered = filters.length > 0;
  const skip = (q.page - 1) * q.limit;
  const wanted = skip + q.limit;
  const rows: Item[] = [];
  let counted = 0;
  let itemsRead = 0;
  let cursor: string | undefined;
  do {
    const page = await table.query<Item>({
      IndexName: index.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      // The counter has neither a status nor a price: a filter drops it, and it is not needed then.
      ...(filtered ? { FilterExpression: filters.join(' AND ') } : {}),
      ScanIndexForward: false,
      // Unfiltered: exactly the rows still missing (plus the counter on the first read).
      ...(filtered ? {} : { Limit: Math.min(500, wanted - rows.length + (itemsRead === 0 ? 1 : 0)) }),
      cursor,
    });
    itemsRead += page.scanned ?? page.items.length;
    for (const item of page.items) {
      if (item.entity === SUBSCRIPTION_COUNTER) counted += Number(item.count ?? 0);
      else rows.push(item);
    }
    cursor = page.cursor;
    if (!filtered && rows.length >= wanted) break;
  } while (cursor && itemsRead < MAX_ITEMS_READ);
  return {
    items: rows.slice(skip, wanted).map(subscriptionEntity.fromItem),
    totalCount: filtered ? rows.length : counted,
    itemsRead,
  };
}
