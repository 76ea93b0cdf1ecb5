import type { DomainEvent } from '#shared/domain/events/events';
import type { ProductRepository } from '#shared/domain/ports';
import type { Product } from '#shared/domain/products/products';
import { ConflictError } from '#shared/errors';
import { productCopyEntity, productEntity, searchable } from './entities/product';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { alreadyExists, type Item, orConflict, type Table, type TransactItem } from './table';

const { byState } = productEntity.patterns;
/** Product search filters the seller's catalogue; it reads at most this many items per request. */
const SEARCH_READ_LIMIT = 5_000;

const toItem = productEntity.toItem;
/** The product of a stored product or product-copy item (the sale's readers share it). */
export const toProduct = productEntity.fromItem;
const copyPut = (p: Product): TransactItem => ({ Put: { Item: productCopyEntity.toItem(p) } });

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
