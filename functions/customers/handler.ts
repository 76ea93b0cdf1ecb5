import { createCustomer, setBillingEmailOverride, updateCustomer } from '#shared/domain/customers/customers';
import { listCustomers } from '#shared/domain/customers/listing';
import { deletePaymentMethod, listPaymentMethods } from '#shared/domain/payment-methods/manage';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { customerRoutes } from './routes';

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
      const out = await createCustomer(deps, tenant, body);
      return reply(out.created ? 201 : 200, out.customer);
    },
    listCustomers: ({ tenant, query }) => listCustomers(deps, tenant, query),
    updateCustomer: ({ tenant, path, body }) => updateCustomer(deps, tenant, path.uuid, body),
    setBillingEmailOverride: ({ tenant, path, body }) =>
      setBillingEmailOverride(deps, tenant, path.uuid, body.billingEmailOverride),
    listPaymentMethods: ({ tenant, path }) => listPaymentMethods(vault, tenant, path.uuid),
    deletePaymentMethod: ({ tenant, path, request }) => {
      const onCleanupError = (error: unknown) => request.log.error('saved card clean-up failed', { error });
      return deletePaymentMethod({ ...vault, onCleanupError }, tenant, path.uuid, path.id);
    },
  };
});
