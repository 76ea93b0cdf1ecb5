import {
  type SaleReturns,
  type TransactionAffiliate,
  toTransactionAffiliateView,
} from '#shared/domain/affiliates/index';
import type { EventPayload } from '#shared/domain/events/events';
import type { BoletoArtifact, CardSummary, ChargeMethod, PixArtifact } from '#shared/domain/payments/gateway';
import type { Tenant } from '#shared/domain/tenant';
import { centavosToReais, percentOf } from '#shared/money';
import { TRANSACTION_NOT_FOUND } from './not-found';

export { TRANSACTION_NOT_FOUND };

export const STATUSES = [
  'pendingBoleto',
  'pendingPix',
  'authorized',
  'captured',
  'payedBoleto',
  'payedPix',
  'denied',
  'reversed',
  'cancel',
] as const;
export type TransactionStatus = (typeof STATUSES)[number];

/** Statuses meaning the payment is confirmed (spec). */
export const PAID: readonly TransactionStatus[] = ['captured', 'payedBoleto', 'payedPix'];
export const PENDING: readonly TransactionStatus[] = ['pendingBoleto', 'pendingPix'];

export interface TransactionRecurrence {
  subscriptionId: number;
  billingCycle: number;
  method: 'card' | 'pix_automatic';
}

export interface Refund {
  id: string;
  amount: number;
  reason: string | null;
  createdAt: string;
}

/**
 * The chargeback a transaction went through (Stripe's dispute, reduced to what providers tell us):
 * `open` while the sale stands reversed, `won` once the provider reports the dispute won and the sale
 * is restored. No provider we use reports a lost dispute: a chargeback never won stays `open`.
 */
export interface TransactionChargeback {
  status: 'open' | 'won';
  openedAt: string;
  closedAt: string | null;
}

export interface Transaction {
  id: number;
  uuid: string;
  tenant: Tenant;
  provider: string;
  gatewayPayId: number;
  status: TransactionStatus;
  paymentMethod: ChargeMethod;
  /** Centavos. */
  value: number;
  valueSeller: number;
  installments: number;
  customer: { id: number; uuid: string; name: string; email: string; document: string; phone: string };
  product: { id: number; uuid: string; name: string; value: number };
  pix: PixArtifact | null;
  boleto: BoletoArtifact | null;
  card: CardSummary | null;
  failureCode: string | null;
  failureReason: string | null;
  refunds: Refund[];
  refundedAmount: number;
  paidAt: string | null;
  canceledAt: string | null;
  /** Boleto due date or pix expiry; null for cards. */
  deadline: string | null;
  metadata: Record<string, string>;
  /** The checkout session the sale was made through (its completion follows the payment). */
  checkoutSessionId: string | null;
  /** The seller's own reference, from the checkout session. */
  clientReferenceId: string | null;
  /** The affiliate who made the sale and the commission taken from the seller's net. */
  affiliate: TransactionAffiliate | null;
  /**
   * A subscription's charge: which subscription, which billing cycle, and how it was collected
   * (webhook payloads name a Pix Automático debit `pix_automatic`). Null for one-off sales; absent
   * on transactions stored before subscriptions existed.
   */
  recurring?: TransactionRecurrence | null;
  /**
   * The scheduled-charge cycle this transaction collects (issued pix or boleto, a card paid on the
   * cycle's link, a silent card charge): its paid notification pays the cycle. Null or absent otherwise.
   */
  scheduledCharge?: { chargeId: string; cycleNumber: number } | null;
  /** The installment-plan (carnê) installment whose boleto this is: its paid notification pays it. */
  installmentPlan?: { planUuid: string; number: number } | null;
  /**
   * Centavos the provider reported as cleared when it differs from `value` (a boleto paid late
   * with fine and interest); absent when the notification carried no amount.
   */
  paidAmount?: number | null;
  /** The transaction's chargeback; absent when it never had one (and on chargebacks stored before this field). */
  chargeback?: TransactionChargeback | null;
  /**
   * True on a transaction stored before the seller's daily figures existed and not counted by their
   * backfill yet: its next write adds all of it to the figures, not a difference. Absent otherwise.
   */
  outsideDailyFigures?: true;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/**
 * Fee rule (docs/decisions.md): pix 0.99 %, boleto R$ 3.49 flat, card 3.99 % + R$ 0.39 plus
 * 1.49 % per installment beyond the first. Computed in centavos, rounded half up, never below 0.
 */
export function sellerNet(method: ChargeMethod, value: number, installments: number): number {
  let fee: number;
  if (method === 'pix') fee = percentOf(value, 99);
  else if (method === 'boleto') fee = 349;
  else fee = percentOf(value, 399 + 149 * Math.max(0, installments - 1)) + 39;
  return Math.max(0, value - fee);
}

export function toTransactionView(t: Transaction) {
  return {
    id: t.id,
    uuid: t.uuid,
    gatewayPayId: t.gatewayPayId,
    status: t.status,
    value: centavosToReais(t.value),
    valueSeller: centavosToReais(t.valueSeller),
    refundedAmount: centavosToReais(t.refundedAmount),
    paymentMethod: t.paymentMethod,
    installments: t.paymentMethod === 'creditcard' ? t.installments : null,
    date: t.createdAt,
    deadline: t.deadline,
    customer: {
      id: t.customer.id,
      name: t.customer.name,
      email: t.customer.email,
      document: t.customer.document,
      phone: t.customer.phone,
    },
    product: {
      id: t.product.id,
      name: t.product.name,
      value: centavosToReais(t.product.value),
      uuid: t.product.uuid,
    },
    isRecurring: Boolean(t.recurring),
    subscriptionId: t.recurring?.subscriptionId ?? null,
    billingCycle: t.recurring?.billingCycle ?? null,
    pix: t.pix,
    boleto: t.boleto,
    card: t.card,
    failureCode: t.failureCode,
    failureReason: t.failureReason,
    refunds: t.refunds.map((r) => ({ ...r, amount: centavosToReais(r.amount) })),
    paidAt: t.paidAt,
    canceledAt: t.canceledAt,
    environment: t.tenant.environment,
    metadata: t.metadata,
    checkoutSessionId: t.checkoutSessionId ?? null,
    clientReferenceId: t.clientReferenceId ?? null,
    affiliate: t.affiliate ? toTransactionAffiliateView(t.affiliate, saleReturnsOf(t)) : null,
    chargeback: t.chargeback ?? null,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/**
 * What the sale's refunds and chargeback stand at, for its affiliate's reversal: a chargeback is
 * open while it holds the sale reversed (a won one restored the sale).
 */
export function saleReturnsOf(t: Transaction): SaleReturns {
  return {
    value: t.value,
    refundedAmount: t.refundedAmount,
    chargebackOpen:
      t.status === 'reversed' &&
      (t.chargeback ? t.chargeback.status === 'open' : t.failureCode === 'chargeback'),
  };
}

/** Webhook payloads name card payments `card` (spec Events); everything else is the API view. */
export function toEventData(t: Transaction) {
  const view = toTransactionView(t);
  const paymentMethod: EventPayload<'transaction.payment.succeeded'>['paymentMethod'] =
    t.recurring?.method === 'pix_automatic'
      ? 'pix_automatic'
      : t.paymentMethod === 'creditcard'
        ? 'card'
        : t.paymentMethod;
  return { ...view, paymentMethod };
}

/** The payment-confirmed payload the spec shows, plus the resource's own fields. */
export function paymentSucceededData(t: Transaction) {
  return {
    ...toEventData(t),
    productId: t.product.id,
    productName: t.product.name,
    customer: { name: t.customer.name, email: t.customer.email, document: t.customer.document },
    paidAt: t.paidAt ?? t.updatedAt,
  };
}
