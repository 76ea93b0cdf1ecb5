import type { CustomerAndProductReader, CustomerRepository, ProductRepository } from '#shared/domain/ports';
import { sameTenant } from '#shared/domain/tenant';
import type { FakeInstallmentPlanRepository } from './installment-plan-repository';

/**
 * The create reader over the other fakes, with the DynamoDB reader's answers: the tenant's customer
 * by id, the product by uuid of any tenant. (The DynamoDB reader may answer a copy of the profile,
 * which the create's write checks; these are always current.)
 */
export function fakeCustomerAndProductReader(deps: {
  customers: Pick<CustomerRepository, 'findProfileById'>;
  products: Pick<ProductRepository, 'findByUuid'>;
  /** The carnê guards `planFingerprint` reads (FakeInstallmentPlanRepository). */
  installmentPlans?: Pick<FakeInstallmentPlanRepository, 'hold'>;
}): CustomerAndProductReader {
  return {
    async read(tenant, { customerId, productUuid, planFingerprint }) {
      const product = productUuid === undefined ? null : await deps.products.findByUuid(productUuid);
      const mine = product && sameTenant(product.tenant, tenant);
      return {
        customer: await deps.customers.findProfileById(tenant, customerId),
        product,
        planHold:
          mine && planFingerprint && deps.installmentPlans
            ? deps.installmentPlans.hold(tenant, planFingerprint(product.id))
            : null,
      };
    },
  };
}
