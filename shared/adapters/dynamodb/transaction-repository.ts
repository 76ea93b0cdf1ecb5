import { figureDelta } from '#shared/domain/dashboard/figures';
import type { DomainEvent } from '#shared/domain/events/events';
import { jobId } from '#shared/domain/job-id';
import type { TransactionPage, TransactionQuery, TransactionRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import {
  matchesSearch,
  SEARCH_READ_LIMIT,
  type SearchText,
  searchTextOf,
  searchTokens,
  type TransactionSearch,
} from '#shared/domain/transactions/search';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { ConflictError, ValidationError } from '#shared/errors';
import { decodeCursor, INVALID_CURSOR } from './cursor';
import { figureUpdates, readFigures } from './daily-figures';
import { IN_DAILY_FIGURES, transactionEntity } from './entities/transaction';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { alreadyExists, encodeCursor, type Item, type Table, type TransactItem } from './table';

const { byUuid, byStatus, byGatewayPayId, byProduct, byCustomer, byStatusAndMethod } =
  transactionEntity.patterns;
/** Provider notifications are remembered 30 days to drop repeats. */
const NOTIFICATION_TTL_SECONDS = 30 * 86_400;

/** Every write counts the transaction in its seller's daily figures (figureDelta below), and says so. */
const toItem = (t: Transaction) => ({ ...transactionEntity.toItem(t), [IN_DAILY_FIGURES]: true });
const toTransaction = transactionEntity.fromItem;

const COUNTER = 'counter';

/**
 * The counters behind totalPages live inside the partitions the lists read, sorted before every
 * transaction (`~COUNT` > digits), so a newest-first page reads its total in the same query:
 * the seller's one (with a count per payment method) in the table, one per status in byStatus,
 * per status and payment method in byStatusAndMethod, per product in byProduct, per customer in
 * byCustomer. The status ones come second and third: a status change moves exactly those.
 */
function counterItems(
  t: Transaction,
): { key: { pk: string; sk: string }; index?: { pk: string; value: string; sk: string } }[] {
  return [
    { key: keys.transactionCounter(t.tenant, 'ALL') },
    {
      key: keys.transactionCounter(t.tenant, `STATUS#${t.status}`),
      index: {
        pk: byStatus.partitionKey,
        value: keys.transactionsByStatus(t.tenant, t.status),
        sk: byStatus.sortKey,
      },
    },
    {
      key: keys.transactionCounter(t.tenant, `STATUSMETHOD#${t.status}#${t.paymentMethod}`),
      index: {
        pk: byStatusAndMethod.partitionKey,
        value: keys.transactionsByStatusAndMethod(t.tenant, t.status, t.paymentMethod),
        sk: byStatusAndMethod.sortKey,
      },
    },
    {
      key: keys.transactionCounter(t.tenant, `PRODUCT#${t.product.id}`),
      index: {
        pk: byProduct.partitionKey,
        value: keys.transactionsOfProduct(t.tenant, t.product.id),
        sk: byProduct.sortKey,
      },
    },
    {
      key: keys.transactionCounter(t.tenant, `CUSTOMER#${t.customer.id}`),
      index: {
        pk: byCustomer.partitionKey,
        value: keys.transactionsOfCustomer(t.tenant, t.customer.id),
        sk: byCustomer.sortKey,
      },
    },
  ];
}

function counterUpdate(
  target: ReturnType<typeof counterItems>[number],
  delta: number,
  method?: Transaction['paymentMethod'],
): TransactItem {
  const names: Record<string, string> = { '#c': 'count' };
  const values: Item = { ':d': delta, ':e': COUNTER };
  let expression = 'ADD #c :d';
  if (method) {
    names['#m'] = method;
    expression += ', #m :d';
  }
  names['#ver'] = 'version';
  values[':ver'] = 1;
  expression += ' SET entity = :e, #ver = :ver';
  if (target.index) {
    names['#ipk'] = target.index.pk;
    names['#isk'] = target.index.sk;
    values[':ipk'] = target.index.value;
    values[':isk'] = keys.counterSortKey;
    expression += ', #ipk = :ipk, #isk = :isk';
  }
  return {
    Update: {
      Key: target.key,
      UpdateExpression: expression,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

function counterUpdates(t: Transaction, delta: number): TransactItem[] {
  const [all, ...rest] = counterItems(t);
  return [counterUpdate(all, delta, t.paymentMethod), ...rest.map((c) => counterUpdate(c, delta))];
}

/** The old status's counters go down and the new one's up, in the same transaction as the change. */
function statusMove(previous: Transaction, next: Transaction): TransactItem[] {
  const [, status, statusMethod] = counterItems(previous);
  const [, nextStatus, nextStatusMethod] = counterItems(next);
  return [
    counterUpdate(status, -1),
    counterUpdate(nextStatus, 1),
    counterUpdate(statusMethod, -1),
    counterUpdate(nextStatusMethod, 1),
  ];
}

const SEARCH_ENTITY = 'transaction-search';

/** Items one list call reads at most: a narrow filter over a long partition answers a short page. */
const READ_BUDGET = 20_000;

/**
 * The transaction's search index entries, one per token of its buyer (searchTokens): each carries
 * what a search matches and filters on (the buyer's words, e-mail and document; status, payment
 * method, product, customer, creation time), so a search reads no transaction that it does not show.
 */
function searchEntries(t: Transaction): TransactItem[] {
  const text = searchTextOf(t.customer);
  return searchTokens(t.customer).map((token) => ({
    Put: {
      Item: {
        ...keys.transactionSearch(t.tenant, token, t.id),
        entity: SEARCH_ENTITY,
        version: 1,
        id: t.id,
        status: t.status,
        paymentMethod: t.paymentMethod,
        productId: t.product.id,
        customerId: t.customer.id,
        createdAt: t.createdAt,
        ...text,
      },
    },
  }));
}

/**
 * A save's index entries: written again when the status moves (they carry it); an entry of a token
 * the buyer no longer has is deleted (a transaction's buyer does not change today, but the entries
 * must follow it if it ever does). Entries missing from before the index existed are written then.
 */
function searchEntriesOnSave(previous: Transaction, next: Transaction): TransactItem[] {
  if (previous.status === next.status) return [];
  const kept = new Set(searchTokens(next.customer));
  const gone = searchTokens(previous.customer).filter((token) => !kept.has(token));
  return [
    ...searchEntries(next),
    ...gone.map((token) => ({
      Delete: { Key: keys.transactionSearch(previous.tenant, token, previous.id) },
    })),
  ];
}

/**
 * Everything a new transaction writes (the item, `attribute_not_exists`, first; its counters; a
 * pending pix's expiry marker; its search index entries; its outbox items): `create` sends them
 * alone, the subscription repository inside the subscription's own TransactWriteItems (a renewal's
 * charge).
 */
export function transactionCreateWrites(t: Transaction, events: DomainEvent[]): TransactItem[] {
  return [
    { Put: { Item: toItem(t), ConditionExpression: 'attribute_not_exists(pk)' } },
    ...counterUpdates(t, 1),
    ...figureUpdates(t.tenant, t.id, figureDelta(null, t)),
    ...pixExpiryMarker(t),
    ...searchEntries(t),
    ...events.map(outboxPut),
  ];
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
    // Blocks of 100 per container, the next claimed in the background at half (issue 17): ids come from memory.
    nextId: () => table.nextId('transaction', { block: 100 }),

    async create(t, events) {
      await table.write({
        items: transactionCreateWrites(t, events),
        toError: alreadyExists('The transaction'),
      });
    },

    async duePixExpiries(now, hoursBack) {
      const due: string[] = [];
      const nowIso = now.toISOString();
      for (let h = hoursBack; h >= 0; h--) {
        const bucket = keys.pixExpiryBucket(new Date(now.getTime() - h * 3_600_000).toISOString());
        const out = await table.query<Item>({
          KeyConditionExpression: 'pk = :pk AND sk <= :now',
          ExpressionAttributeValues: { ':pk': bucket, ':now': `${nowIso}~` },
          Limit: 100,
        });
        for (const item of out.items) {
          if (String(item.expiresAt) <= nowIso) due.push(String(item.jobId));
        }
      }
      return due;
    },

    async get(tenant, id) {
      const item = await table.get<Item>(keys.transaction(tenant, id), { consistent: true });
      return item ? toTransaction(item) : null;
    },

    findByUuid: (uuid) => byIndex(byUuid, keys.transactionByUuid(uuid)),
    async findByGatewayPayId(gatewayPayId) {
      const out = await table.query<Item>({
        IndexName: byGatewayPayId.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': byGatewayPayId.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.transactionByGatewayId(gatewayPayId) },
        Limit: 25,
      });
      return out.items.map(toTransaction);
    },

    async save(next, previous, events, notification) {
      const statusMoved = next.status !== previous.status;
      const writes: TransactItem[] = [
        {
          Put: {
            Item: toItem(next),
            ConditionExpression: 'attribute_exists(pk) AND version = :v',
            ExpressionAttributeValues: { ':v': previous.version },
          },
        },
        ...(statusMoved ? statusMove(previous, next) : []),
        // A transaction stored before the figures existed adds all of itself (the backfill skips it then).
        ...figureUpdates(
          next.tenant,
          next.id,
          figureDelta(previous.outsideDailyFigures ? null : previous, next),
        ),
        ...searchEntriesOnSave(previous, next),
        ...(statusMoved && previous.status === 'pendingPix' && previous.pix
          ? [{ Delete: { Key: keys.pixExpiry(previous.pix.expiresAt, previous.tenant, previous.id) } }]
          : []),
        ...events.map(outboxPut),
      ];
      if (notification) {
        writes.push({
          Put: {
            Item: {
              ...keys.notification(notification.provider, notification.id),
              entity: 'notification',
              version: 1,
              transactionId: next.id,
              ttl: Math.floor(Date.parse(next.updatedAt) / 1000) + NOTIFICATION_TTL_SECONDS,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        });
      }
      // Staged inside `atomically` (a refund's attempt is written with it), sent now outside one.
      await table.write({
        items: writes,
        toError: (failure) =>
          // A repeated notification wins over a version change: it was applied once already.
          notification && failure.failedIndexes.includes(writes.length - 1)
            ? new ConflictError('The notification was already applied', 'duplicate_notification', {
                reason: 'already_exists',
                cause: failure,
              })
            : new ConflictError('The transaction changed at the same time; retry', 'concurrent_update', {
                reason: 'changed',
                cause: failure,
              }),
      });
    },

    dailyFigures: (tenant, ranges) => readFigures(table, tenant, ranges),

    list: (tenant, query) =>
      query.search
        ? searchTransactions(table, tenant, query, query.search)
        : listTransactions(table, tenant, query),
  };
}

/**
 * A pending pix is also listed by its expiry hour, so the heartbeat can expire one whose schedule
 * failed; one on a test clock is not (its charge's due job expires it in the clock's time).
 */
function pixExpiryMarker(t: Transaction): TransactItem[] {
  if (t.status !== 'pendingPix' || !t.pix || t.testClockId) return [];
  return [
    {
      Put: {
        Item: {
          ...keys.pixExpiry(t.pix.expiresAt, t.tenant, t.id),
          entity: 'pix-expiry',
          version: 1,
          expiresAt: t.pix.expiresAt,
          jobId: jobId(t.tenant, t.id),
          ttl: Math.floor(Date.parse(t.pix.expiresAt) / 1000) + 7 * 86_400,
        },
      },
    },
  ];
}

/** An index entry passes the query's other filters (they are copied on every entry). */
function entryPasses(entry: Item, q: TransactionQuery): boolean {
  if (q.status !== undefined && entry.status !== q.status) return false;
  if (q.paymentMethod !== undefined && entry.paymentMethod !== q.paymentMethod) return false;
  if (q.productId !== undefined && Number(entry.productId) !== q.productId) return false;
  if (q.customerIds !== undefined && !q.customerIds.includes(Number(entry.customerId))) return false;
  if (q.createdBefore !== undefined && !(String(entry.createdAt) < q.createdBefore)) return false;
  if (q.createdFrom !== undefined && !(String(entry.createdAt) >= q.createdFrom)) return false;
  return true;
}

/**
 * `search`: the index entries whose token starts like the term (one key range per range of the
 * search, in the partition of its first character), matched and filtered in memory, then newest
 * first; only the page's transactions are read (one BatchGetItem). Every match is counted: past
 * SEARCH_READ_LIMIT entries the page says `tooBroad` instead of answering a part silently.
 */
async function searchTransactions(
  table: Table,
  tenant: Tenant,
  q: TransactionQuery,
  search: TransactionSearch,
): Promise<TransactionPage> {
  const matched = new Set<number>();
  let itemsRead = 0;
  for (const prefix of search.ranges) {
    let cursor: string | undefined;
    do {
      const page = await table.query<Item>({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: {
          ':pk': keys.transactionSearch(tenant, prefix, 0).pk,
          ':prefix': prefix,
        },
        cursor,
      });
      itemsRead += page.items.length;
      for (const entry of page.items) {
        if (matchesSearch(entry as unknown as SearchText, search) && entryPasses(entry, q))
          matched.add(Number(entry.id));
      }
      cursor = page.cursor;
      if (cursor && itemsRead >= SEARCH_READ_LIMIT)
        return { items: [], totalCount: 0, itemsRead, tooBroad: true };
    } while (cursor);
  }
  const after = cursorAfter(tenant, q.cursor);
  const ids = [...matched].sort((a, b) => b - a).filter((id) => after === undefined || id < after);
  const skip = after === undefined ? (q.page - 1) * q.limit : 0;
  const pageIds = ids.slice(skip, skip + q.limit);
  const read = pageIds.length
    ? await table.batchGet<Item>(
        pageIds.map((id) => keys.transaction(tenant, id)),
        { consistent: true },
      )
    : [];
  const byId = new Map(read.map((item) => [Number(item.id), toTransaction(item)]));
  return {
    items: pageIds.map((id) => byId.get(id)).filter((t): t is Transaction => t !== undefined),
    totalCount: ids.length,
    itemsRead: itemsRead + read.length,
    cursor: ids.length > skip + q.limit ? cursorAt(tenant, pageIds[pageIds.length - 1]) : undefined,
  };
}

/**
 * A list cursor names the last transaction shown, by its key in the tenant's partition: every
 * source of a list (the seller's partition, a status, a product, each customer) is read newest
 * first by id, so "after this id" is a position in each of them, and a list merged from several
 * sources continues in each one at once. It is checked like a start key of the tenant's
 * transactions (./cursor): another tenant's cursor, or text that is none, is a 400.
 */
function cursorAfter(tenant: Tenant, cursor: string | undefined): number | undefined {
  const key = decodeCursor(cursor, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.tenant(tenant), ':prefix': keys.transactionPrefix },
  });
  if (!key) return undefined;
  const digits = String(key.sk).slice(keys.transactionPrefix.length);
  if (!/^\d{1,15}$/.test(digits) || Number(digits) < 1) throw new ValidationError([INVALID_CURSOR]);
  return Number(digits);
}

/** The transaction a query's own page cursor (its LastEvaluatedKey) stopped at; undefined for a counter. */
function transactionIdOf(cursor: string): number | undefined {
  const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { sk?: unknown };
  const sk = String(key.sk ?? '');
  const digits = sk.startsWith(keys.transactionPrefix) ? sk.slice(keys.transactionPrefix.length) : '';
  return /^\d{1,15}$/.test(digits) ? Number(digits) : undefined;
}

const cursorAt = (tenant: Tenant, id: number) => encodeCursor({ ...keys.transaction(tenant, id) });

/**
 * The most selective filter picks the index (customer, product, status with payment method,
 * status, else the seller's partition); the others become filter expressions. The partition's
 * counter comes first in the same query, so one filter (or none), or status with payment method,
 * costs one query; other combined filters count while reading. Several customers are several
 * sources: each is read on its own to one row past the page, then merged newest first.
 */
async function listTransactions(table: Table, tenant: Tenant, q: TransactionQuery): Promise<TransactionPage> {
  type Source = { IndexName?: string; key: string; sortKey: string; value: string; counterAttr: string };
  const filters: string[] = [];
  const values: Item = {};
  const names: Record<string, string> = {};
  let indexed: 'product' | 'status' | 'statusAndMethod' | 'none' = 'none';
  let sources: Source[];
  const onIndex = (
    index: { name: string; partitionKey: string; sortKey: string },
    value: string,
  ): Source => ({
    IndexName: index.name,
    key: index.partitionKey,
    sortKey: index.sortKey,
    value,
    counterAttr: 'count',
  });
  if (q.customerIds !== undefined) {
    sources = [...new Set(q.customerIds)].map((id) =>
      onIndex(byCustomer, keys.transactionsOfCustomer(tenant, id)),
    );
  } else if (q.productId !== undefined) {
    indexed = 'product';
    sources = [onIndex(byProduct, keys.transactionsOfProduct(tenant, q.productId))];
  } else if (q.status !== undefined && q.paymentMethod !== undefined) {
    indexed = 'statusAndMethod';
    sources = [
      onIndex(byStatusAndMethod, keys.transactionsByStatusAndMethod(tenant, q.status, q.paymentMethod)),
    ];
  } else if (q.status !== undefined) {
    indexed = 'status';
    sources = [onIndex(byStatus, keys.transactionsByStatus(tenant, q.status))];
  } else {
    sources = [
      { key: 'pk', sortKey: 'sk', value: keys.tenant(tenant), counterAttr: q.paymentMethod ?? 'count' },
    ];
  }
  if (q.productId !== undefined && indexed !== 'product') {
    filters.push('product.id = :product');
    values[':product'] = q.productId;
  }
  if (q.status !== undefined && indexed !== 'status' && indexed !== 'statusAndMethod') {
    filters.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = q.status;
  }
  if (q.paymentMethod !== undefined && indexed !== 'statusAndMethod') {
    filters.push('paymentMethod = :method');
    values[':method'] = q.paymentMethod;
  }
  if (q.createdBefore !== undefined) {
    filters.push('createdAt < :before');
    values[':before'] = q.createdBefore;
  }
  if (q.createdFrom !== undefined) {
    filters.push('createdAt >= :from');
    values[':from'] = q.createdFrom;
  }
  const after = cursorAfter(tenant, q.cursor);
  /** A source's key condition: its partition, and below the cursor's id when there is one. */
  const range = (s: Source): { expression: string; names: Record<string, string>; values: Item } => {
    const sortKey = { '#s': s.sortKey };
    if (s.IndexName) {
      return after === undefined
        ? { expression: '#k = :k', names: {}, values: {} }
        : {
            expression: '#k = :k AND #s < :after',
            names: sortKey,
            values: { ':after': keys.numeric(after) },
          };
    }
    // The seller's partition holds more than transactions: stay inside `TXN#`.
    const prefix = { ':prefix': keys.transactionPrefix };
    return after === undefined
      ? { expression: '#k = :k AND begins_with(#s, :prefix)', names: sortKey, values: prefix }
      : {
          expression: '#k = :k AND #s BETWEEN :prefix AND :last',
          names: sortKey,
          values: { ...prefix, ':last': keys.transaction(tenant, after - 1).sk },
        };
  };
  // The counter answers the total when the index holds exactly the filtered set (the seller's
  // partition also counts per payment method).
  const counterIsTotal =
    sources.length === 1 &&
    q.createdBefore === undefined &&
    q.createdFrom === undefined &&
    (filters.length === 0 || (indexed === 'none' && filters.length === 1 && q.paymentMethod !== undefined));
  const skip = after === undefined ? (q.page - 1) * q.limit : 0;
  const wanted = skip + q.limit;
  const rows: Item[] = [];
  let counted = 0;
  let itemsRead = 0;
  /** The oldest id a single source read when its read budget ran out with more to read. */
  let stoppedAt: number | undefined;
  // Cursor pages (the charges API) carry no total, so they never read ahead to count.
  const readAll = !counterIsTotal && q.countTotal !== false;
  if (filters.length) values[':counter'] = COUNTER;
  for (const s of sources) {
    const bounds = range(s);
    // Rows of this source: any of them may belong on the merged page, so each reads one past it.
    let own = 0;
    let cursor: string | undefined;
    do {
      const page = await table.query<Item>({
        IndexName: s.IndexName,
        KeyConditionExpression: bounds.expression,
        ExpressionAttributeNames: { '#k': s.key, ...bounds.names, ...names },
        ExpressionAttributeValues: { ':k': s.value, ...bounds.values, ...values },
        // Counters always pass, they carry the totals.
        ...(filters.length ? { FilterExpression: `(${filters.join(' AND ')}) OR entity = :counter` } : {}),
        ScanIndexForward: false,
        // With a filter a page of DynamoDB shrinks after reading: read ahead instead of asking for
        // exactly the rows still missing. One row past the page tells whether another page follows
        // (no cursor on the last page); the counter heads the partition when no cursor bounds it.
        Limit: readAll
          ? 500
          : filters.length
            ? Math.min(500, Math.max(100, 4 * (wanted + 1 - own)))
            : Math.min(500, wanted + 1 - own + (cursor === undefined && after === undefined ? 1 : 0)),
        cursor,
      });
      itemsRead += page.scanned ?? page.items.length;
      for (const item of page.items) {
        if (item.entity === COUNTER) counted += Number(item[s.counterAttr] ?? 0);
        else {
          rows.push(item);
          own++;
        }
      }
      cursor = page.cursor;
      if (cursor && itemsRead >= READ_BUDGET) stoppedAt = transactionIdOf(cursor);
    } while (cursor && (readAll || own <= wanted) && itemsRead < READ_BUDGET);
  }
  const ordered = sources.length > 1 ? rows.sort((a, b) => Number(b.id) - Number(a.id)) : rows;
  const pageRows = ordered.slice(skip, wanted);
  const last = pageRows.at(-1);
  return {
    items: pageRows.map(toTransaction),
    totalCount: counterIsTotal ? counted : ordered.length,
    itemsRead,
    // The next page starts after the last row shown, and exists only when a row was read past it;
    // a single source whose read budget ran out before the page filled goes on after what it read
    // (a short page, possibly empty, that does not end the list).
    cursor:
      ordered.length > wanted && last
        ? cursorAt(tenant, Number(last.id))
        : stoppedAt !== undefined && sources.length === 1 && !readAll
          ? cursorAt(tenant, stoppedAt)
          : undefined,
  };
}
