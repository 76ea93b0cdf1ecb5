import type { CustomerProfile } from '#shared/domain/customers/customer';
import type { CustomerAndProductReader } from '#shared/domain/ports';
import type { Product } from '#shared/domain/products/products';
import { sameTenant, type Tenant } from '#shared/domain/tenant';
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
 * costs a GetItem of the profile by uuid after it. A carnê's duplicate guard (keyed by the product's
 * id) joins the BatchGetItem; for a uuid not known yet the lookup goes first.
 */
export function createCustomerAndProductReader(table: Table): CustomerAndProductReader {
  const products = createProductRepository(table);
  const productLinks = new LinkMemory<{ tenant: Tenant; id: number }>();

  return {
    async read(tenant, { customerId, productUuid, planFingerprint }) {
      let link = productUuid === undefined ? undefined : productLinks.get(productUuid);
      let queried: Product | null = null;
      // The carnê's guard is keyed by the product's id: an unknown uuid is looked up first.
      if (productUuid !== undefined && !link && planFingerprint) {
        queried = await products.findByUuid(productUuid);
        if (queried) link = { tenant: queried.tenant, id: queried.id };
      }
      const pointerKey = keys.customerById(tenant, customerId);
      const productKey = link && !queried ? keys.product(link.tenant, link.id) : null;
      const holdKey =
        link && planFingerprint && sameTenant(link.tenant, tenant)
          ? keys.installmentPlanFingerprint(tenant, planFingerprint(link.id))
          : null;
      const [items, found] = await Promise.all([
        table.batchGet<Item>(present([pointerKey, productKey, holdKey]), { consistent: true }),
        productUuid !== undefined && !link ? products.findByUuid(productUuid) : queried,
      ]);
      const itemOf = (key: Key) => items.find((i) => i.pk === key.pk && i.sk === key.sk);
      const stored = productKey ? itemOf(productKey) : undefined;
      const product: Product | null = productKey ? (stored ? toProduct(stored) : null) : found;
      if (productUuid !== undefined && product)
        productLinks.set(productUuid, { tenant: product.tenant, id: product.id });
      const hold = holdKey ? itemOf(holdKey) : undefined;
      const planHold = hold ? { planUuid: String(hold.planUuid), until: String(hold.until) } : null;
      const pointer = itemOf(pointerKey);
      if (!pointer) return { customer: null, product, planHold };
      const { uuid, copy } = fromIdPointer(pointer);
      let customer: CustomerProfile | null = copy;
      if (!customer) {
        const item = await table.get<Item>(keys.customerProfile(tenant, uuid), { consistent: true });
        customer = item ? toProfile(item) : null;
      }
      return { customer, product, planHold };
    },
  };
}

const present = (list: (Key | null)[]): Key[] => list.filter((k): k is Key => k !== null);
