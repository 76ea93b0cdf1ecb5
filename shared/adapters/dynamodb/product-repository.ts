import type { DomainEvent } from '#shared/domain/events/events';
import type { ProductRepository } from '#shared/domain/ports';
import type { Product } from '#shared/domain/products/products';
import { ConflictError } from '#shared/errors';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { alreadyExists, type Item, orConflict, type Table, type TransactItem } from './table';
import { TABLE } from './table-definition';

const ENTITY = 'product';
const COPY_ENTITY = 'product-copy';
/** A product by uuid (its portal configuration shares the partition). */
const byUuid = TABLE.indexes.byUuidOrOwner;
/** A tenant's products per tab (active / archived), newest first. */
const byState = TABLE.indexes.byStatusOrName;
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
    [byUuid.partitionKey]: keys.productByUuid(p.uuid),
    [byUuid.sortKey]: 'PRODUCT',
    [byState.partitionKey]: keys.productsByState(p.tenant, p.isActive ? 'active' : 'archived'),
    [byState.sortKey]: keys.numeric(p.id),
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

/**
 * The product's copy under its uuid (keys.productCopy), put in the same transaction as the product:
 * no index attributes, so no list or index query ever sees it twice. Every read by uuid is a key
 * read of it: strongly consistent, and batched with the other reads a request starts beside it.
 */
function copyPut(p: Product): TransactItem {
  const item = toItem(p);
  for (const index of Object.values(TABLE.indexes)) {
    delete item[index.partitionKey];
    delete item[index.sortKey];
  }
  return { Put: { Item: { ...item, ...keys.productCopy(p.uuid), entity: COPY_ENTITY } } };
}

export function toProduct(item: Item): Product {
  return {
    id: Number(item.id),
    uuid: String(item.uuid),
    tenant: {
      sellerId: Number(item.sellerId),
      environment: item.environment as Product['tenant']['environment'],
    },
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

const COUNTER = 'counter';

/** The tab counters live among the products (see keys.productCounter): the page query reads them. */
function countUpdates(p: Product, active: number, archived: number): TransactItem[] {
  return (
    [
      ['active', active],
      ['archived', archived],
    ] as const
  )
    .filter(([, delta]) => delta !== 0)
    .map(([state, delta]) => ({
      Update: {
        Key: keys.productCounter(p.tenant, state),
        UpdateExpression: 'ADD #c :d SET entity = :e, #ver = :ver, #gpk = :gpk, #gsk = :gsk',
        ExpressionAttributeNames: {
          '#c': 'count',
          '#ver': 'version',
          '#gpk': byState.partitionKey,
          '#gsk': byState.sortKey,
        },
        ExpressionAttributeValues: {
          ':d': delta,
          ':e': COUNTER,
          ':ver': 1,
          ':gpk': keys.productsByState(p.tenant, state),
          ':gsk': keys.counterSortKey,
        },
      },
    }));
}

export function createProductRepository(table: Table): ProductRepository {
  async function findByUuid(uuid: string) {
    const copy = await table.get<Item>(keys.productCopy(uuid), { consistent: true });
    return copy ? toProduct(copy) : null;
  }

  return {
    async create(product, events: DomainEvent[]) {
      await orConflict(
        table.transact([
          { Put: { Item: toItem(product), ConditionExpression: 'attribute_not_exists(pk)' } },
          copyPut(product),
          ...countUpdates(product, 1, 0),
          ...events.map(outboxPut),
        ]),
        alreadyExists('The product'),
      );
    },

    async get(tenant, id) {
      const item = await table.get<Item>(keys.product(tenant, id), { consistent: true });
      return item ? toProduct(item) : null;
    },

    findByUuid,

    async save(product, expectedVersion, events, counters) {
      await orConflict(
        table.transact([
          {
            Put: {
              Item: toItem(product),
              ConditionExpression: 'attribute_exists(pk) AND version = :v',
              ExpressionAttributeValues: { ':v': expectedVersion },
            },
          },
          copyPut(product),
          ...(counters ? countUpdates(product, counters.active, counters.archived) : []),
          ...events.map(outboxPut),
        ]),
        // Only the product's version check can fail (the outbox ids are new): someone saved first.
        (cause) =>
          new ConflictError('The product changed at the same time; retry', 'concurrent_update', {
            reason: 'changed',
            cause,
          }),
      );
    },

    async list(tenant, query) {
      const base =
        query.tab === 'all'
          ? {
              KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
              ExpressionAttributeNames: undefined as Record<string, string> | undefined,
              ExpressionAttributeValues: {
                ':pk': keys.tenant(tenant),
                ':prefix': keys.productPrefix,
              } as Item,
            }
          : {
              IndexName: byState.name,
              KeyConditionExpression: '#pk = :pk',
              ExpressionAttributeNames: { '#pk': byState.partitionKey } as Record<string, string>,
              ExpressionAttributeValues: { ':pk': keys.productsByState(tenant, query.tab) } as Item,
            };
      const counterSlots = query.tab === 'all' ? 2 : 1;
      const skip = (query.page - 1) * query.limit;
      const wanted = skip + query.limit;
      const products: Item[] = [];
      let counted = 0;
      let read = 0;
      let cursor: string | undefined;
      const search = query.search ? searchable(query.search) : undefined;
      do {
        const page = await table.query<Item>({
          ...base,
          // Counters always pass the filter: they carry the totals.
          ...(search ? { FilterExpression: 'contains(nameSearch, :q) OR entity = :counter' } : {}),
          ExpressionAttributeValues: {
            ...base.ExpressionAttributeValues,
            ...(search ? { ':q': search, ':counter': COUNTER } : {}),
          },
          ScanIndexForward: false,
          Limit: search ? 500 : Math.min(500, wanted - products.length + (read === 0 ? counterSlots : 0)),
          cursor,
        });
        read += page.scanned ?? page.items.length;
        for (const item of page.items) {
          if (item.entity === COUNTER) counted += Number(item.count ?? 0);
          else products.push(item);
        }
        cursor = page.cursor;
        if (!search && products.length >= wanted) break;
      } while (cursor && read < SEARCH_READ_LIMIT);
      return {
        items: products.slice(skip, wanted).map(toProduct),
        totalCount: search ? products.length : counted,
      };
    },

    async page(tenant, query) {
      // Sort key ranges that hold products only: the tab counters sort after every id (keys.productCounter).
      const out = await table.queryPage<Item>(
        query.active === undefined
          ? {
              KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
              ExpressionAttributeValues: {
                ':pk': keys.tenant(tenant),
                ':lo': keys.productPrefix,
                ':hi': `${keys.productPrefix}${keys.numericEnd}`,
              },
              ScanIndexForward: false,
              cursor: query.cursor,
            }
          : {
              IndexName: byState.name,
              KeyConditionExpression: '#pk = :pk AND #sk < :hi',
              ExpressionAttributeNames: { '#pk': byState.partitionKey, '#sk': byState.sortKey },
              ExpressionAttributeValues: {
                ':pk': keys.productsByState(tenant, query.active ? 'active' : 'archived'),
                ':hi': keys.numericEnd,
              },
              ScanIndexForward: false,
              cursor: query.cursor,
            },
        query.limit,
      );
      return { items: out.items.map(toProduct), cursor: out.cursor };
    },
  };
}
