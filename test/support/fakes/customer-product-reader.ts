import type {
  CustomerAndProductReader,
  CustomerRepository,
  ProductRepository,
} from '../../../shared/domain/ports';

/**
 * The create reader over the other fakes, with the DynamoDB reader's answers: the tenant's customer
 * by id, the product by uuid of any tenant. (The DynamoDB reader may answer a copy of the profile,
 * which the create's write checks; these are always current.)
 */
export function fakeCustomerAndProductReader(deps: {
  customers: Pick<CustomerRepository, 'findProfileById'>;
  products: Pick<ProductRepository, 'findByUuid'>;
}): CustomerAndProductReader {
  return {
    async read(tenant, { customerId, productUuid }) {
      return {
        customer: await deps.customers.findProfileById(tenant, customerId),
        product: productUuid === undefined ? null : await deps.products.findByUuid(productUuid),
      };
    },
  };
}
