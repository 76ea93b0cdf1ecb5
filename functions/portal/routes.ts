import { numericIdParam } from '#shared/domain/params';
import {
  portalCustomerResponse,
  portalResponse,
  portalSessionResponse,
  portalSubscriptionResponse,
} from '#shared/domain/portal/responses';
import {
  portalAddCardSchema,
  portalCancelSchema,
  portalCustomerInfoSchema,
  portalPaymentMethodSchema,
} from '#shared/domain/portal/schemas';
import { createPortalSessionSchema } from '#shared/domain/portal/sessions';
import { subscriptionEventListResponse } from '#shared/domain/subscriptions/responses';
import { SUBSCRIPTION_NOT_FOUND } from '#shared/domain/subscriptions/subscription';
import { type AuthScheme, defineRoutes } from '#shared/http/types';

/**
 * The portal token travels in the `token` query parameter (spec); the `portalToken` scheme reads it
 * before anything else, so these routes declare no query schema of their own (the token is the
 * security scheme's parameter in the OpenAPI document). The request log writes the path, never
 * the query string, so the token is not logged.
 */
const token: AuthScheme[] = ['portalToken'];
const FLAG_RULE =
  "403 `Insufficient permissions` when the portal configuration of the subscription's product (its own, " +
  "else the seller's) does not allow it, whatever product the session was made for.";
const SESSION_FLAG_RULE =
  "403 `Insufficient permissions` when the session's portal configuration does not allow it.";
const bySubscription = {
  auth: token,
  notFound: SUBSCRIPTION_NOT_FOUND,
  request: { path: numericIdParam },
  errors: [403],
} as const;
const subscription = '/api/portal/subscriptions/{id}';
const STATE_RULE =
  '409 `Subscription cannot be <verb>: it is <status>` when its state refuses the action; ' +
  "404 `Subscription not found` for another customer's subscription.";

export const portalRoutes = defineRoutes('portal', [
  {
    operationId: 'createPortalSession',
    method: 'POST',
    path: '/api/portal/sessions',
    auth: ['apiKey'],
    summary: 'Create a customer portal session',
    description:
      "`customerId` (required), `productId` (its portal configuration gives the page's look and texts and " +
      "governs billing data; else the seller's does; each subscription's actions follow its own product's), " +
      '`returnUrl` (HTTPS). Answers a one-hour token, shown only here, and the portal URL to open. ' +
      'Not idempotent: each call is a new visit with a new token. 404 `Customer not found` or ' +
      "`Product not found` for another seller's.",
    request: { body: createPortalSessionSchema },
    responses: { 201: portalSessionResponse },
  },
  {
    operationId: 'getPortal',
    method: 'GET',
    path: '/api/portal',
    auth: token,
    summary: "The portal session's data",
    description:
      "The customer, the session's effective portal configuration (the page's look and texts), the " +
      "customer's subscriptions with the actions and cancel rules of each one's own product's configuration, " +
      'and the active saved cards. 401 `token_invalid` for an unknown token, ' +
      '`token_expired` past its hour (messages in Portuguese, as on every portal token route).',
    responses: { 200: portalResponse },
  },
  {
    ...bySubscription,
    operationId: 'portalCancelSubscription',
    method: 'POST',
    path: `${subscription}/cancel`,
    summary: 'Cancel a subscription from the portal',
    description:
      'Optional body `{atPeriodEnd?, reason?}`. `cancelAtPeriodEndOnly` makes every cancellation one at ' +
      'the period end; `requireCancelReason` makes `reason` required (400). Sends the cancellation ' +
      `e-mail when \`sendCancellationEmail\` is on. ${FLAG_RULE} ${STATE_RULE}`,
    request: { path: numericIdParam, body: portalCancelSchema, optionalBody: true },
    responses: { 200: portalSubscriptionResponse },
    errors: [403, 409],
  },
  {
    ...bySubscription,
    operationId: 'portalPauseSubscription',
    method: 'POST',
    path: `${subscription}/pause`,
    summary: "Pause a subscription's collection from the portal",
    description: `Follows allowCancelSubscription. ${FLAG_RULE} ${STATE_RULE}`,
    responses: { 200: portalSubscriptionResponse },
    errors: [403, 409],
  },
  {
    ...bySubscription,
    operationId: 'portalResumeSubscription',
    method: 'POST',
    path: `${subscription}/resume`,
    summary: "Resume a subscription's collection from the portal",
    description: `Follows allowCancelSubscription. ${FLAG_RULE} ${STATE_RULE}`,
    responses: { 200: portalSubscriptionResponse },
    errors: [403, 409],
  },
  {
    ...bySubscription,
    operationId: 'portalReactivateSubscription',
    method: 'POST',
    path: `${subscription}/reactivate`,
    summary: 'Reactivate a subscription from the portal',
    description:
      'Undoes a cancellation at period end, or reactivates a canceled subscription (charging the saved ' +
      `card when the paid period is over). Follows allowCancelSubscription. ${FLAG_RULE} ${STATE_RULE}`,
    responses: { 200: portalSubscriptionResponse },
    errors: [403, 409],
  },
  {
    ...bySubscription,
    operationId: 'portalUpdatePaymentMethod',
    method: 'POST',
    path: `${subscription}/update-payment-method`,
    summary: "Switch a subscription to another of the customer's saved cards",
    description:
      "`paymentMethodId`: one of the customer's saved cards (404 `Payment method not found` otherwise). " +
      `Sends the payment-method-updated e-mail when \`sendPaymentMethodUpdatedEmail\` is on. ${FLAG_RULE} ${STATE_RULE}`,
    request: { path: numericIdParam, body: portalPaymentMethodSchema },
    responses: { 200: portalSubscriptionResponse },
    errors: [403, 409],
  },
  {
    ...bySubscription,
    operationId: 'portalAddCardAndUpdate',
    method: 'POST',
    path: `${subscription}/add-card-and-update`,
    summary: 'Save a new card and switch a subscription to it',
    description:
      "The card is verified and tokenized by the provider (not charged), kept as the customer's saved " +
      'card, and the subscription renews on it. The number and CVV are never stored or logged. A ' +
      'declined card is 400 `card_declined` with a Portuguese message, whatever the issuer said (the seller ' +
      'reads nothing of it: no charge was made). Cards are limited against card testing as on the checkout: ' +
      '429 `card_attempts_blocked`, and 428 `proof_of_work_required` after a few declines from one client. ' +
      `${FLAG_RULE} ${STATE_RULE}`,
    request: { path: numericIdParam, body: portalAddCardSchema },
    responses: { 200: portalSubscriptionResponse },
    errors: [403, 409, 428, 429, 503],
  },
  {
    ...bySubscription,
    operationId: 'portalSubscriptionEvents',
    method: 'GET',
    path: `${subscription}/events`,
    summary: "A subscription's history, from the portal",
    description: `Newest first (payments, failures, state changes). Follows allowViewInvoices. ${FLAG_RULE}`,
    responses: { 200: subscriptionEventListResponse },
  },
  {
    operationId: 'portalUpdateCustomerInfo',
    method: 'PUT',
    path: '/api/portal/customer-info',
    auth: token,
    summary: "Change the customer's name, e-mail or phone from the portal",
    description:
      '`name`, `email`, `phone` (each optional, at least one), validated as PATCH /api/v1/customers. ' +
      `Follows allowUpdateBillingInfo. ${SESSION_FLAG_RULE}`,
    request: { body: portalCustomerInfoSchema },
    responses: { 200: portalCustomerResponse },
    errors: [403],
  },
]);
