import { eventEnvelopeResponse } from '#shared/domain/events/responses';
import { testEventSchema } from '#shared/domain/events/test-events';
import { MAIL_NOT_FOUND, mailIdParam, mailQuerySchema } from '#shared/domain/mail/mailbox';
import { mailListResponse, mailResponse } from '#shared/domain/mail/responses';
import { numericIdParam } from '#shared/domain/params';
import { transactionResponse } from '#shared/domain/transactions/responses';
import { simulateSchema } from '#shared/domain/transactions/sandbox';
import { TRANSACTION_NOT_FOUND } from '#shared/domain/transactions/transaction';
import { type AuthScheme, defineRoutes } from '#shared/http/types';

/** Sandbox helpers that also exist deployed; they act on test-environment data only. */
const auth: AuthScheme[] = ['apiKey', 'jwt'];

const simulation = <const Id extends string>(operationId: Id, action: string) =>
  ({
    operationId,
    method: 'POST',
    path: `/api/test-helpers/transactions/{id}/${action}`,
    auth,
    testOnly: true,
    summary: `Sandbox: ${action} a test transaction through a signed provider notification`,
    request: { path: numericIdParam, body: simulateSchema, optionalBody: true },
    notFound: TRANSACTION_NOT_FOUND,
    errors: [409],
    responses: { 200: transactionResponse },
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
]);
