import type { SubscriptionPrice } from '#shared/domain/subscriptions/price';
import { keys } from '../keys';
import { fromTenantAttributes, tenantAttributes } from '../tenant-fields';
import { defineEntity } from './entity';

const DATA_FIELDS = [
  'id',
  'uuid',
  'product',
  'name',
  'unitAmount',
  'billingInterval',
  'intervalCount',
  'trialDays',
  'isActive',
  'createdAt',
  'updatedAt',
  'version',
] as const;

/** A subscription price, in its tenant's partition under its numeric id. */
export const priceEntity = defineEntity({
  entity: 'subscription-price',
  key: (p: SubscriptionPrice) => keys.price(p.tenant, p.id),
  patterns: {
    byUuid: {
      index: 'gsi1',
      doc: "`PRICEUUID#<uuid>` / `PRICE`: a price by its uuid (a checkout session's `price_id`; the tenant is compared)",
      at: (p) => ({ pk: keys.priceByUuid(p.uuid), sk: 'PRICE' }),
    },
    byProduct: {
      index: 'gsi2',
      doc: "`SELLER#<id>#<env>#PRICES#<productId>` / id: a product's prices, newest first",
      at: (p) => ({ pk: keys.pricesOfProduct(p.tenant, p.product.id), sk: keys.numeric(p.id) }),
    },
  },
  attributes: (p) => tenantAttributes(p, DATA_FIELDS),
  fromItem: (item) => fromTenantAttributes<SubscriptionPrice>(item, DATA_FIELDS),
});
