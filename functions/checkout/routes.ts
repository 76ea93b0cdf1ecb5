import {
  checkoutSessionEnvelope,
  checkoutSessionListResponse,
  checkoutSessionResponse,
  checkoutViewResponse,
  paymentOutcomeResponse,
} from '#shared/domain/checkout/responses';
import {
  createSessionSchema,
  listSessionsSchema,
  payCheckoutSchema,
  testPaySchema,
} from '#shared/domain/checkout/schemas';
import { CHECKOUT_NOT_FOUND, SESSION_NOT_FOUND } from '#shared/domain/checkout/session';
import { checkoutPaymentParam, checkoutRefParam, opaqueIdParam } from '#shared/domain/params';
import { type AuthScheme, defineRoutes } from '#shared/http/types';

const auth: AuthScheme[] = ['apiKey', 'jwt'];
const bySession = { auth, notFound: SESSION_NOT_FOUND, request: { path: opaqueIdParam } } as const;
/** The hosted page's reference: a session id (`cs_…`) or a product uuid. */
const refParam = checkoutRefParam;

export const checkoutRoutes = defineRoutes('checkout', [
  {
    operationId: 'createCheckoutSession',
    method: 'POST',
    path: '/api/checkout/sessions',
    auth,
    idempotent: true,
    summary: 'Create a checkout session (a hosted payment page for one product)',
    description:
      'Expires after 24 hours by default (`expires_at` from 30 minutes to 7 days ahead). Supports X-Idempotency-Key. With `price_id` (an active subscription price of the product, by id or uuid) paying the session starts a subscription: card (kept for the renewals) or pix (Pix Automático), card only when the price has a trial; `boleto` is refused.',
    request: { body: createSessionSchema },
    errors: [503],
    responses: { 201: checkoutSessionResponse },
  },
  {
    operationId: 'listCheckoutSessions',
    method: 'GET',
    path: '/api/checkout/sessions',
    auth,
    summary: 'List checkout sessions, newest first',
    description:
      'Filters: status, product_id, customer_email, created_from and created_to (inclusive ISO 8601 bounds on created_at).',
    request: { query: listSessionsSchema },
    responses: { 200: checkoutSessionListResponse },
  },
  {
    ...bySession,
    operationId: 'getCheckoutSession',
    method: 'GET',
    path: '/api/checkout/sessions/{id}',
    summary: 'Retrieve a checkout session',
    responses: { 200: checkoutSessionEnvelope },
  },
  {
    ...bySession,
    operationId: 'expireCheckoutSession',
    method: 'POST',
    path: '/api/checkout/sessions/{id}/expire',
    summary: 'Expire an open checkout session',
    description:
      'Its pending pix and boletos stop being payable. 409 `Session cannot be expired` unless it is open.',
    errors: [409],
    responses: { 200: checkoutSessionEnvelope },
  },
  {
    operationId: 'getCheckoutPage',
    method: 'GET',
    path: '/api/public/checkout/{ref}',
    auth: [],
    summary: 'What the hosted payment page shows (public)',
    description: '`ref` is a checkout session id or a product uuid (its payment link).',
    notFound: CHECKOUT_NOT_FOUND,
    request: { path: refParam },
    responses: { 200: checkoutViewResponse },
  },
  {
    operationId: 'payCheckout',
    method: 'POST',
    path: '/api/public/checkout/{ref}/pay',
    auth: [],
    summary: "The hosted page's payment (public)",
    description:
      'Pays a session or a payment link by pix, boleto or card. A declined card is a 201 with status `declined` and `failure.code` `card_declined` whatever the issuer said (the seller reads the reason); 409 when the session is no longer open or the product does not sell. A session with a subscription price answers the subscription it started; a price with a trial keeps the card without charging it (status `trialing`). Cards are limited against card testing: 429 `card_attempts_blocked` (Retry-After) after too many declines, and after a few declines from one client 428 `proof_of_work_required` with a challenge in `X-Proof-Of-Work-Challenge`, whose solution goes in `X-Proof-Of-Work`.',
    notFound: CHECKOUT_NOT_FOUND,
    request: { path: refParam, body: payCheckoutSchema },
    errors: [409, 428, 429, 503],
    responses: { 201: paymentOutcomeResponse },
  },
  {
    operationId: 'getCheckoutPayment',
    method: 'GET',
    path: '/api/public/checkout/{ref}/payments/{paymentId}',
    auth: [],
    summary: 'A payment made on the hosted page, for polling while it is pending (public)',
    notFound: CHECKOUT_NOT_FOUND,
    request: { path: checkoutPaymentParam },
    responses: { 200: paymentOutcomeResponse },
  },
  {
    ...bySession,
    operationId: 'payTestCheckoutSession',
    method: 'POST',
    path: '/api/test-helpers/checkout/sessions/{id}/pay',
    testOnly: true,
    summary: 'Sandbox: pay a test checkout session through the hosted page path',
    description:
      "Card: pays exactly as the page does (`card`, `save_card`). Pix and boleto: the session's pending payment of that method (the one a page created) is paid by a signed provider notification; without one, one is created first. The buyer is the session's prefill unless `customer` is sent; fields both leave out (name, e-mail, document, phone) are filled with a test buyer's, whose CPF follows its e-mail. The card may be named `card` or `creditcard`.",
    request: { path: opaqueIdParam, body: testPaySchema },
    errors: [409],
    responses: { 200: checkoutSessionEnvelope },
  },
]);
