import type { PriceRepository } from '#shared/domain/ports';
import type { SubscriptionPrice } from '#shared/domain/subscriptions/price';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { priceEntity } from './entities/price';
import { keys } from './keys';
import { alreadyExists, type Item, orConflict, type Table } from './table';

const { byUuid, byProduct } = priceEntity.patterns;
const toItem = priceEntity.toItem;
const toPrice = priceEntity.fromItem;
const sameTenant = (a: Tenant, b: Tenant) => a.sellerId === b.sellerId && a.environment === b.environment;

export function createPriceRepository(table: Table): PriceRepository {
  return {
    // Prices are created rarely and listed by id: one id per round trip keeps the order exact.
    // Blocks of 20 per container, the next claimed in the background at half (issue 17), as payment methods.
    nextId: () => table.nextId('subscription-price', { block: 20 }),

    async create(price) {
      await orConflict(
        table.put(toItem(price), { ConditionExpression: 'attribute_not_exists(pk)' }),
        alreadyExists('The price'),
      );
    },

    async get(tenant, id) {
      const item = await table.get<Item>(keys.price(tenant, id), { consistent: true });
      return item ? toPrice(item) : null;
    },

    async findByUuid(tenant, uuid) {
      const out = await table.query<Item>({
        IndexName: byUuid.name,
        KeyConditionExpression: '#pk = :pk AND #sk = :sk',
        ExpressionAttributeNames: { '#pk': byUuid.partitionKey, '#sk': byUuid.sortKey },
        ExpressionAttributeValues: { ':pk': keys.priceByUuid(uuid), ':sk': 'PRICE' },
        Limit: 1,
      });
      const price = out.items[0] ? toPrice(out.items[0]) : null;
      // Another seller's (or environment's) price answers like a missing one.
      return price && sameTenant(price.tenant, tenant) ? price : null;
    },

    async listByProduct(tenant, productId) {
      const prices: SubscriptionPrice[] = [];
      let cursor: string | undefined;
      do {
        const page = await table.query<Item>({
          IndexName: byProduct.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': byProduct.partitionKey },
          ExpressionAttributeValues: { ':pk': keys.pricesOfProduct(tenant, productId) },
          ScanIndexForward: false,
          cursor,
        });
        prices.push(...page.items.map(toPrice));
        cursor = page.cursor;
      } while (cursor);
      return prices;
    },

    async save(next, previous) {
      await orConflict(
        table.put(toItem(next), {
          ConditionExpression: 'attribute_exists(pk) AND version = :v',
          ExpressionAttributeValues: { ':v': previous.version },
        }),
        (cause) =>
          new ConflictError('The price changed at the same time; retry', 'concurrent_update', {
            reason: 'changed',
            cause,
          }),
      );
    },
  };
}
