import type { CustomerProfile } from '#shared/domain/customers/customer';
import type { CustomerAndProductReader } from '#shared/domain/ports';
import type { Product } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import { toProfile } from './customer-queries';
import { fromIdPointer } from './customer-repository';
import { type Key, keys } from './keys';
import { LinkMemory } from './link-memory';
import { createProductRepository, toProduct } from './product-repository';
import type { Item, Table } from './table';

/**
 * A create's customer and product in one strongly consistent BatchGetItem (issue 17): the
 * customer's id pointer, which carries a copy of the profile, and the product by its key, known
 * from an earlier lookup of the uuid in this container (a product's uuid, tenant and id never
 * change). A uuid this container never looked up is found through its index (a Query, as
 * ProductRepository.findByUuid) beside the BatchGetItem; a pointer written before it carried a copy
 * costs a GetItem of the profile by uuid after it.
 */
export function createCustomerAndProductReader(table: Table): CustomerAndProductReader {
  const products = createProductRepository(table);
  const productLinks = new LinkMemory<{ tenant: Tenant; id: number }>();

  return {
    async read(tenant, { customerId, productUuid }) {
      const link = productUuid === undefined ? undefined : productLinks.get(productUuid);
      const pointerKey = keys.customerById(tenant, customerId);
      const productKey = link ? keys.product(link.tenant, link.id) : null;
      const [items, queried] = await Promise.all([
        table.batchGet<Item>(productKey ? [pointerKey, productKey] : [pointerKey], { consistent: true }),
        productUuid !== undefined && !link ? products.findByUuid(productUuid) : null,
      ]);
      const itemOf = (key: Key) => items.find((i) => i.pk === key.pk && i.sk === key.sk);
      const stored = productKey ? itemOf(productKey) : undefined;
      const product: Product | null = productKey ? (stored ? toProduct(stored) : null) : queried;
      if (productUuid !== undefined && product)
        productLinks.set(productUuid, { tenant: product.tenant, id: product.id });
      const pointer = itemOf(pointerKey);
      if (!pointer) return { customer: null, product };
      const { uuid, copy } = fromIdPointer(pointer);
      let customer: CustomerProfile | null = copy;
      if (!customer) {
        const item = await table.get<Item>(keys.customerProfile(tenant, uuid), { consistent: true });
        customer = item ? toProfile(item) : null;
      }
      return { customer, product };
    },
  };
}
