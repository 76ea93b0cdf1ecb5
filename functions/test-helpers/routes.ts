import { eventEnvelopeResponse } from '#shared/domain/events/responses';
import { testEventSchema } from '#shared/domain/events/test-events';
import { mailIdParam, mailQuerySchema } from '#shared/domain/mail/mailbox';
import { MAIL_NOT_FOUND } from '#shared/domain/mail/not-found';
import { mailListResponse, mailResponse } from '#shared/domain/mail/responses';
import { numericIdParam, opaqueIdParam } from '#shared/domain/params';
import { PAYMENT_METHOD_NOT_FOUND } from '#shared/domain/payment-methods/payment-method';
import { PIX_AUTHORIZATION_NOT_FOUND } from '#shared/domain/payments/not-found';
import {
  cardOutcomeSchema,
  sandboxCardOutcomeResponse,
  sandboxPixAuthorizationResponse,
} from '#shared/domain/payments/sandbox-helpers';
import {
  testClockDeletedResponse,
  testClockListResponse,
  testClockResponse,
} from '#shared/domain/test-clocks/responses';
import {
  advanceTestClockSchema,
  createTestClockSchema,
  MAX_TEST_CLOCKS,
  TEST_CLOCK_LIFETIME_DAYS,
  TEST_CLOCK_NOT_FOUND,
  testClockIdParam,
  testClockQuerySchema,
} from '#shared/domain/test-clocks/test-clock';
import { TRANSACTION_NOT_FOUND } from '#shared/domain/transactions/not-found';
import { transactionResponse } from '#shared/domain/transactions/responses';
import { simulateSchema } from '#shared/domain/transactions/sandbox';
import { type AuthScheme, defineRoutes } from '#shared/http/types';

/** Sandbox helpers that also exist deployed; they act on test-environment data only. */
const auth: AuthScheme[] = ['apiKey', 'jwt'];

const simulation = <const Id extends string>(
  operationId: Id,
  action: string,
  summary = `Sandbox: ${action} a test transaction through a signed provider notification`,
) =>
  ({
    operationId,
    method: 'POST',
    path: `/api/test-helpers/transactions/{id}/${action}`,
    auth,
    testOnly: true,
    summary,
    request: { path: numericIdParam, body: simulateSchema, optionalBody: true },
    notFound: TRANSACTION_NOT_FOUND,
    errors: [409],
    responses: { 200: transactionResponse },
  }) as const;

const pixAuthorization = <const Id extends string>(operationId: Id, action: 'approve' | 'revoke') =>
  ({
    operationId,
    method: 'POST',
    path: `/api/test-helpers/pix-authorizations/{id}/${action}`,
    auth,
    testOnly: true,
    summary:
      action === 'approve'
        ? 'Sandbox: the bank activates a pending Pix Automático authorization without its first payment'
        : 'Sandbox: the payer revokes a Pix Automático authorization at the bank (later debits decline authorization_revoked)',
    request: { path: opaqueIdParam },
    notFound: PIX_AUTHORIZATION_NOT_FOUND,
    ...(action === 'approve' ? { errors: [409] } : {}),
    responses: { 200: sandboxPixAuthorizationResponse },
  }) as const;

export const testHelperRoutes = defineRoutes('test-helpers', [
  {
    operationId: 'emitTestEvent',
    method: 'POST',
    path: '/api/test-helpers/events',
    auth,
    testOnly: true,
    summary: 'Emit a sandbox event to the registered endpoints',
    request: { body: testEventSchema },
    responses: { 201: eventEnvelopeResponse },
  },
  simulation('payTestTransaction', 'pay'),
  simulation('failTestTransaction', 'fail'),
  simulation('chargebackTestTransaction', 'chargeback'),
  simulation(
    'reverseChargebackTestTransaction',
    'chargeback-reversal',
    'Sandbox: the seller wins the chargeback of a test transaction (paid again), through a signed provider notification',
  ),
  {
    operationId: 'setTestPaymentMethodOutcome',
    method: 'POST',
    path: '/api/test-helpers/payment-methods/{id}/outcome',
    auth,
    testOnly: true,
    summary: 'Sandbox: how a saved card answers its later charges (renewals, retries) from now on',
    description:
      'approved, declined (failureCode, default card_declined) or error (default processing_error). An expired card still declines expired_card.',
    request: { path: numericIdParam, body: cardOutcomeSchema },
    notFound: PAYMENT_METHOD_NOT_FOUND,
    responses: { 200: sandboxCardOutcomeResponse },
  },
  pixAuthorization('approveTestPixAuthorization', 'approve'),
  pixAuthorization('revokeTestPixAuthorization', 'revoke'),
  {
    operationId: 'listTestMail',
    method: 'GET',
    path: '/api/test-helpers/mail',
    auth,
    testOnly: true,
    summary: "Sandbox: the e-mail the seller's test activity sent (receipts…), newest first",
    description:
      'Test-mode mail never reaches a real inbox: it is kept here (30 days on AWS; in the data folder locally). `to` keeps the messages to one address.',
    request: { query: mailQuerySchema },
    responses: { 200: mailListResponse },
  },
  {
    operationId: 'getTestMail',
    method: 'GET',
    path: '/api/test-helpers/mail/{id}',
    auth,
    testOnly: true,
    summary: 'Sandbox: one e-mail message with its text and HTML parts',
    request: { path: mailIdParam },
    notFound: MAIL_NOT_FOUND,
    responses: { 200: mailResponse },
  },
  {
    operationId: 'createTestClock',
    method: 'POST',
    path: '/api/test-helpers/test-clocks',
    auth,
    testOnly: 'hidden',
    summary: 'Sandbox: a test clock at frozenTime, for customers whose time you move yourself',
    description: `Create customers on it with \`testClockId\` (POST /api/customers): their subscriptions, scheduled charges, carnês and saved cards (their expiry) live in its time. A seller keeps at most ${MAX_TEST_CLOCKS} clocks in the sandbox (409 \`limit_reached\`; deleting one frees a slot); each deletes itself ${TEST_CLOCK_LIFETIME_DAYS} days after its creation (\`deletesAfter\`), as DELETE does. Live tenants have no test clocks (404).`,
    request: { body: createTestClockSchema },
    errors: [409],
    responses: { 201: testClockResponse },
  },
  {
    operationId: 'listTestClocks',
    method: 'GET',
    path: '/api/test-helpers/test-clocks',
    auth,
    testOnly: 'hidden',
    summary: "Sandbox: the seller's test clocks",
    request: { query: testClockQuerySchema },
    responses: { 200: testClockListResponse },
  },
  {
    operationId: 'getTestClock',
    method: 'GET',
    path: '/api/test-helpers/test-clocks/{id}',
    auth,
    testOnly: 'hidden',
    summary: 'Sandbox: one test clock',
    request: { path: testClockIdParam },
    notFound: TEST_CLOCK_NOT_FOUND,
    responses: { 200: testClockResponse },
  },
  {
    operationId: 'deleteTestClock',
    method: 'DELETE',
    path: '/api/test-helpers/test-clocks/{id}',
    auth,
    testOnly: 'hidden',
    summary: 'Sandbox: delete a test clock',
    description:
      "What lived on it stays, frozen: nothing on it runs again (no schedule, sweep or advance), and its customers' new subscriptions, scheduled charges and carnês are refused (400), as the cards their payments would save.",
    request: { path: testClockIdParam },
    notFound: TEST_CLOCK_NOT_FOUND,
    responses: { 200: testClockDeletedResponse },
  },
  {
    operationId: 'advanceTestClock',
    method: 'POST',
    path: '/api/test-helpers/test-clocks/{id}/advance',
    auth,
    testOnly: 'hidden',
    summary: "Sandbox: move a test clock forward, running its customers' due work on the way",
    description:
      "Runs, in time order and each at its due time, the renewals, retries, reminders, issuance and expiries due on the clock up to frozenTime, then answers the clock `ready` at frozenTime. frozenTime must be later than the clock's, and at most two billing periods of the shortest subscription on the clock ahead of it, or two years with no subscription on it (400 otherwise). An advance cut short (409 `test_clock_advancing`) is finished by repeating it.",
    request: { path: testClockIdParam, body: advanceTestClockSchema },
    notFound: TEST_CLOCK_NOT_FOUND,
    errors: [409],
    responses: { 200: testClockResponse },
  },
]);
