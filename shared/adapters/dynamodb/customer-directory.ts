import type { CustomerDirectory } from '#shared/domain/ports/customer-area';
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
      return page.items.map((item) => String(item.document));
    },
  };
}
