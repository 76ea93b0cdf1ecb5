import { customerListResponse, customerResponse } from '#shared/domain/customers/responses';
import {
  billingEmailOverrideSchema,
  listCustomersSchema,
  registerCustomerSchema,
  updateCustomerSchema,
} from '#shared/domain/customers/schemas';
import { customerExportSchema } from '#shared/domain/exports/customers';
import { paymentMethodParams, uuidParam } from '#shared/domain/params';
import { PAYMENT_METHOD_NOT_FOUND } from '#shared/domain/payment-methods/payment-method';
import {
  paymentMethodDeletedResponse,
  paymentMethodListResponse,
} from '#shared/domain/payment-methods/responses';
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
      "201 with the seller's profile of the customer: a new one, or its own profile updated when the seller registers a document again.",
    request: { body: registerCustomerSchema },
    responses: { 201: customerResponse },
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
    operationId: 'exportCustomers',
    method: 'GET',
    path: '/api/v1/customers/export',
    auth,
    summary: 'The customers of a filter as CSV (Excel pt-BR)',
    description:
      "The list's filters (`search`, `status`), every matching customer newest first. `;` separates fields, " +
      'decimals use a comma, dates are DD/MM/AAAA (Sao Paulo), UTF-8 with a BOM; text is quoted and text ' +
      "starting with `=`, `+`, `-` or `@` is prefixed with `'` so no spreadsheet runs it. An answer holds at " +
      'most about 5 MB: when more follows, the `X-Next-Cursor` header names it; ask again with `cursor` for ' +
      'the next part (no BOM, no header line), and append it.',
    request: { query: customerExportSchema },
    responses: { 200: { contentType: 'text/csv', description: 'The CSV file, or one part of it' } },
  },
  {
    operationId: 'getCustomer',
    method: 'GET',
    path: '/api/v1/customers/{uuid}',
    auth,
    summary: "This seller's view of a customer",
    request: { path: uuidParam },
    notFound: NOT_FOUND,
    responses: { 200: customerResponse },
  },
  {
    operationId: 'updateCustomer',
    method: 'PATCH',
    path: '/api/v1/customers/{uuid}',
    auth,
    summary: "Change this seller's view of a customer",
    description:
      'Every field optional, in the formats of the registration. A new `document` corrects a mistyped one: ' +
      'the customer keeps its `id`, `uuid` and history and joins the customer of that document (other ' +
      'sellers see nothing change); `personType` follows the document. 409 when this seller already has a ' +
      'customer with that document.',
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
  {
    operationId: 'listPaymentMethods',
    method: 'GET',
    path: '/api/v1/customers/{uuid}/payment-methods',
    auth,
    summary: "The customer's saved cards, newest first (never their tokens)",
    request: { path: uuidParam },
    notFound: NOT_FOUND,
    responses: { 200: paymentMethodListResponse },
  },
  {
    operationId: 'deletePaymentMethod',
    method: 'DELETE',
    path: '/api/v1/customers/{uuid}/payment-methods/{id}',
    auth,
    summary: 'Detach a saved card: it is deleted and the provider forgets its token',
    description:
      "404 `Customer not found` when the customer is not this seller's, `Payment method not found` when the card is not this customer's.",
    request: { path: paymentMethodParams },
    notFound: PAYMENT_METHOD_NOT_FOUND,
    errors: [409],
    responses: { 200: paymentMethodDeletedResponse },
  },
]);
