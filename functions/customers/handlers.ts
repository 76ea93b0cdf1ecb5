import { createCustomer, setBillingEmailOverride, updateCustomer } from '#shared/domain/customers/customers';
import { listCustomers } from '#shared/domain/customers/listing';
import { deletePaymentMethod, listPaymentMethods } from '#shared/domain/payment-methods/manage';
import { defineHandlers } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { customerRoutes } from './routes';

export const group = defineHandlers(customerRoutes, ({ deps }) => ({
  // Spec: 201 for every successful registration, a new profile or an update of the seller's own.
  createCustomer: async ({ tenant, body }) => reply(201, (await createCustomer(deps, tenant, body)).customer),
  listCustomers: ({ tenant, query }) => listCustomers(deps, tenant, query),
  updateCustomer: ({ tenant, path, body }) => updateCustomer(deps, tenant, path.uuid, body),
  setBillingEmailOverride: ({ tenant, path, body }) =>
    setBillingEmailOverride(deps, tenant, path.uuid, body.billingEmailOverride),
  listPaymentMethods: ({ tenant, path }) => listPaymentMethods(deps, tenant, path.uuid),
  deletePaymentMethod: ({ tenant, path }) => deletePaymentMethod(deps, tenant, path.uuid, path.id),
}));
