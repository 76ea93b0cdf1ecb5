import { BOLETO_NOT_FOUND, TRANSACTION_NOT_FOUND } from '#shared/domain/transactions/not-found';
import { type AuthScheme, defineRoutes, lazySchemas } from '#shared/http/types';

// Request schemas load with the group's use cases on its first request (./use-cases.ts).
const schemas = lazySchemas(() => import('./use-cases'));
const transactionsResponses = lazySchemas(() => import('#shared/domain/transactions/responses'));

/** Spec rule 3: the "gateway" scheme of list/read/refund is an API key or the dashboard JWT here. */
const gateway: AuthScheme[] = ['apiKey', 'jwt'];
const byId = { notFound: TRANSACTION_NOT_FOUND, request: { path: schemas.numericIdParam } } as const;

export const transactionRoutes = defineRoutes('transactions', [
  {
    operationId: 'createTransaction',
    method: 'POST',
    path: '/api/transactions',
    auth: [],
    acceptsApiKey: true,
    idempotent: 'custom',
    summary: "The buyer's checkout creates a transaction",
    description:
      "X-Idempotency-Key is scoped to the seller that owns the product. The product's seller may call it with an API key; anyone else is a buyer: a declined card answers `failureCode` `card_declined` whatever the issuer said (the seller reads the reason), and cards are limited against card testing: 429 `card_attempts_blocked` (Retry-After) after too many declines, and after a few declines from one client 428 `proof_of_work_required` with a challenge in `X-Proof-Of-Work-Challenge`, whose solution goes in `X-Proof-Of-Work`.",
    request: { body: schemas.createTransactionSchema },
    errors: [404, 428, 429, 503],
    responses: { 201: transactionsResponses.transactionResponse },
  },
  {
    operationId: 'listTransactions',
    method: 'GET',
    path: '/api/transactions',
    auth: gateway,
    summary: "List the seller's transactions",
    request: { query: schemas.listSchema },
    responses: { 200: transactionsResponses.transactionListResponse },
  },
  {
    operationId: 'handleProviderNotification',
    method: 'POST',
    path: '/api/transactions/handle-webhook',
    auth: ['signature'],
    summary: 'Signed notification from the payment provider',
    description:
      'Authenticated by the X-Signature header over the raw body (the provider signs it). A verified notification is not rate-limited; failed signatures count against the client address like any failed authentication.',
    errors: [400, 404],
    responses: { 201: transactionsResponses.notificationResultResponse },
  },
  {
    operationId: 'getTransactionStatus',
    method: 'GET',
    path: '/api/transactions/status/{gatewayPayId}',
    auth: [],
    summary: 'Public status by the provider id',
    request: { path: schemas.gatewayPayIdParam },
    notFound: TRANSACTION_NOT_FOUND,
    responses: { 200: transactionsResponses.transactionStatusResponse },
  },
  {
    ...byId,
    operationId: 'getTransaction',
    method: 'GET',
    path: '/api/transactions/{id}',
    auth: gateway,
    summary: 'Transaction detail',
    responses: { 200: transactionsResponses.transactionResponse },
  },
  {
    ...byId,
    operationId: 'cancelTransactionByGatewayPayId',
    method: 'DELETE',
    path: '/api/transactions/{id}',
    auth: ['panel'],
    summary: 'Cancel an unpaid transaction by its gatewayPayId (panel only)',
    errors: [400, 409],
    responses: { 200: transactionsResponses.transactionCanceledResponse },
  },
  {
    ...byId,
    operationId: 'refundTransaction',
    method: 'POST',
    path: '/api/transactions/{id}/refund',
    auth: gateway,
    summary: 'Refund in whole or in part',
    request: { path: schemas.numericIdParam, body: schemas.refundSchema, optionalBody: true },
    errors: [400, 409],
    responses: { 200: transactionsResponses.transactionResponse },
  },
  {
    operationId: 'listCharges',
    method: 'GET',
    path: '/api/v1/charges',
    auth: ['apiKey'],
    summary: 'Charges, cursor pages',
    request: { query: schemas.chargesQuerySchema },
    responses: { 200: transactionsResponses.chargeListResponse },
  },
  {
    operationId: 'cancelCharge',
    method: 'DELETE',
    path: '/api/v1/charges/{uuid}',
    auth: ['apiKey'],
    summary: 'Cancel an unpaid charge',
    request: { path: schemas.uuidParam },
    notFound: TRANSACTION_NOT_FOUND,
    errors: [400, 409],
    responses: { 200: transactionsResponses.chargeCanceledResponse },
  },
  {
    operationId: 'getSandboxBoletoPdf',
    method: 'GET',
    path: '/api/sandbox/boletos/{gatewayPayId}/pdf',
    auth: [],
    summary: "The sandbox provider's boleto PDF",
    request: {
      path: schemas.gatewayPayIdParam,
      query: schemas.boletoTokenQuery,
    },
    notFound: BOLETO_NOT_FOUND,
    responses: { 200: { contentType: 'application/pdf', description: 'The boleto document' } },
  },
]);
