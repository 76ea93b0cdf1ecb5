export type NotificationType =
  | 'charge.paid'
  | 'charge.failed'
  | 'charge.charged_back'
  | 'charge.chargeback_reversed'
  | 'charge.canceled'
  | 'charge.refunded';

/**
 * Webhook events ("Payment events", docs.asaas.com/docs/payment-events) that move a transaction, as
 * the sandbox notification of the same meaning. Every other event is acknowledged and changes
 * nothing (PAYMENT_CREATED, _UPDATED, _VIEWED, _ANTICIPATED, _REFUND_DENIED…). Refund events carry
 * the payment's `refunds`: the total they add up to is what charge.refunded reports (see
 * refundedTotal), so a refund we asked for ourselves adds nothing.
 */
export const ASAAS_EVENTS: Readonly<Record<string, NotificationType>> = {
  PAYMENT_CONFIRMED: 'charge.paid',
  PAYMENT_RECEIVED: 'charge.paid',
  PAYMENT_OVERDUE: 'charge.failed',
  PAYMENT_CREDIT_CARD_CAPTURE_REFUSED: 'charge.failed',
  PAYMENT_REPROVED_BY_RISK_ANALYSIS: 'charge.failed',
  PAYMENT_DELETED: 'charge.canceled',
  PAYMENT_CHARGEBACK_REQUESTED: 'charge.charged_back',
  // A dispute follows a chargeback: it reverses the sale if the request itself never arrived.
  PAYMENT_CHARGEBACK_DISPUTE: 'charge.charged_back',
  // "Disputa vencida, aguardando repasse da adquirente": the dispute is won, only the acquirer's
  // transfer remains, so the sale is restored now. A later PAYMENT_RECEIVED/_CONFIRMED cannot say
  // this (a card's RECEIVED also arrives weeks after CONFIRMED, chargeback or not): it stays "not
  // applicable" to a reversed sale.
  PAYMENT_AWAITING_CHARGEBACK_REVERSAL: 'charge.chargeback_reversed',
  PAYMENT_REFUNDED: 'charge.refunded',
  PAYMENT_PARTIALLY_REFUNDED: 'charge.refunded',
  // The refund is requested and waits for the settlement: recorded now, as our own POST /refund does.
  PAYMENT_REFUND_IN_PROGRESS: 'charge.refunded',
};

/**
 * What a paid pix or boleto cleared and how, read from Asaas's payment ("Payment object"): `value`
 * is what was paid (a late boleto's value grows by its fine and interest, the charge's own value
 * moving to `originalValue`; an early one shrinks by its discount), and `billingType` is how (a
 * boleto híbrido paid by its pix shows PIX). The split into fine, interest and discount is the
 * transaction's (collectedOf). Only for a pix or boleto: a card payment's `value` is one installment's.
 */
export function asaasPaidDetails(
  payment: { value?: number | null; billingType?: string | null },
  toCentavos: (reais: number) => number | null,
): { amountCentavos?: number; paidWith?: 'pix' | 'boleto' } {
  const amount = typeof payment.value === 'number' ? toCentavos(payment.value) : null;
  const paidWith =
    payment.billingType === 'PIX' ? 'pix' : payment.billingType === 'BOLETO' ? 'boleto' : undefined;
  return {
    ...(amount !== null && amount > 0 ? { amountCentavos: amount } : {}),
    ...(paidWith ? { paidWith } : {}),
  };
}

/** Asaas refund statuses that mean the refund will not happen. */
const UNDONE_REFUND = new Set(['CANCELLED', 'DENIED']);

/**
 * The centavos the event's payment says are refunded so far: PAYMENT_REFUNDED without a refund list
 * is all of it (undefined); otherwise the sum of its refunds not cancelled. null: the amount cannot
 * be known (a partial refund event without a usable list), and nothing is applied.
 */
export function refundedTotal(
  event: string,
  refunds: readonly { value: number; status?: string | null }[] | null | undefined,
  toCentavos: (reais: number) => number | null,
): number | undefined | null {
  const live = (refunds ?? []).filter((r) => !UNDONE_REFUND.has(r.status ?? ''));
  if (live.length === 0) return event === 'PAYMENT_REFUNDED' ? undefined : null;
  let total = 0;
  for (const r of live) {
    const centavos = toCentavos(r.value);
    if (centavos === null) return null;
    total += centavos;
  }
  return total;
}

/** The failure code a failing event carries (the event name is kept as the raw code). */
export const EVENT_FAILURE: Readonly<Record<string, { failureCode: string; failureReason: string }>> = {
  PAYMENT_OVERDUE: {
    failureCode: 'payment_overdue',
    failureReason: 'The charge was not paid by its due date.',
  },
  PAYMENT_CREDIT_CARD_CAPTURE_REFUSED: {
    failureCode: 'card_declined',
    failureReason: 'The card capture was refused.',
  },
  PAYMENT_REPROVED_BY_RISK_ANALYSIS: {
    failureCode: 'fraud_suspected',
    failureReason: 'The payment was refused by the risk analysis.',
  },
};

/**
 * Pix Automático authorization events ("Events for Automatic Pix",
 * docs.asaas.com/docs/events-for-automatic-pix) that change what we know of an authorization:
 * activation, and the final ones (cancelled by the payer at the bank or by the seller, refused by
 * the bank, expired unpaid), which make the next renewal decline `authorization_revoked`. CREATED,
 * ELIGIBILITY_UPDATED and the PAYMENT_INSTRUCTION_* events are acknowledged and change nothing:
 * the renewal's payment is settled by its own PAYMENT_RECEIVED or PAYMENT_OVERDUE.
 */
export const ASAAS_AUTHORIZATION_EVENTS: Readonly<Record<string, 'active' | 'revoked'>> = {
  PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED: 'active',
  PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED: 'revoked',
  PIX_AUTOMATIC_RECURRING_AUTHORIZATION_REFUSED: 'revoked',
  PIX_AUTOMATIC_RECURRING_AUTHORIZATION_EXPIRED: 'revoked',
};
