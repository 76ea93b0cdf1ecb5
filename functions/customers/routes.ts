import { PAYMENT_METHOD_NOT_FOUND } from '#shared/domain/payment-methods/payment-method';
import { type AuthScheme, defineRoutes, lazySchemas } from '#shared/http/types';

// Request schemas load with the group's use cases on its first request (./use-cases.ts).
const schemas = lazySchemas(() => import('./use-cases'));

const customersResponses = lazySchemas(() => import('#shared/domain/customers/responses'));
const paymentMethodsResponses = lazySchemas(() => import('#shared/domain/payment-methods/responses'));

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
    request: { body: schemas.createCustomerSchema },
    responses: { 201: customersResponses.customerResponse },
  },
  {
    operationId: 'listCustomers',
    method: 'GET',
    path: '/api/v1/customers',
    auth,
    summary: 'List customers, newest first',
    request: { query: schemas.listCustomersSchema },
    responses: { 200: customersResponses.customerListResponse },
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
    request: { path: schemas.uuidParam, body: schemas.updateCustomerSchema },
    notFound: NOT_FOUND,
    errors: [409],
    responses: { 200: customersResponses.customerResponse },
  },
  {
    operationId: 'setBillingEmailOverride',
    method: 'PATCH',
    path: '/api/v1/customers/{uuid}/billing-email-override',
    auth,
    summary: 'Set or clear the billing e-mail override',
    request: { path: schemas.uuidParam, body: schemas.billingEmailOverrideSchema },
    notFound: NOT_FOUND,
    errors: [409],
    responses: { 200: customersResponses.customerResponse },
  },
  {
    operationId: 'listPaymentMethods',
    method: 'GET',
    path: '/api/v1/customers/{uuid}/payment-methods',
    auth,
    summary: "The customer's saved cards, newest first (never their tokens)",
    request: { path: schemas.uuidParam },
    notFound: NOT_FOUND,
    responses: { 200: paymentMethodsResponses.paymentMethodListResponse },
  },
  {
    operationId: 'deletePaymentMethod',
    method: 'DELETE',
    path: '/api/v1/customers/{uuid}/payment-methods/{id}',
    auth,
    summary: 'Detach a saved card: it is deleted and the provider forgets its token',
    description:
      "404 `Customer not found` when the customer is not this seller's, `Payment method not found` when the card is not this customer's.",
    request: { path: schemas.paymentMethodParams },
    notFound: PAYMENT_METHOD_NOT_FOUND,
    errors: [409],
    responses: { 200: paymentMethodsResponses.paymentMethodDeletedResponse },
  },
]);
