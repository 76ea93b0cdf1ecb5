import { attemptsQuerySchema } from '#shared/domain/scheduled-charges/attempts';
import { PAY_LINK_NOT_FOUND, SCHEDULED_CHARGE_NOT_FOUND } from '#shared/domain/scheduled-charges/not-found';
import { payLinkCardSchema } from '#shared/domain/scheduled-charges/pay-link';
import {
  attemptListResponse,
  payLinkCardResponse,
  payLinkViewResponse,
} from '#shared/domain/scheduled-charges/pay-link-responses';
import { changePaymentMethodSchema } from '#shared/domain/scheduled-charges/payment-method';
import { scheduledChargeDetailResponse } from '#shared/domain/scheduled-charges/responses';
import { scheduledChargePathSchema } from '#shared/domain/scheduled-charges/schemas';
import { type AuthScheme, defineRoutes } from '#shared/http/types';
import { chargeAssetParam, payTokenParam } from './shapes';

const auth: AuthScheme[] = ['apiKey', 'jwt'];
const charge = '/api/v1/scheduled-charges/{id}';
/** A charge by its `sch_…` id; another seller's or environment's answers like a missing one. */
const byCharge = {
  auth,
  notFound: SCHEDULED_CHARGE_NOT_FOUND,
  request: { path: scheduledChargePathSchema },
} as const;
/** Any text reaches the use case: a malformed token gets the same 404 (page or JSON) as an unknown one. */
const byToken = payTokenParam;
const IN_FLIGHT =
  '409 while a card charge of a cycle is in progress, when the charge is closed, or when card is not among its methods.';

/**
 * Card collection seen from outside (issue 13): the seller's attempts log and saved-card
 * changes, and the public pay link of each cycle (its hosted page, the page's JSON and card form).
 * Public routes are rate limited per IP like every public route.
 */
export const chargePaymentRoutes = defineRoutes('charge-payments', [
  {
    ...byCharge,
    operationId: 'listScheduledChargeAttempts',
    method: 'GET',
    path: `${charge}/attempts`,
    summary: 'Attempt log of a charge across its cycles, newest first',
    description:
      'Card attempts (`cycle1_interactive`, `silent_charge`, `card_retry`; `fallback_pix` is reserved and never ' +
      'emitted). `cycleNumber` keeps one cycle; `page` (default 1) and `limit` (1..100, default 20). The card ' +
      'snapshot (`cardLast4`, `cardBrand`) survives the deletion of the saved card, whose `paymentMethodId` is then null.',
    request: {
      path: scheduledChargePathSchema,
      query: attemptsQuerySchema,
    },
    responses: { 200: attemptListResponse },
  },
  {
    ...byCharge,
    operationId: 'changeScheduledChargePaymentMethod',
    method: 'PUT',
    path: `${charge}/payment-method`,
    summary: 'Charge the card cycles on another saved card of the customer',
    description:
      '`paymentMethodId`: a saved card of the charge’s customer (404 `Payment method not found` otherwise; 400 ' +
      'for an expired one). The same card again changes nothing. Timeline `payment_method_changed`; webhook ' +
      `scheduled_charge.payment_method_changed. ${IN_FLIGHT}`,
    request: {
      path: scheduledChargePathSchema,
      body: changePaymentMethodSchema,
    },
    errors: [409],
    responses: { 200: scheduledChargeDetailResponse },
  },
  {
    ...byCharge,
    operationId: 'clearScheduledChargePaymentMethod',
    method: 'DELETE',
    path: `${charge}/payment-method`,
    summary: 'Clear the saved card: the next card cycle is paid by the customer on its link',
    description:
      'Planned retries are dropped (those cycles wait on their links). Timeline `payment_method_cleared`; webhook ' +
      `scheduled_charge.payment_method_cleared. 409 \`Scheduled charge has no payment method to clear\`. ${IN_FLIGHT}`,
    errors: [409],
    responses: { 200: scheduledChargeDetailResponse },
  },
  {
    operationId: 'getChargePage',
    method: 'GET',
    path: '/cobranca/{payToken}',
    auth: [],
    summary: 'Hosted pay link page of a scheduled charge cycle (pt-BR)',
    description:
      'Amount, due date and status; the cycle’s pix (QR code, copia e cola) and boleto (linha digitável, PDF), ' +
      'issued now when the link is opened before their issuance; the card form when the link takes a card.',
    request: { path: byToken },
    responses: {
      200: { contentType: 'text/html', description: 'The pay link page (pt-BR).' },
      404: { contentType: 'text/html', description: 'A page in Portuguese saying the link names no charge.' },
    },
  },
  {
    operationId: 'getChargePageAsset',
    method: 'GET',
    path: '/cobranca/assets/{file}',
    auth: [],
    // A static file that never touches the table: the per-IP counter would be its only DynamoDB traffic.
    rateLimited: false,
    summary: 'Script of the pay link page',
    request: { path: chargeAssetParam },
    notFound: 'Asset not found',
    responses: { 200: { contentType: 'text/*', description: 'The script (text/javascript).' } },
  },
  {
    operationId: 'getPayLink',
    method: 'GET',
    path: '/api/public/cobranca/{payToken}',
    auth: [],
    summary: 'What the pay link page shows (public)',
    notFound: PAY_LINK_NOT_FOUND,
    request: { path: byToken },
    errors: [404],
    responses: { 200: payLinkViewResponse },
  },
  {
    operationId: 'payPayLinkByCard',
    method: 'POST',
    path: '/api/public/cobranca/{payToken}/card',
    auth: [],
    summary: 'The pay link’s card form (public)',
    description:
      'Charges the cycle (attempt `cycle1_interactive`; a series keeps the approved card: ' +
      '`payment_method_attached`), or during a trial keeps the card without a charge (`card_saved`). A ' +
      'declined card is a 201 with status `declined` and `failure.code` `card_declined` whatever the issuer said ' +
      '(the seller reads the reason); 409 (in Portuguese) when the link takes no card now (paid, cancelled, paused, ' +
      'a card charge in progress). Cards are limited against card testing: 429 `card_attempts_blocked` ' +
      '(Retry-After) after too many declines, and after a few declines from one client 428 ' +
      '`proof_of_work_required` with a challenge in `X-Proof-Of-Work-Challenge`, whose solution goes in `X-Proof-Of-Work`.',
    notFound: PAY_LINK_NOT_FOUND,
    request: { path: byToken, body: payLinkCardSchema },
    errors: [404, 409, 428, 429, 503],
    responses: { 201: payLinkCardResponse },
  },
]);
