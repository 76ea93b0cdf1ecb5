import type { CustomerAndProductReader } from '#shared/domain/ports';
import type { Product } from '#shared/domain/products/products';
import { sameTenant, type Tenant } from '#shared/domain/tenant';
import { profileOfIdPointer } from './customer-repository';
import { type Key, keys } from './keys';
import { LinkMemory } from './link-memory';
import { toProduct } from './product-repository';
import type { Item, Table } from './table';

/**
 * A create's customer and product in one strongly consistent BatchGetItem: the customer's id
 * pointer, which carries a copy of the profile, and the product's copy under its uuid. A carnê's
 * duplicate guard is keyed by the product's id: it joins the BatchGetItem when this container knows
 * the uuid's id (a product's uuid, tenant and id never change); else the product is read first.
 */
export function createCustomerAndProductReader(table: Table): CustomerAndProductReader {
  const productLinks = new LinkMemory<{ tenant: Tenant; id: number }>();

  return {
    async read(tenant, { customerId, productUuid, planFingerprint }) {
      const productKey = productUuid === undefined ? null : keys.productCopy(productUuid);
      let link = productUuid === undefined ? undefined : productLinks.get(productUuid);
      let first: Item | undefined;
      if (productKey && !link && planFingerprint) {
        first = await table.get<Item>(productKey, { consistent: true });
        if (first) link = { tenant: toProduct(first).tenant, id: toProduct(first).id };
      }
      const pointerKey = keys.customerById(tenant, customerId);
      const holdKey =
        link && planFingerprint && sameTenant(link.tenant, tenant)
          ? keys.installmentPlanFingerprint(tenant, planFingerprint(link.id))
          : null;
      const items = await table.batchGet<Item>(present([pointerKey, first ? null : productKey, holdKey]), {
        consistent: true,
      });
      const itemOf = (key: Key) => items.find((i) => i.pk === key.pk && i.sk === key.sk);
      const stored = first ?? (productKey ? itemOf(productKey) : undefined);
      const product: Product | null = stored ? toProduct(stored) : null;
      if (productUuid !== undefined && product)
        productLinks.set(productUuid, { tenant: product.tenant, id: product.id });
      const hold = holdKey ? itemOf(holdKey) : undefined;
      const planHold = hold ? { planUuid: String(hold.planUuid), until: String(hold.until) } : null;
      const pointer = itemOf(pointerKey);
      return { customer: pointer ? profileOfIdPointer(pointer) : null, product, planHold };
    },
  };
}

const present = (list: (Key | null)[]): Key[] => list.filter((k): k is Key => k !== null);
