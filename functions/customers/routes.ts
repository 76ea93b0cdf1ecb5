import { customerListResponse, customerResponse } from '#shared/domain/customers/responses';
import {
  billingEmailOverrideSchema,
  createCustomerSchema,
  listCustomersSchema,
  updateCustomerSchema,
} from '#shared/domain/customers/schemas';
import { uuidParam } from '#shared/domain/params';
import { type AuthScheme, defineRoutes } from '#shared/http/types';

/** Spec: public API (API keys); the dashboard manages the same customers with its JWT. */
const auth: AuthScheme[] = ['apiKey', 'jwt'];
const NOT_FOUND = 'Customer not found';

export const customerRoutes = defineRoutes('customers', [
  {
    operationId: 'createCustomer',
    method: 'POST',
    path: '/api/v1/customers',
    auth,
    idempotent: true,
    summary: 'Register a customer (reuses the global customer of a known document)',
    description:
      '201 when this seller had no profile of the customer yet, 200 when a re-registration updated it.',
    request: { body: createCustomerSchema },
    responses: { 200: customerResponse, 201: customerResponse },
  },
  {
    operationId: 'listCustomers',
    method: 'GET',
    path: '/api/v1/customers',
    auth,
    summary: 'List customers, newest first',
    request: { query: listCustomersSchema },
    responses: { 200: customerListResponse },
  },
  {
    operationId: 'updateCustomer',
    method: 'PATCH',
    path: '/api/v1/customers/{uuid}',
    auth,
    summary: "Change this seller's view of a customer",
    request: { path: uuidParam, body: updateCustomerSchema },
    notFound: NOT_FOUND,
    errors: [409],
    responses: { 200: customerResponse },
  },
  {
    operationId: 'setBillingEmailOverride',
    method: 'PATCH',
    path: '/api/v1/customers/{uuid}/billing-email-override',
    auth,
    summary: 'Set or clear the billing e-mail override',
    request: { path: uuidParam, body: billingEmailOverrideSchema },
    notFound: NOT_FOUND,
    errors: [409],
    responses: { 200: customerResponse },
  },
]);
