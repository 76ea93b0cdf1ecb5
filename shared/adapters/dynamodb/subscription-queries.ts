import type { SubscriptionPage, SubscriptionQuery } from '#shared/domain/ports';
import type { Subscription } from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import { keys } from './keys';
import type { Item, Table } from './table';
import { TABLE } from './table-definition';
import { fromTenantAttributes } from './tenant-fields';

export const SUBSCRIPTION_COUNTER = 'counter';
/** A filtered list reads its whole partition to count its total; this bounds one request's reads. */
const MAX_ITEMS_READ = 20_000;

const { byUuidOrOwner: byTenant, byStatusOrName: byStatus, byCustomer, byProduct } = TABLE.indexes;
type Index = { name: string; partitionKey: string; sortKey: string };

/**
 * The four list partitions a subscription is in (all, status, customer, product), each headed by
 * its counter (`keys.subscriptionCounter(scope)`, index sort key `~COUNT`). The order is fixed:
 * the repository moves counters by position.
 */
export function subscriptionPartitions(s: Subscription): { scope: string; index: Index; value: string }[] {
  return [
    { scope: 'ALL', index: byTenant, value: keys.subscriptionsOfTenant(s.tenant) },
    { scope: `STATUS#${s.status}`, index: byStatus, value: keys.subscriptionsByStatus(s.tenant, s.status) },
    {
      scope: `CUSTOMER#${s.customer.id}`,
      index: byCustomer,
      value: keys.subscriptionsOfCustomer(s.tenant, s.customer.id),
    },
    {
      scope: `PRODUCT#${s.price.product.id}`,
      index: byProduct,
      value: keys.subscriptionsOfProduct(s.tenant, s.price.product.id),
    },
  ];
}

/** The subscription's attributes: one each, top level (the tenant as sellerId and environment). */
export const SUBSCRIPTION_FIELDS = [
  'id',
  'uuid',
  'status',
  'customer',
  'price',
  'collectionMethod',
  'paymentMethod',
  'pixAuthorizationId',
  'billingAnchor',
  'billingCycle',
  'currentPeriodStart',
  'currentPeriodEnd',
  'trialEndsAt',
  'cancelAt',
  'cancelledAt',
  'cancelAtPeriodEnd',
  'cancelReason',
  'pausedAt',
  'lastPaymentAt',
  'nextPaymentAt',
  'failedPaymentCount',
  'dueAt',
  'pendingCharge',
  'checkoutSessionId',
  'metadata',
  'createdAt',
  'updatedAt',
  'version',
] as const;

export const toSubscription = (item: Item) => fromTenantAttributes<Subscription>(item, SUBSCRIPTION_FIELDS);

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
    items: rows.slice(skip, wanted).map(toSubscription),
    totalCount: filtered ? rows.length : counted,
    itemsRead,
  };
}
