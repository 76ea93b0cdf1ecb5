import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  ADDRESS_FIELDS,
  CustomerContentionError,
  type CustomerProfile,
  type CustomerRepository,
  type CustomerSearch,
  type GlobalCustomer,
  MAX_LIST_WINDOW,
  searchableName,
} from '#shared/domain/customers/customer';
import type { Tenant } from '#shared/domain/tenant';
import { type Key, keys } from './keys';
import { ConditionFailedError, type Item, type Table, type TransactItem } from './table';
import { TABLE } from './table-definition';

const { gsi1, gsi2 } = TABLE.indexes;

const toGlobal = (item: Item): GlobalCustomer => ({
  id: Number(item.id),
  uuid: String(item.uuid),
  environment: item.environment as GlobalCustomer['environment'],
  document: String(item.document),
  personType: item.personType as GlobalCustomer['personType'],
  name: String(item.name),
  email: String(item.email),
  phone: String(item.phone),
  createdAt: String(item.createdAt),
});

function toProfile(item: Item): CustomerProfile {
  const address = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, (item[f] as string | undefined) ?? null]));
  return {
    tenant: { sellerId: Number(item.sellerId), environment: item.environment as Tenant['environment'] },
    id: Number(item.id),
    uuid: String(item.uuid),
    document: String(item.document),
    personType: item.personType as CustomerProfile['personType'],
    name: String(item.name),
    email: String(item.email),
    phone: String(item.phone),
    globalEmail: String(item.globalEmail ?? ''),
    ...(address as Pick<CustomerProfile, (typeof ADDRESS_FIELDS)[number]>),
    billingEmailOverride: (item.billingEmailOverride as string | undefined) ?? null,
    overdueCount: Number(item.overdueCount ?? 0),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

const creationOrder = (p: Pick<CustomerProfile, 'createdAt' | 'id'>) =>
  `${p.createdAt}#${keys.numeric(p.id)}`;

function profileItem(p: CustomerProfile): Item {
  const nameSearch = searchableName(p.name);
  const item: Item = {
    ...keys.customerProfile(p.tenant, p.uuid),
    [gsi1.partitionKey]: keys.customersByCreation(p.tenant),
    [gsi1.sortKey]: creationOrder(p),
    [gsi2.partitionKey]: keys.customersByName(p.tenant),
    [gsi2.sortKey]: `${nameSearch}#${p.uuid}`,
    entity: 'customer-profile',
    version: 1,
    sellerId: p.tenant.sellerId,
    environment: p.tenant.environment,
    nameSearch,
  };
  for (const [field, value] of Object.entries(p))
    if (field !== 'tenant' && value !== null) item[field] = value;
  return item;
}

const emailPointer = (p: Pick<CustomerProfile, 'tenant' | 'email' | 'uuid'>): TransactItem => ({
  Put: { Item: { ...keys.customerEmail(p.tenant, p.email, p.uuid), entity: 'customer-email', uuid: p.uuid } },
});

const countOne = (tenant: Tenant): TransactItem => ({
  Update: {
    Key: keys.customerCount(tenant),
    UpdateExpression: 'ADD #v :one',
    ExpressionAttributeNames: { '#v': 'value' },
    ExpressionAttributeValues: { ':one': 1 },
  },
});

/** Another transaction held one of the items: the domain retries, it is not a failed condition. */
function contended(error: unknown): boolean {
  const reasons = (error as { CancellationReasons?: { Code?: string }[] })?.CancellationReasons ?? [];
  return (
    (error as Error)?.name === 'TransactionCanceledException' &&
    reasons.some((r) => r.Code === 'TransactionConflict')
  );
}

async function transact(table: Table, items: TransactItem[]): Promise<void> {
  try {
    await table.transact(items);
  } catch (error) {
    if (contended(error)) throw new CustomerContentionError({ cause: error });
    throw error;
  }
}

/** The item a failed transaction condition saw (asked for with ReturnValuesOnConditionCheckFailure). */
function itemThatFailed(error: ConditionFailedError, index: number): Item | undefined {
  const reasons = (error.cause as { CancellationReasons?: { Item?: Record<string, AttributeValue> }[] })
    ?.CancellationReasons;
  const item = reasons?.[index]?.Item;
  return item ? unmarshall(item) : undefined;
}

export function createCustomerRepository(table: Table): CustomerRepository {
  const getProfileItem = (tenant: Tenant, uuid: string) =>
    table.get<Item>(keys.customerProfile(tenant, uuid), { consistent: true });

  /** BatchGetItem keeps a page of e-mail or overdue matches to one round trip; Table has no batch read. */
  async function profilesByUuid(tenant: Tenant, uuids: string[]): Promise<CustomerProfile[]> {
    const found = new Map<string, CustomerProfile>();
    for (let i = 0; i < uuids.length; i += 100) {
      let pending: Key[] = uuids.slice(i, i + 100).map((u) => keys.customerProfile(tenant, u));
      while (pending.length > 0) {
        const out = await table.doc.send(
          new BatchGetCommand({ RequestItems: { [table.name]: { Keys: pending } } }),
        );
        for (const item of out.Responses?.[table.name] ?? []) found.set(String(item.uuid), toProfile(item));
        pending = (out.UnprocessedKeys?.[table.name]?.Keys ?? []) as Key[];
      }
    }
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
    index: typeof gsi1 | typeof gsi2;
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
   * Offset pages without a cursor: read matches in Limit-ed pages up to skip + take. The list
   * window (page × limit ≤ MAX_LIST_WINDOW) bounds it; a filter may make a page match fewer.
   */
  async function walk(q: IndexQuery, skip: number, take: number): Promise<Item[]> {
    const need = skip + take;
    const items: Item[] = [];
    let cursor: string | undefined;
    let budget = MAX_LIST_WINDOW;
    do {
      const limit = q.overdueOnly
        ? Math.min(budget, Math.max(need - items.length, 100))
        : need - items.length;
      const page = await table.query<Item>({ ...indexQuery(q), Limit: limit, cursor });
      items.push(...page.items);
      cursor = page.cursor;
      budget -= limit;
    } while (cursor && items.length < need && budget > 0);
    return items.slice(skip, need);
  }

  /** A keys-only count of the matches, exact up to MAX_LIST_WINDOW (then capped). */
  async function count(q: IndexQuery): Promise<number> {
    const base = indexQuery(q);
    let counted = 0;
    let cursor: string | undefined;
    do {
      const page = await table.query<Item>({
        ...base,
        ProjectionExpression: '#pk',
        ExpressionAttributeNames: { ...base.ExpressionAttributeNames, '#pk': TABLE.partitionKey },
        Limit: MAX_LIST_WINDOW,
        cursor,
      });
      counted += page.items.length;
      cursor = page.cursor;
    } while (cursor && counted < MAX_LIST_WINDOW);
    return Math.min(counted, MAX_LIST_WINDOW);
  }

  const newestFirst = (a: CustomerProfile, b: CustomerProfile) =>
    creationOrder(b).localeCompare(creationOrder(a));

  /** Searches whose matches are few by nature (one document, one e-mail), sorted and paged in memory. */
  async function exactMatches(tenant: Tenant, search: CustomerSearch): Promise<CustomerProfile[]> {
    if (search.kind === 'document') {
      const global = await table.get<Item>(keys.customerGlobal(tenant.environment, search.document));
      const item = global ? await getProfileItem(tenant, String(global.uuid)) : undefined;
      return item ? [toProfile(item)] : [];
    }
    if (search.kind !== 'email') return [];
    const pointers = await allOf(keys.tenant(tenant), keys.customerEmailPrefix(search.email));
    return profilesByUuid(
      tenant,
      pointers.map((p) => String(p.uuid)),
    );
  }

  /** The overdue set: its markers carry the creation order, so only one page of profiles is read. */
  async function overdue(tenant: Tenant, skip: number, take: number) {
    const markers = await allOf(keys.customersOverdue(tenant));
    markers.sort((a, b) => String(b.order).localeCompare(String(a.order)));
    const items = await profilesByUuid(
      tenant,
      markers.slice(skip, skip + take).map((m) => String(m.sk)),
    );
    return { items, total: markers.length };
  }

  return {
    nextId: () => table.nextId('customer', { block: 20 }),

    async findGlobal(environment, document) {
      const item = await table.get<Item>(keys.customerGlobal(environment, document), { consistent: true });
      return item ? toGlobal(item) : null;
    },

    async findProfile(tenant, uuid) {
      const item = await getProfileItem(tenant, uuid);
      return item ? toProfile(item) : null;
    },

    async createGlobal(global, profile) {
      const { environment, ...rest } = global;
      try {
        await transact(table, [
          {
            Put: {
              Item: {
                ...keys.customerGlobal(environment, global.document),
                entity: 'customer',
                version: 1,
                environment,
                ...rest,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          { Put: { Item: profileItem(profile), ConditionExpression: 'attribute_not_exists(pk)' } },
          emailPointer(profile),
          countOne(profile.tenant),
        ]);
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError && error.failedIndexes.includes(0)) return false;
        throw error;
      }
    },

    async addProfile(profile) {
      const put = {
        Put: {
          Item: profileItem(profile),
          ConditionExpression: 'attribute_not_exists(pk)',
          // The existing profile comes back with the failure: a re-registration needs no extra read.
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      } as TransactItem;
      try {
        await transact(table, [put, emailPointer(profile), countOne(profile.tenant)]);
        return null;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        const existing = itemThatFailed(error, 0) ?? (await getProfileItem(profile.tenant, profile.uuid));
        if (!existing) throw new CustomerContentionError({ cause: error });
        return toProfile(existing);
      }
    },

    async updateProfile(current, patch) {
      const next: CustomerProfile = { ...current, ...patch };
      const sets: string[] = [];
      const removes: string[] = [];
      const names: Record<string, string> = { '#email': 'email' };
      const values: Item = { ':prevEmail': current.email };
      const fields: Item = { ...patch };
      if (patch.name !== undefined) {
        fields.nameSearch = searchableName(patch.name);
        fields[gsi2.sortKey] = `${fields.nameSearch}#${current.uuid}`;
      }
      for (const [field, value] of Object.entries(fields)) {
        if (value === undefined) continue;
        names[`#${field}`] = field;
        if (value === null) removes.push(`#${field}`);
        else {
          values[`:${field}`] = value;
          sets.push(`#${field} = :${field}`);
        }
      }
      const update = {
        Key: keys.customerProfile(current.tenant, current.uuid),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        // The e-mail pointers below are derived from the e-mail read: it must still be the stored one.
        ConditionExpression: 'attribute_exists(pk) AND #email = :prevEmail',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      };
      try {
        if (current.email.toLowerCase() === next.email.toLowerCase()) {
          return toProfile((await table.update<Item>({ ...update, ReturnValues: 'ALL_NEW' })) as Item);
        }
        await transact(table, [
          { Update: update },
          { Delete: { Key: keys.customerEmail(current.tenant, current.email, current.uuid) } },
          emailPointer(next),
        ]);
        return next;
      } catch (error) {
        if (error instanceof ConditionFailedError) return null;
        throw error;
      }
    },

    async setBillingEmailOverride(tenant, uuid, email, at) {
      try {
        const item = await table.update<Item>({
          Key: keys.customerProfile(tenant, uuid),
          UpdateExpression:
            email === null
              ? 'SET updatedAt = :at REMOVE billingEmailOverride'
              : 'SET updatedAt = :at, billingEmailOverride = :email',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': at, ...(email === null ? {} : { ':email': email }) },
          ReturnValues: 'ALL_NEW',
        });
        return item ? toProfile(item) : null;
      } catch (error) {
        if (error instanceof ConditionFailedError) return null;
        throw error;
      }
    },

    async list(tenant, query) {
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
          index: gsi2,
          pk: keys.customersByName(tenant),
          prefix: search.prefix,
          overdueOnly,
          newestFirst: false,
        };
        const [items, total] = await Promise.all([walk(q, skip, take), count(q)]);
        return { items: items.map(toProfile), total };
      }
      if (overdueOnly) return overdue(tenant, skip, take);
      const q = { index: gsi1, pk: keys.customersByCreation(tenant), overdueOnly: false, newestFirst: true };
      const [items, counter] = await Promise.all([
        walk(q, skip, take),
        table.get<Item>(keys.customerCount(tenant), { consistent: true }),
      ]);
      return { items: items.map(toProfile), total: Number(counter?.value ?? 0) };
    },

    async adjustOverdue(tenant, uuid, delta) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const item = await getProfileItem(tenant, uuid);
        if (!item) return null;
        const before = Number(item.overdueCount ?? 0);
        const after = Math.max(0, before + delta);
        if (after === before) return before;
        const marker = keys.customerOverdue(tenant, uuid);
        const writes: TransactItem[] = [
          {
            Update: {
              Key: keys.customerProfile(tenant, uuid),
              UpdateExpression: 'SET overdueCount = :after',
              // Compare-and-set on the count read, so the marker flips exactly on 0→1 and 1→0.
              ConditionExpression:
                before === 0
                  ? 'attribute_not_exists(overdueCount) OR overdueCount = :before'
                  : 'overdueCount = :before',
              ExpressionAttributeValues: { ':after': after, ':before': before },
            },
          },
        ];
        if (before === 0)
          writes.push({
            Put: { Item: { ...marker, entity: 'customer-overdue', order: creationOrder(toProfile(item)) } },
          });
        if (after === 0) writes.push({ Delete: { Key: marker } });
        try {
          await transact(table, writes);
          return after;
        } catch (error) {
          if (!(error instanceof ConditionFailedError || error instanceof CustomerContentionError))
            throw error;
        }
      }
      throw new CustomerContentionError();
    },
  };
}
