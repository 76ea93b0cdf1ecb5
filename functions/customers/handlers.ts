import {
  createCustomer,
  getCustomer,
  setBillingEmailOverride,
  updateCustomer,
} from '#shared/domain/customers/customers';
import { listCustomers } from '#shared/domain/customers/listing';
import { exportCustomers } from '#shared/domain/exports/customers';
import { deletePaymentMethod, listPaymentMethods } from '#shared/domain/payment-methods/manage';
import { csvReply } from '#shared/http/csv-reply';
import { defineHandlers } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { customerRoutes } from './routes';

export const group = defineHandlers(customerRoutes, ({ deps }) => ({
  // Spec: 201 for every successful registration, a new profile or an update of the seller's own.
  createCustomer: async ({ tenant, body }) => reply(201, (await createCustomer(deps, tenant, body)).customer),
  listCustomers: ({ tenant, query }) => listCustomers(deps, tenant, query),
  exportCustomers: async ({ tenant, query }) =>
    csvReply('clientes', await exportCustomers(deps, tenant, query), deps.clock.now()),
  getCustomer: ({ tenant, path }) => getCustomer(deps, tenant, path.uuid),
  updateCustomer: ({ tenant, path, body }) => updateCustomer(deps, tenant, path.uuid, body),
  setBillingEmailOverride: ({ tenant, path, body }) =>
    setBillingEmailOverride(deps, tenant, path.uuid, body.billingEmailOverride),
  listPaymentMethods: ({ tenant, path }) => listPaymentMethods(deps, tenant, path.uuid),
  deletePaymentMethod: ({ tenant, path }) => deletePaymentMethod(deps, tenant, path.uuid, path.id),
}));
