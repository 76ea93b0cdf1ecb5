import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { once } from '#shared/once';
import { customerRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

export const handler = createHttpHandler(customerRoutes, (c) => {
  const deps = { customers: c.repos.customers, clock: c.clock, ids: c.ids };
  const vault = {
    paymentMethods: c.repos.paymentMethods,
    customers: c.repos.customers,
    payments: c.payments,
    scheduler: c.scheduler,
    reporter: c.reporter,
  };
  return {
    // Spec: 201 for every successful registration, a new profile or an update of the seller's own.
    createCustomer: async ({ tenant, body }) =>
      reply(201, (await (await useCases()).createCustomer(deps, tenant, body)).customer),
    listCustomers: async ({ tenant, query }) => (await useCases()).listCustomers(deps, tenant, query),
    updateCustomer: async ({ tenant, path, body }) =>
      (await useCases()).updateCustomer(deps, tenant, path.uuid, body),
    setBillingEmailOverride: async ({ tenant, path, body }) =>
      (await useCases()).setBillingEmailOverride(deps, tenant, path.uuid, body.billingEmailOverride),
    listPaymentMethods: async ({ tenant, path }) =>
      (await useCases()).listPaymentMethods(vault, tenant, path.uuid),
    deletePaymentMethod: async ({ tenant, path }) =>
      (await useCases()).deletePaymentMethod(vault, tenant, path.uuid, path.id),
  };
});
