import type { PagePromise } from './pagination.ts';
import type { paths } from './schema.d.ts';

/**
 * The API's resources as data: each method is one row, `[HTTP method, path of docs/openapi.json]`.
 * Its signature comes from the generated `paths` (schema.d.ts): the path's `{params}` in order,
 * then the JSON body (for POST, PUT, PATCH) or the query (for GET), then per-call options; its
 * answer is the operation's 200/201 body. A GET whose answer has `data: [...]` returns a
 * PagePromise (the first page, plus `autoPaginate()` and `pages()`).
 *
 * A route that is not in `paths` with that method does not compile, so a renamed or removed route
 * breaks the build at this table, not at the caller's run.
 */
export const RESOURCES = {
  transactions: {
    create: ['post', '/api/transactions'],
    list: ['get', '/api/transactions'],
    retrieve: ['get', '/api/transactions/{id}'],
    retrieveStatus: ['get', '/api/transactions/status/{gatewayPayId}'],
    timeline: ['get', '/api/transactions/{id}/timeline'],
    refund: ['post', '/api/transactions/{id}/refund'],
  },
  charges: {
    list: ['get', '/api/v1/charges'],
    cancel: ['delete', '/api/v1/charges/{uuid}'],
  },
  customers: {
    create: ['post', '/api/v1/customers'],
    list: ['get', '/api/v1/customers'],
    retrieve: ['get', '/api/v1/customers/{uuid}'],
    update: ['patch', '/api/v1/customers/{uuid}'],
    setBillingEmailOverride: ['patch', '/api/v1/customers/{uuid}/billing-email-override'],
    listPaymentMethods: ['get', '/api/v1/customers/{uuid}/payment-methods'],
    deletePaymentMethod: ['delete', '/api/v1/customers/{uuid}/payment-methods/{id}'],
    retrieveReminderSchedule: ['get', '/api/v1/customers/{uuid}/reminder-schedule'],
    updateReminderSchedule: ['put', '/api/v1/customers/{uuid}/reminder-schedule'],
    deleteReminderSchedule: ['delete', '/api/v1/customers/{uuid}/reminder-schedule'],
  },
  products: {
    create: ['post', '/api/products'],
    list: ['get', '/api/v1/products'],
    listPages: ['get', '/api/products'],
    retrieve: ['get', '/api/products/{id}'],
    retrieveByUuid: ['get', '/api/products/uuid/{uuid}'],
    update: ['patch', '/api/products/{id}'],
    deactivate: ['delete', '/api/v1/products/{uuid}'],
    createPrice: ['post', '/api/products/{id}/prices'],
    listPrices: ['get', '/api/products/{id}/prices'],
    deactivatePrice: ['delete', '/api/products/{id}/prices/{priceId}'],
    addAffiliate: ['post', '/api/products/{id}/affiliates'],
    listAffiliates: ['get', '/api/products/{id}/affiliates'],
    endAffiliate: ['delete', '/api/products/{id}/affiliates/{affiliateId}'],
    retrievePortalConfig: ['get', '/api/products/{id}/portal-config'],
    createPortalConfig: ['post', '/api/products/{id}/portal-config'],
    updatePortalConfig: ['patch', '/api/products/{id}/portal-config'],
    deletePortalConfig: ['delete', '/api/products/{id}/portal-config'],
    retrieveEffectivePortalConfig: ['get', '/api/products/{id}/portal-config/effective'],
  },
  paymentLinks: {
    retrieve: ['get', '/api/payment-links/{uuid}'],
  },
  checkoutSessions: {
    create: ['post', '/api/checkout/sessions'],
    list: ['get', '/api/checkout/sessions'],
    retrieve: ['get', '/api/checkout/sessions/{id}'],
    expire: ['post', '/api/checkout/sessions/{id}/expire'],
  },
  subscriptions: {
    create: ['post', '/api/subscriptions'],
    list: ['get', '/api/subscriptions'],
    retrieve: ['get', '/api/subscriptions/{id}'],
    listEvents: ['get', '/api/subscriptions/{id}/events'],
    cancel: ['post', '/api/subscriptions/{id}/cancel'],
    pause: ['post', '/api/subscriptions/{id}/pause'],
    resume: ['post', '/api/subscriptions/{id}/resume'],
    reactivate: ['post', '/api/subscriptions/{id}/reactivate'],
    changePaymentMethod: ['post', '/api/subscriptions/{id}/payment-method'],
  },
  scheduledCharges: {
    create: ['post', '/api/v1/scheduled-charges'],
    list: ['get', '/api/v1/scheduled-charges'],
    retrieve: ['get', '/api/v1/scheduled-charges/{id}'],
    update: ['patch', '/api/v1/scheduled-charges/{id}'],
    markPaid: ['post', '/api/v1/scheduled-charges/{id}/mark-paid'],
    postpone: ['post', '/api/v1/scheduled-charges/{id}/postpone'],
    cancel: ['post', '/api/v1/scheduled-charges/{id}/cancel'],
    cancelAtPeriodEnd: ['post', '/api/v1/scheduled-charges/{id}/cancel-at-period-end'],
    clearCancelAtPeriodEnd: ['delete', '/api/v1/scheduled-charges/{id}/cancel-at-period-end'],
    pause: ['post', '/api/v1/scheduled-charges/{id}/pause'],
    resume: ['post', '/api/v1/scheduled-charges/{id}/resume'],
    listAttempts: ['get', '/api/v1/scheduled-charges/{id}/attempts'],
    changePaymentMethod: ['put', '/api/v1/scheduled-charges/{id}/payment-method'],
    clearPaymentMethod: ['delete', '/api/v1/scheduled-charges/{id}/payment-method'],
  },
  installmentPlans: {
    create: ['post', '/api/v1/installment-plans'],
    list: ['get', '/api/v1/installment-plans'],
    retrieve: ['get', '/api/v1/installment-plans/{uuid}'],
    markInstallmentPaid: ['post', '/api/v1/installment-plans/{uuid}/installments/{number}/mark-paid'],
    reissueInstallment: ['post', '/api/v1/installment-plans/{uuid}/installments/{number}/reissue'],
    cancel: ['post', '/api/v1/installment-plans/{uuid}/cancel'],
    shareBooklet: ['post', '/api/v1/installment-plans/{uuid}/booklet-link'],
    revokeBooklet: ['delete', '/api/v1/installment-plans/{uuid}/booklet-link'],
  },
  reminderSchedule: {
    retrieve: ['get', '/api/reminder-schedule'],
    update: ['put', '/api/reminder-schedule'],
    preview: ['post', '/api/reminder-schedule/preview'],
  },
  reminderChannels: {
    retrieve: ['get', '/api/reminder-channels'],
    updateWhatsapp: ['put', '/api/reminder-channels/whatsapp'],
    updateSms: ['put', '/api/reminder-channels/sms'],
    del: ['delete', '/api/reminder-channels/{channel}'],
  },
  webhookEndpoints: {
    create: ['post', '/api/webhook-endpoints'],
    list: ['get', '/api/webhook-endpoints'],
    retrieve: ['get', '/api/webhook-endpoints/{id}'],
    update: ['patch', '/api/webhook-endpoints/{id}'],
    del: ['delete', '/api/webhook-endpoints/{id}'],
    rotateSecret: ['post', '/api/webhook-endpoints/{id}/rotate-secret'],
    listDeliveries: ['get', '/api/webhook-endpoints/{id}/deliveries'],
  },
  webhookDeliveries: {
    resend: ['post', '/api/webhook-deliveries/{id}/resend'],
  },
  events: {
    list: ['get', '/api/events'],
    retrieve: ['get', '/api/events/{id}'],
  },
  requestLogs: {
    list: ['get', '/api/request-logs'],
  },
  portalSessions: {
    create: ['post', '/api/portal/sessions'],
  },
  portalConfiguration: {
    retrieve: ['get', '/api/portal/configuration'],
    update: ['put', '/api/portal/configuration'],
    retrieveEffective: ['get', '/api/portal/configuration/effective'],
  },
  reconciliations: {
    list: ['get', '/api/reconciliations'],
    retrieve: ['get', '/api/reconciliations/{id}'],
  },
  businessProfile: {
    retrieve: ['get', '/api/seller/profile'],
    update: ['put', '/api/seller/profile'],
  },
  summary: {
    retrieve: ['get', '/api/dashboard/summary'],
  },
  health: {
    retrieve: ['get', '/api/health'],
  },
  testClocks: {
    create: ['post', '/api/test-helpers/test-clocks'],
    list: ['get', '/api/test-helpers/test-clocks'],
    retrieve: ['get', '/api/test-helpers/test-clocks/{id}'],
    del: ['delete', '/api/test-helpers/test-clocks/{id}'],
    advance: ['post', '/api/test-helpers/test-clocks/{id}/advance'],
  },
  testHelpers: {
    emitEvent: ['post', '/api/test-helpers/events'],
    payTransaction: ['post', '/api/test-helpers/transactions/{id}/pay'],
    failTransaction: ['post', '/api/test-helpers/transactions/{id}/fail'],
    chargebackTransaction: ['post', '/api/test-helpers/transactions/{id}/chargeback'],
    reverseChargeback: ['post', '/api/test-helpers/transactions/{id}/chargeback-reversal'],
    setPaymentMethodOutcome: ['post', '/api/test-helpers/payment-methods/{id}/outcome'],
    approvePixAuthorization: ['post', '/api/test-helpers/pix-authorizations/{id}/approve'],
    revokePixAuthorization: ['post', '/api/test-helpers/pix-authorizations/{id}/revoke'],
    payCheckoutSession: ['post', '/api/test-helpers/checkout/sessions/{id}/pay'],
    listMail: ['get', '/api/test-helpers/mail'],
    retrieveMail: ['get', '/api/test-helpers/mail/{id}'],
  },
} as const satisfies Record<string, Record<string, Route>>;

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Every `[method, path]` pair the generated paths have. */
export type Route = {
  [P in keyof paths]: {
    [M in HttpMethod]: [NonNullable<paths[P][M]>] extends [never] ? never : readonly [M, P];
  }[HttpMethod];
}[keyof paths];

/** Per-call options of every method. */
export interface CallOptions {
  /** X-Idempotency-Key for a POST; by default one is made per call and kept across its retries. */
  idempotencyKey?: string;
  /** Retries of this call (overrides the client's `maxRetries`). */
  maxRetries?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Cancels the call, retries included. */
  signal?: AbortSignal;
}

type Operation<R extends Route> = NonNullable<paths[R[1]][R[0]]>;

/** One string-or-number argument per `{param}` of the path, in order. */
type PathArgs<S extends string> = S extends `${string}{${string}}${infer Rest}`
  ? [string | number, ...PathArgs<Rest>]
  : [];

type Json<Content> = Content extends { content: { 'application/json': infer J } } ? J : undefined;

type InputArgs<O> = O extends { requestBody: { content: { 'application/json': infer Body } } }
  ? [body: Body]
  : O extends { requestBody?: { content: { 'application/json': infer Body } } }
    ? [body?: Body]
    : O extends { parameters: { query: infer Q } }
      ? [params: Q]
      : O extends { parameters: { query?: infer Q } }
        ? [NonNullable<Q>] extends [never]
          ? []
          : [params?: NonNullable<Q>]
        : [];

type Success<O> = O extends { responses: infer Responses }
  ? {
      [Status in keyof Responses]: Status extends 200 | 201 | 202 | 204 ? Json<Responses[Status]> : never;
    }[keyof Responses]
  : never;

/** What a method answers: its success body, or a PagePromise when it is a GET of a list. */
type Answer<R extends Route> = R[0] extends 'get'
  ? Success<Operation<R>> extends { data: (infer Item)[] }
    ? PagePromise<Success<Operation<R>> & { data: Item[] }, Item>
    : Promise<Success<Operation<R>>>
  : Promise<Success<Operation<R>>>;

/** The method a row becomes. */
export type Method<R extends Route> = (
  ...args: [...PathArgs<R[1]>, ...InputArgs<Operation<R>>, options?: CallOptions]
) => Answer<R>;

/** The resources of a table, as objects of methods. */
export type Resources<Table extends Record<string, Record<string, Route>>> = {
  [Name in keyof Table]: { [M in keyof Table[Name]]: Method<Table[Name][M]> };
};

/** The request body a row takes (for building one ahead of the call). */
export type BodyOf<R extends Route> = InputArgs<Operation<R>> extends [body?: infer B] ? B : never;
