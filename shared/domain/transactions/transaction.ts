import { saoPauloDate } from '#shared/dates';
import {
  type SaleReturns,
  type TransactionAffiliate,
  toTransactionAffiliateView,
} from '#shared/domain/affiliates/index';
import type { EventPayload } from '#shared/domain/events/events';
import {
  amountDueOn,
  type LateChargeTerms,
  lateChargeTermsView,
  NO_LATE_CHARGES,
} from '#shared/domain/payments/amount-due';
import type {
  BoletoArtifact,
  CardSummary,
  ChargeMethod,
  PaidWith,
  PixArtifact,
} from '#shared/domain/payments/gateway';
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
   * The sandbox test clock of the charge that issued this pix or boleto: its expiry follows that
   * clock (the charge's due job expires it), never a real-time schedule or sweep. Absent otherwise.
   */
  testClockId?: string;
  /**
   * Centavos the provider reported as cleared when it differs from `value` (a boleto paid late
   * with fine and interest); absent when the notification carried no amount.
   */
  paidAmount?: number | null;
  /**
   * The fine, interest and discount registered with the pix or boleto (exact units); null or absent:
   * none (it is paid at face value).
   */
  lateCharges?: LateChargeTerms | null;
  /**
   * What a paid pix or boleto's amount held beyond (or below) its face value, in centavos: the fine
   * and interest of a late payment, the discount of an early one. Null or absent before payment and
   * for a payment at face value without terms.
   */
  collected?: { fine: number; interest: number; discount: number } | null;
  /**
   * How a paid pix or boleto was paid, when the provider said: a hybrid boleto paid by its pix is
   * `pix` (its status stays `payedBoleto`, the sale's method). Absent otherwise.
   */
  paidWith?: PaidWith | null;
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

/** A boleto's due date, the day its terms count from; null for anything else. */
export const dueDateOf = (t: Pick<Transaction, 'boleto' | 'paymentMethod'>) =>
  t.paymentMethod === 'boleto' && t.boleto ? t.boleto.dueDate : null;

/**
 * How a payment of `paid` centavos splits over the face value: beyond it, the fine the terms give
 * that day first (never more than the extra) and the rest interest; below it, a discount.
 */
export function collectedOf(t: Transaction, paid: number, payDay: string): Transaction['collected'] {
  const dueDate = dueDateOf(t);
  if (paid === t.value && !t.lateCharges) return null;
  if (paid < t.value) return { fine: 0, interest: 0, discount: t.value - paid };
  const expected = dueDate ? amountDueOn(t.value, dueDate, t.lateCharges ?? NO_LATE_CHARGES, payDay) : null;
  const extra = paid - t.value;
  const fine = Math.min(extra, expected?.fine ?? 0);
  return { fine, interest: extra - fine, discount: 0 };
}

const OPEN_STATUSES: readonly TransactionStatus[] = ['pendingBoleto', 'pendingPix'];

/** The way a paid transaction was paid: what the provider said, else its own method. */
const paidWithOf = (t: Transaction): PaidWith | 'creditcard' => t.paidWith ?? t.paymentMethod;

/**
 * The API's transaction. `today` (Sao Paulo) prices `amountDue` of a pending pix or boleto; an
 * event's payload prices it on the day of the change.
 */
export function toTransactionView(t: Transaction, today: string = saoPauloDate(new Date(t.updatedAt))) {
  const dueDate = dueDateOf(t);
  const paid = t.paidAt ? (t.paidAmount ?? t.value) : null;
  const reaisOrNull = (c: number | undefined) => (c === undefined ? null : centavosToReais(c));
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
    boleto: t.boleto ? { ...t.boleto, pixQrCode: t.boleto.pixQrCode ?? null } : null,
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
    ...lateChargeTermsView(t.lateCharges ?? NO_LATE_CHARGES),
    amountDue: OPEN_STATUSES.includes(t.status)
      ? centavosToReais(
          dueDate
            ? amountDueOn(t.value, dueDate, t.lateCharges ?? NO_LATE_CHARGES, today).amountDue
            : t.value,
        )
      : null,
    paidAmount: paid === null ? null : centavosToReais(paid),
    paidWith: paid === null ? null : paidWithOf(t),
    fineAmount: paid === null ? null : (reaisOrNull(t.collected?.fine) ?? 0),
    interestAmount: paid === null ? null : (reaisOrNull(t.collected?.interest) ?? 0),
    discountAmount: paid === null ? null : (reaisOrNull(t.collected?.discount) ?? 0),
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
