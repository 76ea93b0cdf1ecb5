import type {
  CustomerRepository,
  PaymentMethodRepository,
  PriceRepository,
  ProductRepository,
  SubscriptionStartReader,
} from '#shared/domain/ports';
import { findPriceByRef } from '#shared/domain/subscriptions/prices';

/**
 * The start reader over the other fakes, with the DynamoDB reader's answers: the customer by id,
 * the price by id or uuid with its product, the card by id, each the tenant's only. (The DynamoDB
 * reader may answer a copy of the profile, which its write checks; these are always current.)
 */
export function fakeSubscriptionStartReader(deps: {
  customers: Pick<CustomerRepository, 'findProfileById'>;
  prices: Pick<PriceRepository, 'get' | 'findByUuid'>;
  products: Pick<ProductRepository, 'get'>;
  paymentMethods: Pick<PaymentMethodRepository, 'get'>;
}): SubscriptionStartReader {
  return {
    async read(tenant, { customerId, priceRef, paymentMethodId }) {
      const price = await findPriceByRef(deps, tenant, priceRef);
      return {
        customer: await deps.customers.findProfileById(tenant, customerId),
        price,
        product: price ? await deps.products.get(tenant, price.product.id) : null,
        paymentMethod: await deps.paymentMethods.get(tenant, paymentMethodId),
      };
    },
  };
}
