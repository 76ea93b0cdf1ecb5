import { dashboardSummaryResponse } from '#shared/domain/dashboard/responses';
import { SUMMARY_MAX_DAYS, summaryQuery } from '#shared/domain/dashboard/summary';
import { transactionExportSchema } from '#shared/domain/exports/transactions';
import { gatewayPayIdParam, numericIdParam, uuidParam } from '#shared/domain/params';
import { createTransactionSchema } from '#shared/domain/transactions/create';
import { listSchema, refundSchema } from '#shared/domain/transactions/manage';
import { BOLETO_NOT_FOUND, TRANSACTION_NOT_FOUND } from '#shared/domain/transactions/not-found';
import { chargesQuerySchema } from '#shared/domain/transactions/queries';
import {
  chargeCanceledResponse,
  chargeListResponse,
  notificationResultResponse,
  transactionCanceledResponse,
  transactionListResponse,
  transactionResponse,
  transactionStatusResponse,
  transactionTimelineResponse,
} from '#shared/domain/transactions/responses';
import { type AuthScheme, defineRoutes } from '#shared/http/types';
import { boletoTokenQuery } from './shapes';

/** Spec rule 3: the "gateway" scheme of list/read/refund is an API key or the dashboard JWT here. */
const gateway: AuthScheme[] = ['apiKey', 'jwt'];
const byId = { notFound: TRANSACTION_NOT_FOUND, request: { path: numericIdParam } } as const;

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
    request: { body: createTransactionSchema },
    errors: [404, 428, 429, 503],
    responses: { 201: transactionResponse },
  },
  {
    operationId: 'listTransactions',
    method: 'GET',
    path: '/api/transactions',
    auth: gateway,
    summary: "List the seller's transactions",
    description:
      'Newest first. Numbered pages (`page`) answer `totalPages`; pass `cursor` (the `nextCursor` of the previous ' +
      'page) to page by cursor instead, without totals. `from` and `to` are Sao Paulo days, both included.',
    request: { query: listSchema },
    responses: { 200: transactionListResponse },
  },
  {
    operationId: 'exportTransactions',
    method: 'GET',
    path: '/api/transactions/export',
    auth: gateway,
    summary: 'The transactions of a filter as CSV (Excel pt-BR)',
    description:
      "The list's filters, every matching transaction newest first. `;` separates fields, decimals use a comma, " +
      'dates are DD/MM/AAAA (Sao Paulo), UTF-8 with a BOM; text is quoted and text starting with `=`, `+`, `-` ' +
      "or `@` is prefixed with `'` so no spreadsheet runs it. An answer holds at most about 5 MB (some 15,000 " +
      'rows): when more follows, the `X-Next-Cursor` header names it; ask again with `cursor` for the next part ' +
      '(no BOM, no header line), and append it.',
    request: { query: transactionExportSchema },
    responses: { 200: { contentType: 'text/csv', description: 'The CSV file, or one part of it' } },
  },
  {
    operationId: 'getDashboardSummary',
    method: 'GET',
    path: '/api/dashboard/summary',
    auth: gateway,
    summary: "The seller's home: sales of a range, a receber, what falls due, recent activity",
    description: `Read from daily figures the transactions' own writes keep (a sale counts on the day it was created, America/Sao_Paulo; its refunds and chargebacks change that day), so the cost follows the days, not the sales. At most ${SUMMARY_MAX_DAYS} days.`,
    request: { query: summaryQuery },
    responses: { 200: dashboardSummaryResponse },
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
    responses: { 201: notificationResultResponse },
  },
  {
    operationId: 'getTransactionStatus',
    method: 'GET',
    path: '/api/transactions/status/{gatewayPayId}',
    auth: [],
    summary: 'Public status by the provider id',
    request: { path: gatewayPayIdParam },
    notFound: TRANSACTION_NOT_FOUND,
    responses: { 200: transactionStatusResponse },
  },
  {
    ...byId,
    operationId: 'getTransaction',
    method: 'GET',
    path: '/api/transactions/{id}',
    auth: gateway,
    summary: 'Transaction detail',
    responses: { 200: transactionResponse },
  },
  {
    ...byId,
    operationId: 'getTransactionTimeline',
    method: 'GET',
    path: '/api/transactions/{id}/timeline',
    auth: gateway,
    summary:
      "What happened to a transaction: the provider's ids, status changes, events and webhook deliveries",
    responses: { 200: transactionTimelineResponse },
  },
  {
    ...byId,
    operationId: 'cancelTransactionByGatewayPayId',
    method: 'DELETE',
    path: '/api/transactions/{id}',
    auth: ['panel'],
    summary: 'Cancel an unpaid transaction by its gatewayPayId (panel only)',
    errors: [400, 409],
    responses: { 200: transactionCanceledResponse },
  },
  {
    ...byId,
    operationId: 'refundTransaction',
    method: 'POST',
    path: '/api/transactions/{id}/refund',
    auth: gateway,
    summary: 'Refund in whole or in part',
    request: { path: numericIdParam, body: refundSchema, optionalBody: true },
    errors: [400, 409],
    responses: { 200: transactionResponse },
  },
  {
    operationId: 'listCharges',
    method: 'GET',
    path: '/api/v1/charges',
    auth: ['apiKey'],
    summary: 'Charges, cursor pages',
    request: { query: chargesQuerySchema },
    responses: { 200: chargeListResponse },
  },
  {
    operationId: 'cancelCharge',
    method: 'DELETE',
    path: '/api/v1/charges/{uuid}',
    auth: ['apiKey'],
    summary: 'Cancel an unpaid charge',
    request: { path: uuidParam },
    notFound: TRANSACTION_NOT_FOUND,
    errors: [400, 409],
    responses: { 200: chargeCanceledResponse },
  },
  {
    operationId: 'getSandboxBoletoPdf',
    method: 'GET',
    path: '/api/sandbox/boletos/{gatewayPayId}/pdf',
    auth: [],
    summary: "The sandbox provider's boleto PDF",
    request: {
      path: gatewayPayIdParam,
      query: boletoTokenQuery,
    },
    notFound: BOLETO_NOT_FOUND,
    responses: { 200: { contentType: 'application/pdf', description: 'The boleto document' } },
  },
]);
