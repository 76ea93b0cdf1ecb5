import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { customerRoutes } from './routes';

// Use cases load on their route's first request, not at cold start (docs/decisions.md, "Cold start").
const customersCustomers = () => import('#shared/domain/customers/customers');
const customersListing = () => import('#shared/domain/customers/listing');
const paymentMethodsManage = () => import('#shared/domain/payment-methods/manage');

export const handler = createHttpHandler(customerRoutes, (c) => {
  const deps = { customers: c.repos.customers, clock: c.clock, ids: c.ids };
  const vault = {
    paymentMethods: c.repos.paymentMethods,
    customers: c.repos.customers,
    payments: c.payments,
    scheduler: c.scheduler,
  };
  return {
    createCustomer: async ({ tenant, body }) => {
      const out = await (await customersCustomers()).createCustomer(deps, tenant, body);
      return reply(out.created ? 201 : 200, out.customer);
    },
    listCustomers: async ({ tenant, query }) => (await customersListing()).listCustomers(deps, tenant, query),
    updateCustomer: async ({ tenant, path, body }) =>
      (await customersCustomers()).updateCustomer(deps, tenant, path.uuid, body),
    setBillingEmailOverride: async ({ tenant, path, body }) =>
      (await customersCustomers()).setBillingEmailOverride(
        deps,
        tenant,
        path.uuid,
        body.billingEmailOverride,
      ),
    listPaymentMethods: async ({ tenant, path }) =>
      (await paymentMethodsManage()).listPaymentMethods(vault, tenant, path.uuid),
    deletePaymentMethod: async ({ tenant, path, request }) => {
      const onCleanupError = (error: unknown) => request.log.error('saved card clean-up failed', { error });
      return (await paymentMethodsManage()).deletePaymentMethod(
        { ...vault, onCleanupError },
        tenant,
        path.uuid,
        path.id,
      );
    },
  };
});
