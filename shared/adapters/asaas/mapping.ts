import { daysBetween } from '#shared/dates';
import type { LateChargeTerms, Rate } from '#shared/domain/payments/amount-due';
import type { ChargeMethod, ChargeStatus } from '#shared/domain/payments/gateway';
import { centavosToReais } from '#shared/money';
import type { AsaasErrorItem } from './client';

/**
 * Every payment status the provider documents ("Payment status", docs.asaas.com/reference/list-payments)
 * as ours. CONFIRMED is paid for us: the buyer paid, only the provider's settlement to the seller is
 * pending. Risk analysis and dunning keep the charge where it is.
 */
export const ASAAS_STATUS: Readonly<Record<string, ChargeStatus>> = {
  PENDING: 'pending',
  AWAITING_RISK_ANALYSIS: 'pending',
  OVERDUE: 'failed',
  RECEIVED: 'paid',
  CONFIRMED: 'paid',
  RECEIVED_IN_CASH: 'paid',
  DUNNING_REQUESTED: 'failed',
  DUNNING_RECEIVED: 'paid',
  REFUND_REQUESTED: 'paid',
  REFUND_IN_PROGRESS: 'paid',
  REFUNDED: 'refunded',
  CHARGEBACK_REQUESTED: 'charged_back',
  CHARGEBACK_DISPUTE: 'charged_back',
  // The dispute is won (only the acquirer's transfer is pending): the sale stands, as after the event.
  AWAITING_CHARGEBACK_REVERSAL: 'paid',
};

/** A status the provider added after this table: pending, never a false paid or failed. */
export const chargeStatusOf = (status: string | undefined): ChargeStatus =>
  (status && ASAAS_STATUS[status]) || 'pending';

export { ASAAS_EVENTS, EVENT_FAILURE } from '#shared/domain/provider-connections/asaas-events';

export const BILLING_TYPE: Readonly<Record<ChargeMethod, string>> = {
  pix: 'PIX',
  boleto: 'BOLETO',
  creditcard: 'CREDIT_CARD',
};

/** Keyword of the provider's (Portuguese) refusal description → our canonical card failure code. */
const DECLINE_HINTS: ReadonlyArray<[RegExp, string]> = [
  [/saldo|limite|insuficiente|insufficient/i, 'insufficient_funds'],
  [/vencid|expirad|expired|validade/i, 'expired_card'],
  [/cvv|c[oó]digo de seguran|security code/i, 'incorrect_cvc'],
  [/indispon|unavailable/i, 'issuer_unavailable'],
];

/**
 * A card refusal (HTTP 400 on a card charge or tokenization: the provider persists nothing) as our
 * canonical failure code; the provider's own code is kept as `gatewayFailureCode`.
 */
export function cardFailureOf(errors: AsaasErrorItem[]): {
  failureCode: string;
  failureReason: string;
  gatewayFailureCode: string;
} {
  const first = errors[0] ?? { code: 'unknown', description: '' };
  const hint = DECLINE_HINTS.find(([pattern]) => pattern.test(first.description));
  const failureCode = hint?.[1] ?? 'card_declined';
  return {
    failureCode,
    failureReason: first.description || 'The card was declined by the provider.',
    gatewayFailureCode: first.code,
  };
}

/** The 47-digit linha digitável in its printed groups (AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEE…). */
export function formatDigitableLine(line: string): string {
  const d = line.replace(/\D/g, '');
  if (d.length !== 47) return line;
  return `${d.slice(0, 5)}.${d.slice(5, 10)} ${d.slice(10, 15)}.${d.slice(15, 21)} ${d.slice(21, 26)}.${d.slice(26, 32)} ${d.slice(32, 33)} ${d.slice(33)}`;
}

const asaasRate = (rate: Rate) =>
  rate.type === 'percentage'
    ? { value: rate.basisPoints / 100, type: 'PERCENTAGE' as const }
    : { value: centavosToReais(rate.centavos), type: 'FIXED' as const };

/**
 * A charge's terms in the payment's fields (POST /v3/payments): `fine {value, type}`, `interest
 * {value}` in percent a month, `discount {value, dueDateLimitDays, type}`. Asaas registers one
 * discount tier, counted in days before the due date: the latest tier (the one that runs to the
 * due date) is sent.
 */
export function asaasLateChargeFields(terms: LateChargeTerms | null | undefined, dueDate: string) {
  if (!terms) return {};
  const last = terms.discounts.at(-1);
  return {
    ...(terms.fine ? { fine: asaasRate(terms.fine) } : {}),
    ...(terms.interest ? { interest: { value: terms.interest.basisPointsPerMonth / 100 } } : {}),
    ...(last
      ? { discount: { ...asaasRate(last.rate), dueDateLimitDays: daysBetween(last.until, dueDate) } }
      : {}),
  };
}
