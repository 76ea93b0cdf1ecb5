import type { DomainEvent } from '#shared/domain/events/events';
import type { Tenant } from '#shared/domain/tenant';
import type {
  SaveOutcome,
  TransactionPage,
  TransactionQuery,
  TransactionRepository,
} from '#shared/domain/transactions/repository';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { ConditionFailedError, type Item, type Table, type TransactItem } from './table';
import { TABLE } from './table-definition';

const ENTITY = 'transaction';
const { gsi1, gsi2, gsi3, gsi4, gsi5 } = TABLE.indexes;
/** Provider notifications are remembered 30 days to drop repeats. */
const NOTIFICATION_TTL_SECONDS = 30 * 86_400;
const pad = keys.numeric;

const DATA_FIELDS = [
  'id',
  'uuid',
  'provider',
  'gatewayPayId',
  'status',
  'paymentMethod',
  'value',
  'valueSeller',
  'installments',
  'customer',
  'product',
  'pix',
  'boleto',
  'card',
  'failureCode',
  'failureReason',
  'refunds',
  'refundedAmount',
  'paidAt',
  'canceledAt',
  'deadline',
  'metadata',
  'createdAt',
  'updatedAt',
  'version',
] as const;

function toItem(t: Transaction): Item {
  const item: Item = {
    ...keys.transaction(t.tenant, t.id),
    [gsi1.partitionKey]: keys.transactionByUuid(t.uuid),
    [gsi1.sortKey]: 'TXN',
    [gsi2.partitionKey]: keys.transactionsByStatus(t.tenant, t.status),
    [gsi2.sortKey]: pad(t.id),
    [gsi3.partitionKey]: keys.transactionByGatewayId(t.gatewayPayId),
    [gsi3.sortKey]: `${t.provider}#${t.tenant.sellerId}#${t.tenant.environment}`,
    [gsi4.partitionKey]: keys.transactionsOfProduct(t.tenant, t.product.id),
    [gsi4.sortKey]: pad(t.id),
    [gsi5.partitionKey]: keys.transactionsOfCustomer(t.tenant, t.customer.id),
    [gsi5.sortKey]: pad(t.id),
    entity: ENTITY,
    sellerId: t.tenant.sellerId,
    environment: t.tenant.environment,
  };
  for (const f of DATA_FIELDS) item[f] = t[f] ?? null;
  return item;
}

function toTransaction(item: Item): Transaction {
  const out: Record<string, unknown> = {
    tenant: { sellerId: Number(item.sellerId), environment: item.environment },
  };
  for (const f of DATA_FIELDS) out[f] = item[f] ?? null;
  return out as unknown as Transaction;
}

/** Counters behind totalPages: all, per status, per method, per product, per customer. */
function counterUpdates(t: Transaction, delta: number): TransactItem[] {
  const add = (scope: string, attribute: string): TransactItem => ({
    Update: {
      Key: keys.transactionCounts(t.tenant, scope),
      UpdateExpression: 'ADD #a :d SET entity = :e',
      ExpressionAttributeNames: { '#a': attribute },
      ExpressionAttributeValues: { ':d': delta, ':e': 'counter' },
    },
  });
  return [
    add('ALL', 'count'),
    add('STATUS', t.status),
    add('METHOD', t.paymentMethod),
    add(`PRODUCT#${t.product.id}`, 'count'),
    add(`CUSTOMER#${t.customer.id}`, 'count'),
  ];
}

/** A transaction may touch an item once: the old status's count goes down and the new one's up together. */
function statusMove(previous: Transaction, next: Transaction): TransactItem {
  return {
    Update: {
      Key: keys.transactionCounts(next.tenant, 'STATUS'),
      UpdateExpression: 'ADD #from :minus, #to :plus',
      ExpressionAttributeNames: { '#from': previous.status, '#to': next.status },
      ExpressionAttributeValues: { ':minus': -1, ':plus': 1 },
    },
  };
}

export function createTransactionRepository(table: Table): TransactionRepository {
  const byIndex = async (index: { name: string; partitionKey: string }, value: string) => {
    const out = await table.query<Item>({
      IndexName: index.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': index.partitionKey },
      ExpressionAttributeValues: { ':pk': value },
      Limit: 1,
    });
    return out.items[0] ? toTransaction(out.items[0]) : null;
  };

  return {
    nextId: () => table.nextId('transaction', { block: 20 }),

    async create(t, events: DomainEvent[]) {
      await table.transact([
        { Put: { Item: toItem(t), ConditionExpression: 'attribute_not_exists(pk)' } },
        ...counterUpdates(t, 1),
        ...events.map(outboxPut),
      ]);
    },

    async get(tenant, id) {
      const item = await table.get<Item>(keys.transaction(tenant, id), { consistent: true });
      return item ? toTransaction(item) : null;
    },

    findByUuid: (uuid) => byIndex(gsi1, keys.transactionByUuid(uuid)),
    async findByGatewayPayId(gatewayPayId) {
      const out = await table.query<Item>({
        IndexName: gsi3.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': gsi3.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.transactionByGatewayId(gatewayPayId) },
        Limit: 25,
      });
      return out.items.map(toTransaction);
    },

    async save(next, previous, events, notification): Promise<SaveOutcome> {
      const statusMoved = next.status !== previous.status;
      const writes: TransactItem[] = [
        {
          Put: {
            Item: toItem(next),
            ConditionExpression: 'attribute_exists(pk) AND version = :v',
            ExpressionAttributeValues: { ':v': previous.version },
          },
        },
        ...(statusMoved ? [statusMove(previous, next)] : []),
        ...events.map(outboxPut),
      ];
      if (notification) {
        writes.push({
          Put: {
            Item: {
              ...keys.notification(notification.provider, notification.id),
              entity: 'notification',
              transactionId: next.id,
              ttl: Math.floor(Date.parse(next.updatedAt) / 1000) + NOTIFICATION_TTL_SECONDS,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        });
      }
      try {
        await table.transact(writes);
        return 'saved';
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        if (notification && error.failedIndexes.includes(writes.length - 1)) return 'duplicate-notification';
        return 'changed';
      }
    },

    list: (tenant, query) => listTransactions(table, tenant, query),
  };
}

/**
 * The most selective filter picks the index (customer, product, status, else the seller's
 * partition); the others become filter expressions. Totals come from the counters when one
 * filter (or none) is used, else from counting while reading.
 */
async function listTransactions(table: Table, tenant: Tenant, q: TransactionQuery): Promise<TransactionPage> {
  const filters: string[] = [];
  const values: Item = {};
  const names: Record<string, string> = {};
  let source: { IndexName?: string; key: string; value: string; prefix?: string };
  let counter: { scope: string; attribute: string } | null = null;
  const used = [q.status, q.paymentMethod, q.productId, q.customerIds, q.createdBefore].filter(
    (v) => v !== undefined,
  ).length;

  if (q.productId !== undefined) {
    source = {
      IndexName: gsi4.name,
      key: gsi4.partitionKey,
      value: keys.transactionsOfProduct(tenant, q.productId),
    };
    counter = { scope: `PRODUCT#${q.productId}`, attribute: 'count' };
  } else if (q.status !== undefined) {
    source = {
      IndexName: gsi2.name,
      key: gsi2.partitionKey,
      value: keys.transactionsByStatus(tenant, q.status),
    };
    counter = { scope: 'STATUS', attribute: q.status };
  } else {
    source = { key: 'pk', value: keys.tenant(tenant), prefix: keys.transactionPrefix };
    counter = q.paymentMethod
      ? { scope: 'METHOD', attribute: q.paymentMethod }
      : { scope: 'ALL', attribute: 'count' };
  }
  if (q.status !== undefined && source.IndexName !== gsi2.name) {
    filters.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = q.status;
  }
  if (q.paymentMethod !== undefined) {
    filters.push('paymentMethod = :method');
    values[':method'] = q.paymentMethod;
  }
  if (q.createdBefore !== undefined) {
    filters.push('createdAt < :before');
    values[':before'] = q.createdBefore;
  }
  const single = used <= 1 && q.customerIds === undefined && q.createdBefore === undefined;

  const sources =
    q.customerIds !== undefined
      ? q.customerIds.map((id) => ({
          IndexName: gsi5.name,
          key: gsi5.partitionKey,
          value: keys.transactionsOfCustomer(tenant, id),
        }))
      : [source];
  const skip = q.cursor ? 0 : (q.page - 1) * q.limit;
  const wanted = skip + q.limit;
  let matched: Item[] = [];
  let itemsRead = 0;
  let nextCursor: string | undefined;
  const countAll = !single;
  for (const s of sources) {
    let cursor = sources.length === 1 ? q.cursor : undefined;
    do {
      const page = await table.query<Item>({
        IndexName: s.IndexName,
        KeyConditionExpression:
          'prefix' in s && s.prefix ? '#k = :k AND begins_with(sk, :prefix)' : '#k = :k',
        ExpressionAttributeNames: { '#k': s.key, ...names },
        ExpressionAttributeValues: {
          ':k': s.value,
          ...('prefix' in s && s.prefix ? { ':prefix': s.prefix } : {}),
          ...values,
        },
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ScanIndexForward: false,
        Limit: countAll ? 500 : Math.max(1, Math.min(500, wanted - matched.length)),
        cursor,
      });
      itemsRead += page.scanned ?? page.items.length;
      matched.push(...page.items);
      cursor = page.cursor;
      if (!countAll && matched.length >= wanted) {
        nextCursor = cursor;
        break;
      }
    } while (cursor && itemsRead < 20_000);
  }
  if (sources.length > 1) matched = matched.sort((a, b) => Number(b.id) - Number(a.id));
  let totalCount = matched.length;
  if (single && counter) {
    const c = await table.get<Item>(keys.transactionCounts(tenant, counter.scope));
    totalCount = Number(c?.[counter.attribute] ?? 0);
  }
  return { items: matched.slice(skip, wanted).map(toTransaction), totalCount, itemsRead, cursor: nextCursor };
}
