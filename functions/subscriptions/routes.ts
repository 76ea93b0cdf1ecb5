import { numericIdParam, numericOrUuidParam } from '#shared/domain/params';
import { PRODUCT_NOT_FOUND } from '#shared/domain/products/not-found';
import {
  priceListResponse,
  priceResponse,
  subscriptionEventListResponse,
  subscriptionListResponse,
  subscriptionResponse,
} from '#shared/domain/subscriptions/responses';
import {
  cancelSubscriptionSchema,
  changePaymentMethodSchema,
  createPriceSchema,
  createSubscriptionSchema,
  listPricesQuerySchema,
  listSubscriptionsQuerySchema,
  pricePathSchema,
} from '#shared/domain/subscriptions/schemas';
import { SUBSCRIPTION_NOT_FOUND } from '#shared/domain/subscriptions/subscription';
import { type AuthScheme, defineRoutes } from '#shared/http/types';

const auth: AuthScheme[] = ['apiKey', 'jwt'];
const prices = '/api/products/{id}/prices';
/** A price route's product by integer id or uuid, as every product route. */
const byProduct = {
  auth,
  notFound: PRODUCT_NOT_FOUND,
  request: { path: numericOrUuidParam },
} as const;
/** A subscription by its numeric id (spec: "path id number"); anything else names none. */
const bySubscription = {
  auth,
  notFound: SUBSCRIPTION_NOT_FOUND,
  request: { path: numericIdParam },
} as const;
const subscription = '/api/subscriptions/{id}';
const STATE_RULE =
  '409 `Subscription cannot be <verb>: it is <status>` (or `it is paused` / `it is not paused`) when its state refuses the action.';

export const subscriptionRoutes = defineRoutes('subscriptions', [
  {
    ...byProduct,
    operationId: 'createSubscriptionPrice',
    method: 'POST',
    path: prices,
    summary: 'Create a recurring price of a product',
    description:
      '`unitAmount` in Reais, at least 5.00 (never 0); `billingInterval` week, month or year, every ' +
      '`intervalCount` of them (up to 52 weeks, 12 months or 1 year); optional `trialDays` (0..730). ' +
      'The product must be active.',
    request: { path: numericOrUuidParam, body: createPriceSchema },
    responses: { 201: priceResponse },
  },
  {
    ...byProduct,
    operationId: 'listSubscriptionPrices',
    method: 'GET',
    path: prices,
    summary: "A product's prices, newest first",
    description: '`active=true` lists only the active prices, `active=false` only the deactivated ones.',
    request: { path: numericOrUuidParam, query: listPricesQuerySchema },
    responses: { 200: priceListResponse },
  },
  {
    ...byProduct,
    operationId: 'deactivateSubscriptionPrice',
    method: 'DELETE',
    path: `${prices}/{priceId}`,
    summary: 'Deactivate a price (new subscriptions refuse it; existing ones keep renewing)',
    description:
      '`priceId` is the price id or uuid. Deactivating a deactivated price answers it unchanged. ' +
      '404 `Price not found` for a price of another product or account.',
    request: { path: pricePathSchema },
    responses: { 200: priceResponse },
  },
  {
    operationId: 'createSubscription',
    method: 'POST',
    path: '/api/subscriptions',
    auth,
    idempotent: true,
    summary: "Subscribe a customer to a price with the customer's saved card",
    description:
      "`paymentMethodId` must be an active saved card of `customerId`. With a trial (the price's " +
      '`trialDays`, or `trialDays` here, 0 for none) nothing is charged until the trial ends; otherwise ' +
      'the first period is charged now: a declined charge answers 201 with status `failed`. ' +
      '404 `Customer not found`, `Price not found`, `Payment method not found`; 400 for a ' +
      'deactivated price or product, or an expired card. Supports X-Idempotency-Key.',
    request: { body: createSubscriptionSchema },
    errors: [400, 404, 503],
    responses: { 201: subscriptionResponse },
  },
  {
    operationId: 'listSubscriptions',
    method: 'GET',
    path: '/api/subscriptions',
    auth,
    summary: 'List subscriptions, newest first',
    description: 'Filters: status, customerId, productId (combinable).',
    request: { query: listSubscriptionsQuerySchema },
    responses: { 200: subscriptionListResponse },
  },
  {
    ...bySubscription,
    operationId: 'getSubscription',
    method: 'GET',
    path: subscription,
    summary: 'Retrieve a subscription',
    responses: { 200: subscriptionResponse },
  },
  {
    ...bySubscription,
    operationId: 'listSubscriptionEvents',
    method: 'GET',
    path: `${subscription}/events`,
    summary: "A subscription's history, newest first",
    responses: { 200: subscriptionEventListResponse },
  },
  {
    ...bySubscription,
    operationId: 'cancelSubscription',
    method: 'POST',
    path: `${subscription}/cancel`,
    summary: 'Cancel a subscription now, or at the end of the current period',
    description:
      'Now: status `canceled`, nothing more is charged. `atPeriodEnd: true`: status ' +
      '`pending_cancellation` until `currentPeriodEnd` (undone by reactivate), then `canceled`. ' +
      `Webhook subscription.cancelled. ${STATE_RULE}`,
    request: {
      path: numericIdParam,
      body: cancelSubscriptionSchema,
      optionalBody: true,
    },
    errors: [409],
    responses: { 200: subscriptionResponse },
  },
  {
    ...bySubscription,
    operationId: 'pauseSubscription',
    method: 'POST',
    path: `${subscription}/pause`,
    summary: 'Pause collection: the status stays, periods go by without charges',
    description: `Only an active subscription pauses. Webhook subscription.paused. ${STATE_RULE}`,
    errors: [409],
    responses: { 200: subscriptionResponse },
  },
  {
    ...bySubscription,
    operationId: 'resumeSubscription',
    method: 'POST',
    path: `${subscription}/resume`,
    summary: 'Resume collection: the next charge is at the end of the current period',
    description: STATE_RULE,
    errors: [409],
    responses: { 200: subscriptionResponse },
  },
  {
    ...bySubscription,
    operationId: 'reactivateSubscription',
    method: 'POST',
    path: `${subscription}/reactivate`,
    idempotent: true,
    summary: 'Reactivate a subscription that is pending cancellation, canceled or failed',
    description:
      'Pending cancellation: the cancellation is undone. Canceled or failed: active again without a ' +
      'charge while a paid period is still running, otherwise the saved card is charged now and a ' +
      'new period starts; a declined charge answers 409 and changes nothing else. Supports ' +
      `X-Idempotency-Key. ${STATE_RULE}`,
    errors: [409],
    responses: { 200: subscriptionResponse },
  },
  {
    ...bySubscription,
    operationId: 'changeSubscriptionPaymentMethod',
    method: 'POST',
    path: `${subscription}/payment-method`,
    summary: 'Charge another saved card of the same customer from now on',
    description:
      'Any state (a canceled or failed subscription gets the card its reactivation charges); a Pix ' +
      'Automático subscription moves to the card. 404 `Payment method not found` for a card that is not the ' +
      "subscription customer's; 400 for an expired card.",
    request: { path: numericIdParam, body: changePaymentMethodSchema },
    errors: [400],
    responses: { 200: subscriptionResponse },
  },
]);
