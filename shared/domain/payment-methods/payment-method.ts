import type { Tenant } from '#shared/domain/tenant';
import { type ExpiryStage, expiresAt } from './expiry';

export type PaymentMethodStatus = 'active' | 'expired';
export const PAYMENT_METHOD_STATUSES = [
  'active',
  'expired',
] as const satisfies readonly PaymentMethodStatus[];

export const PAYMENT_METHOD_NOT_FOUND = 'Payment method not found';
export const CUSTOMER_NOT_FOUND = 'Customer not found';
/** The code of the ConflictError (reason already_exists) of a card the customer already has saved. */
export const CARD_ALREADY_SAVED = 'payment_method_exists';
/** How many methods of one customer a list shows (a customer keeps a handful of cards). */
export const PAYMENT_METHOD_LIST_LIMIT = 100;

/**
 * A card saved for a customer of one seller (the vault): the provider's token and what may be shown
 * of the card. Never the number or the CVV, which only the provider's tokenizer sees.
 */
export interface PaymentMethod {
  /** From the `payment-method` sequence (subscriptions and charge attempts reference it by number). */
  id: number;
  uuid: string;
  tenant: Tenant;
  customer: { id: number; uuid: string };
  type: 'card';
  brand: string;
  last4: string;
  expiryMonth: number;
  /** Four digits. */
  expiryYear: number;
  status: PaymentMethodStatus;
  /** The provider that holds the token (`sandbox` for test tenants). */
  provider: string;
  /** The provider's handle for later charges: a secret, never in a response, an event or a log. */
  token: string;
  /** `payment_method.expiring_soon` stages already sent. */
  expiryNotices: ExpiryStage[];
  /** When the next expiry step (a stage or the expiry) is due; null once expired. The sweep indexes it. */
  nextExpiryStepAt: string | null;
  expiredAt: string | null;
  /**
   * Sandbox: the test clock of the customer the card was saved for (absent: real time). Its expiry
   * steps run when that clock is advanced, in the clock's time, never on a real-time schedule.
   */
  testClockId?: string | null;
  createdAt: string;
  updatedAt: string;
  /** Optimistic lock: every change writes on the version it read. */
  version: number;
}

/** What the API and the events show of a payment method (never the token). */
export interface PaymentMethodView {
  id: number;
  uuid: string;
  type: 'card';
  customerId: number;
  customerUuid: string;
  brand: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
  status: PaymentMethodStatus;
  /** The instant the card stops being valid: the start of the month after its expiry month (Sao Paulo). */
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

export const toPaymentMethodView = (pm: PaymentMethod): PaymentMethodView => ({
  id: pm.id,
  uuid: pm.uuid,
  type: pm.type,
  customerId: pm.customer.id,
  customerUuid: pm.customer.uuid,
  brand: pm.brand,
  last4: pm.last4,
  expiryMonth: pm.expiryMonth,
  expiryYear: pm.expiryYear,
  status: pm.status,
  expiresAt: expiresAt(pm).toISOString(),
  createdAt: pm.createdAt,
  updatedAt: pm.updatedAt,
});

/** The answer of DELETE: the method is gone (Stripe's deleted-object shape). */
export interface PaymentMethodDeleted {
  id: number;
  deleted: true;
}
