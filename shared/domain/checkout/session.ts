import type { Address } from '#shared/domain/customers/customer';
import type { BillingInterval, SubscriptionPrice } from '#shared/domain/subscriptions/price';
import type { Tenant } from '#shared/domain/tenant';
import { centavosToReais } from '#shared/money';

export const SESSION_NOT_FOUND = 'Checkout session not found';
export const SESSION_CANNOT_BE_EXPIRED = 'Session cannot be expired';
export const CHECKOUT_NOT_FOUND = 'Checkout not found';
export const SESSION_ID_PREFIX = 'cs_';

/**
 * A session id carries its product's uuid (32 hex digits after the random part) from issue 17 on,
 * so the hosted page reads the session and its product together. The uuid is no secret:
 * the page shows it. The random part alone is what makes an id unguessable.
 */
const SESSION_ID_SHAPE = /^cs_(?:test|live)_[A-Za-z0-9]{24}([0-9a-f]{32})$/;

export function newSessionId(
  ids: { prefixed(prefix: string, length?: number): string },
  environment: Tenant['environment'],
  productUuid: string,
): string {
  return `${ids.prefixed(`${SESSION_ID_PREFIX}${environment}`, 24)}${productUuid.replace(/-/g, '')}`;
}

/** The product uuid a session id carries; null for an id made before ids carried it. */
export function productUuidOfSessionId(id: string): string | null {
  const hex = SESSION_ID_SHAPE.exec(id)?.[1];
  if (!hex) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
/** Spec Limits: a session lives 24 hours unless `expires_at` says otherwise. */
export const DEFAULT_LIFETIME_MS = 24 * 3_600_000;
/** Stripe's lower bound; the upper one is ours (docs/decisions.md, "Checkout sessions"). */
export const MIN_LIFETIME_MS = 30 * 60_000;
export const MAX_LIFETIME_MS = 7 * 24 * 3_600_000;
export const SESSION_EXPIRY_JOB = 'checkout-session-expiry';

export type SessionStatus = 'open' | 'complete' | 'expired';
export type CheckoutMethod = 'pix' | 'boleto' | 'card';
export const CHECKOUT_METHODS: readonly CheckoutMethod[] = ['pix', 'boleto', 'card'];
/**
 * What a session with a subscription price may be paid by: a card (saved for the renewals) or pix
 * (a Pix Automático consent for them). A boleto cannot renew without the buyer.
 */
export const SUBSCRIPTION_METHODS: readonly CheckoutMethod[] = ['pix', 'card'];

/**
 * The subscription price a session sells, as it was when the session was made (prices never change,
 * they are only deactivated): what the hosted page shows without reading the price again.
 */
export interface SessionPrice {
  id: number;
  uuid: string;
  name: string;
  /** Centavos. */
  unitAmount: number;
  billingInterval: BillingInterval;
  intervalCount: number;
  trialDays: number;
}

export const sessionPriceOf = (p: SubscriptionPrice): SessionPrice => ({
  id: p.id,
  uuid: p.uuid,
  name: p.name,
  unitAmount: p.unitAmount,
  billingInterval: p.billingInterval,
  intervalCount: p.intervalCount,
  trialDays: p.trialDays,
});

/** The price as the public page view shows it (Reais). */
export const toSessionPriceView = (p: SessionPrice) => ({
  name: p.name,
  unitAmount: centavosToReais(p.unitAmount),
  billingInterval: p.billingInterval,
  intervalCount: p.intervalCount,
  trialDays: p.trialDays,
});

/** The buyer data a seller may prefill; each field as the customers API validates it. */
export interface SessionCustomer extends Address {
  name: string | null;
  email: string | null;
  document: string | null;
  phone: string | null;
}

/** A payment attempt made through the session, recorded before its transaction is created. */
export interface SessionPayment {
  transactionId: number;
  transactionUuid: string;
  method: CheckoutMethod;
  createdAt: string;
}

export interface CheckoutSession {
  id: string;
  tenant: Tenant;
  status: SessionStatus;
  productId: number;
  productUuid: string;
  /** The subscription price's numeric id as text (Stripe's `price`), whichever of id or uuid was sent. */
  priceId: string | null;
  /** Set with `priceId`: a paid session starts a subscription at this price. */
  price: SessionPrice | null;
  customer: SessionCustomer;
  paymentMethods: CheckoutMethod[];
  metadata: Record<string, string>;
  successUrl: string | null;
  cancelUrl: string | null;
  clientReferenceId: string | null;
  affiliateId: number | null;
  /** The paying transaction; null for an open session, and for a subscription started with a trial. */
  transactionId: number | null;
  /** The subscription the session started (Stripe's `subscription`); set when it completes. */
  subscriptionId: number | null;
  payments: SessionPayment[];
  expiresAt: string;
  completedAt: string | null;
  expiredAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** The session after a payment was recorded on it (what CheckoutSessionRepository.addPayment stores). */
export const sessionWith = (session: CheckoutSession, payment: SessionPayment): CheckoutSession => ({
  ...session,
  payments: [...session.payments, payment],
  updatedAt: payment.createdAt,
  version: session.version + 1,
});

/** The hosted page of a session. */
export const sessionUrl = (baseUrl: string, id: string) => `${baseUrl.replace(/\/$/, '')}/checkout/${id}`;

/** `{SESSION_ID}` in a success URL becomes the session's id (Stripe's `{CHECKOUT_SESSION_ID}`). */
export const successUrlOf = (s: CheckoutSession) =>
  s.successUrl === null ? null : s.successUrl.split('{SESSION_ID}').join(s.id);

/** The session as the API answers it: the spec's fields (snake_case, as the spec names them). */
export function toSessionView(s: CheckoutSession, baseUrl: string) {
  return {
    id: s.id,
    object: 'checkout.session' as const,
    status: s.status,
    url: sessionUrl(baseUrl, s.id),
    product_id: s.productId,
    price_id: s.priceId,
    customer_email: s.customer.email,
    customer_name: s.customer.name,
    customer: {
      'customer.name': s.customer.name,
      'customer.email': s.customer.email,
      'customer.document': s.customer.document,
      'customer.phone': s.customer.phone,
      'customer.zip_code': s.customer.zipCode,
      'customer.street': s.customer.street,
      'customer.number': s.customer.number,
      'customer.complement': s.customer.complement,
      'customer.neighborhood': s.customer.neighborhood,
      'customer.city': s.customer.city,
      'customer.state': s.customer.state,
    },
    payment_methods: s.paymentMethods,
    metadata: s.metadata,
    success_url: s.successUrl,
    cancel_url: s.cancelUrl,
    client_reference_id: s.clientReferenceId,
    affiliate_id: s.affiliateId,
    transaction_id: s.transactionId,
    subscription_id: s.subscriptionId,
    environment: s.tenant.environment,
    expires_at: s.expiresAt,
    completed_at: s.completedAt,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

export type SessionView = ReturnType<typeof toSessionView>;

/**
 * checkout.session.completed: exactly the spec's data fields. `transaction_id` is null for a
 * session that started a subscription with a trial (nothing was charged).
 */
export const completedData = (s: CheckoutSession) => ({
  id: s.id,
  status: 'complete' as const,
  product_id: s.productId,
  transaction_id: s.transactionId,
  customer_email: s.customer.email,
  metadata: s.metadata,
  client_reference_id: s.clientReferenceId,
  completed_at: s.completedAt as string,
});

/** checkout.session.expired: exactly the spec's data fields. */
export const expiredData = (s: CheckoutSession) => ({
  id: s.id,
  status: 'expired' as const,
  product_id: s.productId,
  metadata: s.metadata,
  client_reference_id: s.clientReferenceId,
  expires_at: s.expiresAt,
});
