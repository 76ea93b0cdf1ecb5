import type { DomainEvent } from '#shared/domain/events/events';
import type { Product, ProductRepository } from '#shared/domain/products/products';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { ConditionFailedError, type Item, type Table, type TransactItem } from './table';
import { TABLE } from './table-definition';

const ENTITY = 'product';
const { gsi1, gsi2 } = TABLE.indexes;
/** Product search filters the seller's catalogue; it reads at most this many items per request. */
const SEARCH_READ_LIMIT = 5_000;

export const searchable = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

function toItem(p: Product): Item {
  return {
    ...keys.product(p.tenant, p.id),
    [gsi1.partitionKey]: keys.productByUuid(p.uuid),
    [gsi1.sortKey]: 'PRODUCT',
    [gsi2.partitionKey]: keys.productsByState(p.tenant, p.isActive ? 'active' : 'archived'),
    [gsi2.sortKey]: keys.numeric(p.id),
    entity: ENTITY,
    version: p.version,
    id: p.id,
    uuid: p.uuid,
    sellerId: p.tenant.sellerId,
    environment: p.tenant.environment,
    name: p.name,
    nameSearch: searchable(p.name),
    image: p.image,
    value: p.value,
    description: p.description ?? undefined,
    pix: p.pix,
    creditCard: p.creditCard,
    boleto: p.boleto,
    installments: p.installments,
    carne: p.carne,
    isActive: p.isActive,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

function toProduct(item: Item): Product {
  return {
    id: Number(item.id),
    uuid: String(item.uuid),
    tenant: { sellerId: Number(item.sellerId), environment: item.environment as Product['tenant']['environment'] },
    name: String(item.name),
    image: String(item.image),
    value: Number(item.value),
    description: (item.description as string | undefined) ?? null,
    pix: Boolean(item.pix),
    creditCard: Boolean(item.creditCard),
    boleto: Boolean(item.boleto),
    installments: Number(item.installments),
    carne: item.carne as Product['carne'],
    isActive: Boolean(item.isActive),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    version: Number(item.version),
  };
}

const countUpdate = (p: Product, active: number, archived: number): TransactItem => ({
  Update: {
    Key: keys.productCounts(p.tenant),
    UpdateExpression: 'ADD active :a, archived :r SET entity = :e',
    ExpressionAttributeValues: { ':a': active, ':r': archived, ':e': 'counter' },
  },
});

export function createProductRepository(table: Table): ProductRepository {
  async function counts(tenant: Product['tenant']) {
    const item = await table.get<Item>(keys.productCounts(tenant));
    return { active: Number(item?.active ?? 0), archived: Number(item?.archived ?? 0) };
  }

  return {
    async create(product, events: DomainEvent[]) {
      await table.transact([
        { Put: { Item: toItem(product), ConditionExpression: 'attribute_not_exists(pk)' } },
        countUpdate(product, 1, 0),
        ...events.map(outboxPut),
      ]);
    },

    async get(tenant, id) {
      const item = await table.get<Item>(keys.product(tenant, id), { consistent: true });
      return item ? toProduct(item) : null;
    },

    async findByUuid(uuid) {
      const out = await table.query<Item>({
        IndexName: gsi1.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': gsi1.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.productByUuid(uuid) },
        Limit: 1,
      });
      return out.items[0] ? toProduct(out.items[0]) : null;
    },

    async save(product, expectedVersion, events, counters) {
      try {
        await table.transact([
          {
            Put: {
              Item: toItem(product),
              ConditionExpression: 'attribute_exists(pk) AND version = :v',
              ExpressionAttributeValues: { ':v': expectedVersion },
            },
          },
          ...(counters ? [countUpdate(product, counters.active, counters.archived)] : []),
          ...events.map(outboxPut),
        ]);
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError && error.failedIndexes.includes(0)) return false;
        throw error;
      }
    },

    async list(tenant, query) {
      const base =
        query.tab === 'all'
          ? {
              KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
              ExpressionAttributeValues: { ':pk': keys.tenant(tenant), ':prefix': keys.productPrefix } as Item,
            }
          : {
              IndexName: gsi2.name,
              KeyConditionExpression: '#pk = :pk',
              ExpressionAttributeNames: { '#pk': gsi2.partitionKey } as Record<string, string>,
              ExpressionAttributeValues: { ':pk': keys.productsByState(tenant, query.tab) } as Item,
            };
      const skip = (query.page - 1) * query.limit;
      const wanted = skip + query.limit;
      const matched: Item[] = [];
      let totalCount = 0;
      let read = 0;
      let cursor: string | undefined;
      const filter = query.search
        ? { FilterExpression: 'contains(nameSearch, :q)', values: { ':q': searchable(query.search) } }
        : undefined;
      // Without a search the counter item gives the total; with one, matches are counted while reading.
      do {
        const page = await table.query<Item>({
          ...base,
          ...(filter ? { FilterExpression: filter.FilterExpression } : {}),
          ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ...(filter?.values ?? {}) },
          ScanIndexForward: false,
          Limit: filter ? 500 : Math.min(500, wanted - matched.length),
          cursor,
        });
        read += page.items.length;
        matched.push(...page.items);
        cursor = page.cursor;
        if (!filter && matched.length >= wanted) break;
      } while (cursor && read < SEARCH_READ_LIMIT);
      if (filter) totalCount = matched.length;
      else {
        const c = await counts(tenant);
        totalCount = query.tab === 'active' ? c.active : query.tab === 'archived' ? c.archived : c.active + c.archived;
      }
      return { items: matched.slice(skip, wanted).map(toProduct), totalCount };
    },
  };
}
