import type { CustomerDirectory } from '#shared/domain/ports/customer-area';
import { customerGlobalEmailEntity, customerSellerEntity } from './entities/customer-links';
import { sellerEntity } from './entities/seller';
import { keys } from './keys';
import type { Item, Table } from './table';

/** Bounded: an address registered with more documents than this is answered with the first ones. */
const MAX_DOCUMENTS = 20;

export function createCustomerDirectory(table: Table): CustomerDirectory {
  return {
    async documentsByEmail(environment, email) {
      const page = await table.query<Item>({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.customerGlobalEmailPartition(environment, email) },
        Limit: MAX_DOCUMENTS,
      });
      return page.items.map((item) => customerGlobalEmailEntity.fromItem(item).document);
    },

    async sellersOf(environment, document) {
      const { pk } = keys.customerSeller(environment, document, 0);
      const items: Item[] = [];
      let cursor: string | undefined;
      do {
        const page = await table.query<Item>({
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': keys.customerSellerPrefix },
          cursor,
        });
        items.push(...page.items);
        cursor = page.cursor;
      } while (cursor);
      return items.map(customerSellerEntity.fromItem);
    },

    async sellerName(sellerId) {
      const item = await table.get<Item>(keys.seller(sellerId));
      return (item && sellerEntity.fromItem(item).name) || null;
    },
  };
}
