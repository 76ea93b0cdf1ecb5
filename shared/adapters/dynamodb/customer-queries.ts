/**
 * The customer list's reads. Every search goes through a key or an index made for it (docs/data-model.md);
 * offset pages are walked with Limit, bounded by MAX_LIST_WINDOW, since the spec pages by number.
 */
import { type CustomerProfile, profileRefOf } from '#shared/domain/customers/customer';
import { MAX_LIST_WINDOW } from '#shared/domain/paging';
import type { CustomerQuery, CustomerSearch } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { creationOrder, customerProfileEntity } from './entities/customer';
import { customerEmailEntity, customerGlobalEntity, customerOverdueEntity } from './entities/customer-links';
import { keys } from './keys';
import type { Item, Table } from './table';

const { byCreation, byName } = customerProfileEntity.patterns;
const toProfile = customerProfileEntity.fromItem;

const toGlobal = customerGlobalEntity.fromItem;

export { creationOrder, toProfile };

export function createCustomerQueries(table: Table) {
  const getProfileItem = (tenant: Tenant, uuid: string) =>
    table.get<Item>(keys.customerProfile(tenant, uuid), { consistent: true });

  /** BatchGetItem keeps a page of e-mail or overdue matches to one round trip. */
  async function profilesByUuid(tenant: Tenant, uuids: string[]): Promise<CustomerProfile[]> {
    const items = await table.batchGet<Item>(uuids.map((u) => keys.customerProfile(tenant, u)));
    const found = new Map(items.map((item) => [String(item.uuid), toProfile(item)]));
    return uuids.flatMap((u) => found.get(u) ?? []);
  }

  /** Every item of a small partition (e-mail pointers, overdue markers), up to the list window. */
  async function allOf(pk: string, prefix?: string): Promise<Item[]> {
    const items: Item[] = [];
    let cursor: string | undefined;
    do {
      const page = await table.query<Item>({
        KeyConditionExpression: prefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk, ...(prefix ? { ':prefix': prefix } : {}) },
        cursor,
      });
      items.push(...page.items);
      cursor = page.cursor;
    } while (cursor && items.length < MAX_LIST_WINDOW);
    return items;
  }

  type IndexQuery = {
    index: typeof byCreation | typeof byName;
    pk: string;
    prefix?: string;
    overdueOnly: boolean;
    newestFirst: boolean;
  };

  function indexQuery(q: IndexQuery) {
    return {
      IndexName: q.index.name,
      KeyConditionExpression: q.prefix ? '#ipk = :ipk AND begins_with(#isk, :prefix)' : '#ipk = :ipk',
      FilterExpression: q.overdueOnly ? 'overdueCount > :zero' : undefined,
      ExpressionAttributeNames: {
        '#ipk': q.index.partitionKey,
        ...(q.prefix ? { '#isk': q.index.sortKey } : {}),
      },
      ExpressionAttributeValues: {
        ':ipk': q.pk,
        ...(q.prefix ? { ':prefix': q.prefix } : {}),
        ...(q.overdueOnly ? { ':zero': 0 } : {}),
      },
      ScanIndexForward: !q.newestFirst,
    };
  }

  /**
   * Every match of a name prefix, up to MAX_LIST_WINDOW (the window a page may reach), so they are
   * answered newest first like the plain list (the index orders them by name).
   */
  async function allMatches(q: IndexQuery): Promise<CustomerProfile[]> {
    const items: Item[] = [];
    let cursor: string | undefined;
    let read = 0;
    do {
      const page = await table.query<Item>({ ...indexQuery(q), Limit: MAX_LIST_WINDOW - read, cursor });
      items.push(...page.items);
      read += page.scanned ?? page.items.length;
      cursor = page.cursor;
    } while (cursor && read < MAX_LIST_WINDOW);
    return items.map(toProfile);
  }

  const newestFirst = (a: CustomerProfile, b: CustomerProfile) =>
    creationOrder(b).localeCompare(creationOrder(a));

  /** Searches whose matches are few by nature (one document, one e-mail), sorted and paged in memory. */
  async function exactMatches(tenant: Tenant, search: CustomerSearch): Promise<CustomerProfile[]> {
    if (search.kind === 'document') {
      const global = await table.get<Item>(keys.customerGlobal(tenant.environment, search.document));
      const item = global
        ? await getProfileItem(tenant, profileRefOf(toGlobal(global), tenant.sellerId).uuid)
        : undefined;
      return item ? [toProfile(item)] : [];
    }
    if (search.kind !== 'email') return [];
    const pointers = await allOf(keys.tenant(tenant), keys.customerEmailPrefix(search.email));
    return profilesByUuid(
      tenant,
      pointers.map((p) => customerEmailEntity.fromItem(p).uuid),
    );
  }

  /** The overdue set: its markers carry the creation order, so only one page of profiles is read. */
  async function overdue(tenant: Tenant, skip: number, take: number) {
    const markers = (await allOf(keys.customersOverdue(tenant))).map(customerOverdueEntity.fromItem);
    markers.sort((a, b) => b.order.localeCompare(a.order));
    const items = await profilesByUuid(
      tenant,
      markers.slice(skip, skip + take).map((m) => m.uuid),
    );
    return { items, total: markers.length };
  }

  return {
    getProfileItem,

    async list(
      tenant: Tenant,
      query: CustomerQuery,
    ): Promise<{ items: CustomerProfile[]; total: number; cursor?: string }> {
      const { search, overdueOnly, skip, take } = query;
      if (search.kind === 'document' || search.kind === 'email') {
        const matches = (await exactMatches(tenant, search)).filter(
          (p) => !overdueOnly || p.overdueCount > 0,
        );
        matches.sort(newestFirst);
        return { items: matches.slice(skip, skip + take), total: matches.length };
      }
      if (search.kind === 'name') {
        const q = {
          index: byName,
          pk: keys.customersByName(tenant),
          prefix: search.prefix,
          overdueOnly,
          newestFirst: false,
        };
        const matches = (await allMatches(q)).sort(newestFirst);
        return { items: matches.slice(skip, skip + take), total: matches.length };
      }
      if (overdueOnly) return overdue(tenant, skip, take);
      // The seller's count heads the newest-first partition: the first page reads it with the rows.
      const q = {
        index: byCreation,
        pk: keys.customersByCreation(tenant),
        overdueOnly: false,
        newestFirst: true,
      };
      if (query.cursor !== undefined) {
        // By cursor (the exports): each page reads only its own rows, however deep it is.
        const page = await table.queryPage<Item>(
          { ...indexQuery(q), cursor: query.cursor ?? undefined },
          take,
        );
        const rows = page.items.filter((item) => item.entity !== 'customer-count');
        return { items: rows.map(toProfile), total: 0, cursor: page.cursor };
      }
      const rows: Item[] = [];
      let total = 0;
      let cursor: string | undefined;
      do {
        const page = await table.query<Item>({
          ...indexQuery(q),
          Limit: skip + take - rows.length + (cursor ? 0 : 1),
          cursor,
        });
        for (const item of page.items) {
          if (item.entity === 'customer-count') total = Number(item.value ?? 0);
          else rows.push(item);
        }
        cursor = page.cursor;
      } while (cursor && rows.length < skip + take);
      return { items: rows.slice(skip, skip + take).map(toProfile), total };
    },
  };
}
