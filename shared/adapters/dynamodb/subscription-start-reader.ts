import type { CustomerProfile } from '#shared/domain/customers/customer';
import type { SubscriptionStartReader, SubscriptionStartReads } from '#shared/domain/ports';
import type { SubscriptionPrice } from '#shared/domain/subscriptions/price';
import type { Tenant } from '#shared/domain/tenant';
import { looksLikeNumericId, looksLikeUuid } from '#shared/ids';
import { profileOfIdPointer } from './customer-repository';
import { priceEntity } from './entities/price';
import { productEntity } from './entities/product';
import { type Key, keys } from './keys';
import { LinkMemory } from './link-memory';
import { toPaymentMethod } from './payment-method-repository';
import { createPriceRepository } from './price-repository';
import type { Item, Table } from './table';

/**
 * POST /api/subscriptions' reads in one strongly consistent BatchGetItem (issue 17): the customer's
 * id pointer (which carries a copy of the profile), the price, the saved card and the price's
 * product, whose id this container remembers from an earlier read of the price (a price never
 * changes product). A second GetItem reads what the first could not name: the product of a price
 * this container never read. A price named by uuid is found through its index first (a Query).
 */
export function createSubscriptionStartReader(table: Table): SubscriptionStartReader {
  const prices = createPriceRepository(table);
  const productOfPrice = new LinkMemory<number>();
  const priceLink = (tenant: Tenant, priceId: number) =>
    `${tenant.sellerId}#${tenant.environment}#${priceId}`;

  return {
    async read(tenant, { customerId, priceRef, paymentMethodId }): Promise<SubscriptionStartReads> {
      let price: SubscriptionPrice | null = null;
      let priceId: number | null = null;
      if (looksLikeNumericId(priceRef)) priceId = Number(priceRef);
      else if (looksLikeUuid(priceRef)) price = await prices.findByUuid(tenant, priceRef.toLowerCase());
      const pointerKey = keys.customerById(tenant, customerId);
      const cardKey = keys.paymentMethod(tenant, paymentMethodId);
      const priceKey = priceId === null ? null : keys.price(tenant, priceId);
      const knownProduct = price
        ? price.product.id
        : priceId === null
          ? undefined
          : productOfPrice.get(priceLink(tenant, priceId));
      const first = [pointerKey, cardKey, priceKey];
      if (knownProduct !== undefined) first.push(keys.product(tenant, knownProduct));
      const found = bySortKey(await table.batchGet<Item>(present(first), { consistent: true }));

      if (priceKey) {
        const item = found.get(priceKey.sk);
        price = item ? priceEntity.fromItem(item) : null;
      }
      if (price) productOfPrice.set(priceLink(tenant, price.id), price.product.id);
      const pointer = found.get(pointerKey.sk);
      const customer: CustomerProfile | null = pointer ? profileOfIdPointer(pointer) : null;
      const productKey = price ? keys.product(tenant, price.product.id) : null;
      // Only what the first read could not name: a product not known yet.
      if (productKey && !found.has(productKey.sk)) {
        const item = await table.get<Item>(productKey, { consistent: true });
        if (item) found.set(productKey.sk, item);
      }
      const product = productKey ? found.get(productKey.sk) : undefined;
      const card = found.get(cardKey.sk);
      return {
        customer,
        price,
        product: product ? productEntity.fromItem(product) : null,
        paymentMethod: card ? toPaymentMethod(card) : null,
      };
    },
  };
}

const present = (list: (Key | null)[]): Key[] => list.filter((k): k is Key => k !== null);

/** Every key read here is in the tenant's partition: the sort key names the item. */
const bySortKey = (items: Item[]) => new Map(items.map((item) => [String(item.sk), item]));
