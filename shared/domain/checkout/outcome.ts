import { buyerFailure } from '#shared/domain/payments/cards';
import { boletoPixView, qrCodeDataUrl } from '#shared/domain/payments/qr-image';
import type { Subscription, SubscriptionStatus } from '#shared/domain/subscriptions/subscription';
import { PAID, PENDING, type Transaction } from '#shared/domain/transactions/transaction';
import { ConflictError } from '#shared/errors';
import { centavosToReais } from '#shared/money';
import { type CheckoutMethod, type CheckoutSession, successUrlOf } from './session';

/** What the hosted page shows after a payment attempt, and what its polling reads. */
export interface PaymentOutcome {
  /** The transaction's uuid; null when nothing was charged (a trial's card check). */
  paymentId: string | null;
  /** The order number the buyer quotes to the seller (the transaction's id, as on the receipt); null: nothing charged. */
  orderNumber: number | null;
  /** The payment is confirmed and its receipt goes to the buyer's e-mail (notifications/receipts.ts). */
  receiptByEmail: boolean;
  /** `trialing`: the card was kept and a subscription's trial started, nothing charged. */
  status: 'pending' | 'paid' | 'declined' | 'failed' | 'canceled' | 'trialing';
  method: CheckoutMethod;
  value: number;
  installments: number;
  pix: { qrCode: string; qrCodeImage: string; expiresAt: string } | null;
  boleto: {
    digitableLine: string;
    formattedLine: string;
    barcode: string;
    dueDate: string;
    pdfUrl: string;
    /** The boleto híbrido's pix (copia e cola) and its QR code image; null when it has none. */
    pixQrCode: string | null;
    pixQrCodeImage: string | null;
  } | null;
  card: { brand: string; last4: string } | null;
  failure: { code: string; message: string } | null;
  redirectUrl: string | null;
  /** The subscription the payment started (a session with a price), as the buyer may see it. */
  subscription: {
    status: SubscriptionStatus;
    trialEndsAt: string | null;
    nextPaymentAt: string | null;
  } | null;
}

/** A decline as the buyer reads it: the exact reason stays with the seller (payments/cards.ts). */
const failureOf = (code: string | null) =>
  code === null
    ? { code: 'payment_failed', message: 'O pagamento não foi aprovado. Tente novamente.' }
    : buyerFailure(code);

const methodOf = (t: Transaction): CheckoutMethod =>
  t.paymentMethod === 'creditcard' ? 'card' : t.paymentMethod;

function statusOf(t: Transaction): PaymentOutcome['status'] {
  if (PAID.includes(t.status)) return 'paid';
  if (PENDING.includes(t.status) || t.status === 'authorized') return 'pending';
  if (t.status === 'denied') return t.failureCode === 'processing_error' ? 'failed' : 'declined';
  return 'canceled';
}

const subscriptionOf = (s: Subscription | null): PaymentOutcome['subscription'] =>
  s ? { status: s.status, trialEndsAt: s.trialEndsAt, nextPaymentAt: s.nextPaymentAt } : null;

/** A payment's outcome as the page shows it; `subscription` when the payment started one. */
export async function outcomeOf(
  t: Transaction,
  session: CheckoutSession | null,
  subscription: Subscription | null = null,
): Promise<PaymentOutcome> {
  const status = statusOf(t);
  const pending = status === 'pending';
  return {
    paymentId: t.uuid,
    orderNumber: t.id,
    // The receipt is sent on transaction.payment.succeeded to the buyer's e-mail, when there is one.
    receiptByEmail: status === 'paid' && t.customer.email.trim() !== '',
    status,
    method: methodOf(t),
    value: centavosToReais(t.value),
    installments: t.installments,
    pix:
      pending && t.pix
        ? { qrCode: t.pix.qrCode, qrCodeImage: await qrCodeDataUrl(t.pix.qrCode), expiresAt: t.pix.expiresAt }
        : null,
    boleto:
      pending && t.boleto
        ? {
            digitableLine: t.boleto.digitableLine,
            formattedLine: t.boleto.formattedLine,
            barcode: t.boleto.barcode,
            dueDate: t.boleto.dueDate,
            pdfUrl: t.boleto.pdfUrl,
            ...(await boletoPixView(t.boleto.pixQrCode)),
          }
        : null,
    card: t.card ? { brand: t.card.brand, last4: t.card.last4 } : null,
    failure: status === 'declined' || status === 'failed' ? failureOf(t.failureCode) : null,
    redirectUrl: session && status === 'paid' ? successUrlOf(session) : null,
    subscription: subscriptionOf(subscription),
  };
}

/** A subscription that started with a trial: the card was kept, nothing was charged. */
export function trialOutcome(
  session: CheckoutSession,
  subscription: Subscription,
  card: { brand: string; last4: string },
): PaymentOutcome {
  return {
    paymentId: null,
    orderNumber: null,
    receiptByEmail: false,
    status: 'trialing',
    method: 'card',
    value: 0,
    installments: 1,
    pix: null,
    boleto: null,
    card,
    failure: null,
    redirectUrl: successUrlOf(session),
    subscription: subscriptionOf(subscription),
  };
}

/** A trial's card the provider refused to keep: shown as a declined card, the session stays open. */
export function refusedCardOutcome(failureCode: string): PaymentOutcome {
  return {
    paymentId: null,
    orderNumber: null,
    receiptByEmail: false,
    status: failureCode === 'processing_error' ? 'failed' : 'declined',
    method: 'card',
    value: 0,
    installments: 1,
    pix: null,
    boleto: null,
    card: null,
    failure: failureOf(failureCode),
    redirectUrl: null,
    subscription: null,
  };
}

/** The 409 of a payment the page can no longer take. */
export function notOpen(state: 'complete' | 'expired' | 'unavailable' | 'open'): ConflictError {
  const message =
    state === 'complete'
      ? 'This checkout session is already complete'
      : state === 'expired'
        ? 'This checkout session has expired'
        : 'This product is not for sale';
  return new ConflictError(message, 'checkout_not_open');
}
