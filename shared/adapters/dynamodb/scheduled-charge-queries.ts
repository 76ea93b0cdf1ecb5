import { classifySearch } from '#shared/domain/customers/listing';
import type { ScheduledChargePage, ScheduledChargeQuery } from '#shared/domain/ports';
import type { Cycle, ScheduledCharge } from '#shared/domain/scheduled-charges/charge';
import type { Tenant } from '#shared/domain/tenant';
import { scheduledChargeEntity, searchAttributes } from './entities/scheduled-charge';
import { type Key, keys } from './keys';
import type { Item, Table } from './table';

export const CYCLE_ENTITY = 'scheduled-charge-cycle';
const { byTenant, byStatus, byCustomer, byType } = scheduledChargeEntity.patterns;
type Index = { name: string; partitionKey: string; sortKey: string };
export const CHARGE_ENTITY = scheduledChargeEntity.entity;
export const SEARCH_ENTITY = 'scheduled-charge-search';
export const COUNTER_ENTITY = 'counter';
/**
 * A list that cannot stop at its page (a filter or a date range, or a name search) reads its
 * partitions to their end to count the matches; this bounds one request's reads. Past it the
 * list is the matches within the items read: totalCount counts those, later pages come back empty.
 */
export const MAX_ITEMS_READ = 20_000;

export const CYCLE_FIELDS = [
  'number',
  'dueDate',
  'amount',
  'status',
  'payToken',
  'transactionIds',
  'issued',
  'remindersSent',
  'paidAt',
  'paidBy',
  'paidTransactionId',
  'paymentDate',
  'externalReference',
  'attemptCount',
  'nextRetryAt',
  'claim',
  'failureCode',
  'failureReason',
  'gatewayFailureCode',
  'createdAt',
  'updatedAt',
] as const;

/** The charge's search copies: one per way a search finds it, each ending in the list order. */
export function searchCopyKeys(c: ScheduledCharge): Key[] {
  const s = searchAttributes(c);
  return [
    keys.scheduledChargeSearch(c.tenant, 'NAME', s.searchName, c.dueDate, c.id),
    keys.scheduledChargeSearch(c.tenant, 'EMAIL', s.searchEmail, c.dueDate, c.id),
    keys.scheduledChargeSearch(c.tenant, 'DOC', s.searchDocument, c.dueDate, c.id),
  ];
}

export function toCycle(item: Item): Cycle {
  const cycle: Record<string, unknown> = {};
  for (const f of CYCLE_FIELDS) cycle[f] = item[f] ?? null;
  return cycle as unknown as Cycle;
}

/** The charge and its cycles, read by one strongly consistent range query (paged past 1 MB). */
export async function readCharge(table: Table, tenant: Tenant, id: string): Promise<ScheduledCharge | null> {
  const chargeKey = keys.scheduledCharge(tenant, id);
  const cyclePrefix = `${chargeKey.sk}#CYC#`;
  let charge: ScheduledCharge | null = null;
  const cycles: Cycle[] = [];
  let cursor: string | undefined;
  do {
    const page = await table.query<Item>({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': chargeKey.pk,
        ':from': chargeKey.sk,
        ':to': keys.scheduledChargeCyclesEnd(id),
      },
      ConsistentRead: true,
      cursor,
    });
    for (const item of page.items) {
      // Exact keys only: an id that is not a charge's must not read a neighbour's items.
      if (item.sk === chargeKey.sk) {
        charge = { ...scheduledChargeEntity.fromItem(item), timelineSeq: Number(item.timelineSeq) };
      } else if (String(item.sk).startsWith(cyclePrefix) && item.entity === CYCLE_ENTITY)
        cycles.push(toCycle(item));
    }
    cursor = page.cursor;
  } while (cursor);
  return charge && { ...charge, cycles };
}

const listOrder = (item: Item) => `${item.dueDate}#${item.id}`;

interface Source {
  /** An index partition, or (no index) a search prefix in the tenant partition. */
  index?: Index;
  value: string;
  /** The counter of an index partition (unfiltered lists read it for their total). */
  scope?: string;
  /** The source is sorted by dueDate#id, so a date range can be its key condition. */
  sortedByDate: boolean;
}

/**
 * The most selective source serves the list; every other filter is a filter expression:
 * - customerId: the customer's partition;
 * - search by e-mail or document: the charges' copies under it (sorted by dueDate#id);
 * - search by name prefix: the copies under the names with that prefix (sorted by name, so
 *   read to their end within MAX_ITEMS_READ and ordered here);
 * - statuses: one partition per status, merged;
 * - type: the type's partition; else every charge of the tenant.
 * The date range is the sort key's condition where the source is sorted by date. Order: dueDate
 * ascending, then id. Without a filter expression or date range, each partition is read up to the
 * page's end and the total is the partitions' counters; otherwise the partitions are read to
 * their end (bounded by MAX_ITEMS_READ) and the matches counted.
 */
export async function listScheduledCharges(
  table: Table,
  tenant: Tenant,
  q: ScheduledChargeQuery,
): Promise<ScheduledChargePage> {
  const search = classifySearch(q.search);
  const statuses = [...new Set(q.statuses)];
  let sources: Source[];
  let servedBy: 'customer' | 'search' | 'status' | 'type' | 'all';
  if (q.customerId !== undefined) {
    servedBy = 'customer';
    sources = [
      {
        index: byCustomer,
        value: keys.scheduledChargesOfCustomer(tenant, q.customerId),
        scope: `CUSTOMER#${q.customerId}`,
        sortedByDate: true,
      },
    ];
  } else if (search.kind !== 'all') {
    servedBy = 'search';
    const [by, value] =
      search.kind === 'document'
        ? (['DOC', search.document] as const)
        : search.kind === 'email'
          ? (['EMAIL', search.email] as const)
          : (['NAME', search.prefix] as const);
    sources = [
      { value: keys.scheduledChargeSearchPrefix(by, value, by !== 'NAME'), sortedByDate: by !== 'NAME' },
    ];
  } else if (statuses.length > 0) {
    servedBy = 'status';
    sources = statuses.map((s) => ({
      index: byStatus,
      value: keys.scheduledChargesByStatus(tenant, s),
      scope: `STATUS#${s}`,
      sortedByDate: true,
    }));
  } else if (q.type !== undefined) {
    servedBy = 'type';
    sources = [
      {
        index: byType,
        value: keys.scheduledChargesOfType(tenant, q.type),
        scope: `TYPE#${q.type}`,
        sortedByDate: true,
      },
    ];
  } else {
    servedBy = 'all';
    sources = [
      { index: byTenant, value: keys.scheduledChargesOfTenant(tenant), scope: 'ALL', sortedByDate: true },
    ];
  }

  const names: Record<string, string> = {};
  const values: Item = {};
  const filters: string[] = [];
  if (statuses.length > 0 && servedBy !== 'status') {
    names['#status'] = 'status';
    const placeholders = statuses.map((s, i) => {
      values[`:st${i}`] = s;
      return `:st${i}`;
    });
    filters.push(`#status IN (${placeholders.join(', ')})`);
  }
  if (q.type !== undefined && servedBy !== 'type') {
    names['#type'] = 'type';
    values[':type'] = q.type;
    filters.push('#type = :type');
  }
  if (q.customerId !== undefined && servedBy !== 'customer') {
    Object.assign(names, { '#customer': 'customer', '#cid': 'id' });
    values[':cid'] = q.customerId;
    filters.push('#customer.#cid = :cid');
  }
  if (search.kind !== 'all' && servedBy !== 'search') {
    if (search.kind === 'document') {
      names['#doc'] = 'searchDocument';
      values[':doc'] = search.document;
      filters.push('#doc = :doc');
    } else if (search.kind === 'email') {
      names['#email'] = 'searchEmail';
      values[':email'] = search.email;
      filters.push('#email = :email');
    } else {
      names['#name'] = 'searchName';
      values[':name'] = search.prefix;
      filters.push('begins_with(#name, :name)');
    }
  }
  const ranged = q.dueDateFrom !== undefined || q.dueDateTo !== undefined;
  // Dates sort as text; `~` sorts after every `#id`, so the upper bound takes its whole day.
  const from = q.dueDateFrom ?? '0000-00-00';
  const to = `${q.dueDateTo ?? '9999-12-31'}#~`;
  if (ranged && !sources[0].sortedByDate) {
    names['#due'] = 'dueDate';
    Object.assign(values, { ':dfrom': from, ':dto': to });
    filters.push('#due BETWEEN :dfrom AND :dto');
  }

  const counted = !ranged && filters.length === 0 && sources.every((s) => s.scope !== undefined);
  const skip = (q.page - 1) * q.limit;
  const wanted = skip + q.limit;
  const rows: Item[] = [];
  let itemsRead = 0;
  for (const source of sources) {
    const sNames: Record<string, string> = { ...names };
    const sValues: Item = { ...values };
    let keyCondition: string;
    if (source.index) {
      sNames['#pk'] = source.index.partitionKey;
      sValues[':pk'] = source.value;
      keyCondition = ranged ? '#pk = :pk AND #sk BETWEEN :kfrom AND :kto' : '#pk = :pk';
      if (ranged) {
        sNames['#sk'] = source.index.sortKey;
        Object.assign(sValues, { ':kfrom': from, ':kto': to });
      }
    } else {
      sValues[':pk'] = keys.tenant(tenant);
      if (ranged && source.sortedByDate) {
        keyCondition = 'pk = :pk AND sk BETWEEN :kfrom AND :kto';
        Object.assign(sValues, { ':kfrom': `${source.value}${from}`, ':kto': `${source.value}${to}` });
      } else {
        keyCondition = 'pk = :pk AND begins_with(sk, :prefix)';
        sValues[':prefix'] = source.value;
      }
    }
    let taken = 0;
    let cursor: string | undefined;
    do {
      const page = await table.query<Item>({
        ...(source.index ? { IndexName: source.index.name } : {}),
        KeyConditionExpression: keyCondition,
        ...(Object.keys(sNames).length > 0 ? { ExpressionAttributeNames: sNames } : {}),
        ExpressionAttributeValues: sValues,
        ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
        // Counted: exactly the rows this partition can still add to the page.
        ...(counted ? { Limit: Math.min(500, wanted - taken) } : {}),
        cursor,
      });
      itemsRead += page.scanned ?? page.items.length;
      for (const item of page.items) {
        if (item.entity !== CHARGE_ENTITY && item.entity !== SEARCH_ENTITY) continue;
        rows.push(item);
        taken++;
      }
      cursor = page.cursor;
      if (counted && taken >= wanted) break;
    } while (cursor && itemsRead < MAX_ITEMS_READ);
  }
  rows.sort((a, b) => (listOrder(a) < listOrder(b) ? -1 : listOrder(a) > listOrder(b) ? 1 : 0));

  let totalCount = rows.length;
  if (counted) {
    const counters = await table.batchGet<Item>(
      sources.map((s) => keys.scheduledChargeCounter(tenant, s.scope as string)),
      { consistent: true },
    );
    itemsRead += counters.length;
    totalCount = counters.reduce((sum, c) => sum + Number(c.count ?? 0), 0);
  }
  return { items: rows.slice(skip, wanted).map(scheduledChargeEntity.fromItem), totalCount, itemsRead };
}
