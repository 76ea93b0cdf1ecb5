import type { ChargeStatus } from '#shared/domain/payments/gateway';
import type { ProviderPayment } from '#shared/domain/ports';
import { PAID, PENDING, type Transaction } from '#shared/domain/transactions/transaction';
import type { ReconciliationDifference, Repair } from './reconciliation';

/** What our transaction's status says the provider should hold. */
export function expectedProviderStatus(t: Transaction): ChargeStatus {
  if (PAID.includes(t.status)) return 'paid';
  if (PENDING.includes(t.status) || t.status === 'authorized') return 'pending';
  if (t.status === 'denied') return 'failed';
  if (t.status === 'cancel') return 'canceled';
  return t.chargeback?.status === 'open' || t.failureCode === 'chargeback' ? 'charged_back' : 'refunded';
}

/**
 * A transaction the provider is expected to hold a payment for. A declined card or a canceled
 * (expired) pix or boleto may have none (a refused card is never created; a canceled charge is
 * deleted and no longer listed), and a Pix Automático consent's payment exists only once its QR
 * is paid.
 */
export function expectedAtProvider(t: Transaction): boolean {
  if (t.status === 'denied' || t.status === 'cancel') return false;
  return !(t.status === 'pendingPix' && t.pix?.authorizationId);
}

/**
 * The provider's payments of one gateway id as one: a card sold in installments is one payment per
 * installment at some providers, all naming the same reference, so their amounts add up.
 */
export interface ProviderCharge {
  gatewayPayId: number;
  providerPaymentId: string;
  amountCentavos: number;
  status: ChargeStatus;
}

export function groupByGatewayPayId(payments: ProviderPayment[]): {
  charges: Map<number, ProviderCharge>;
  unknown: ProviderPayment[];
} {
  const charges = new Map<number, ProviderCharge>();
  const unknown: ProviderPayment[] = [];
  for (const p of payments) {
    if (p.gatewayPayId === null) {
      unknown.push(p);
      continue;
    }
    const seen = charges.get(p.gatewayPayId);
    if (seen) seen.amountCentavos += p.amountCentavos;
    else charges.set(p.gatewayPayId, { ...p, gatewayPayId: p.gatewayPayId });
  }
  return { charges, unknown };
}

/**
 * A status the provider moved forward that we missed (its notification was lost): money that
 * arrived, was refunded or charged back at the provider. Only those are repaired, through the
 * notification path; any other difference (the provider behind us, a failure, a cancellation) is
 * reported for a person to look at.
 */
export function repairOf(providerStatus: ChargeStatus, t: Transaction): Repair | null {
  const ours = expectedProviderStatus(t);
  if (providerStatus === 'paid' && ours === 'pending') return 'charge.paid';
  if (providerStatus === 'refunded' && ours === 'paid') return 'charge.refunded';
  if (providerStatus === 'charged_back' && ours === 'paid') return 'charge.charged_back';
  return null;
}

const base: Omit<ReconciliationDifference, 'kind'> = {
  providerPaymentId: null,
  gatewayPayId: null,
  transactionId: null,
  providerAmount: null,
  ourAmount: null,
  providerStatus: null,
  ourStatus: null,
  repair: null,
};

export const unknownPayment = (p: ProviderPayment): ReconciliationDifference => ({
  ...base,
  kind: 'unknown_payment',
  providerPaymentId: p.providerPaymentId,
  gatewayPayId: p.gatewayPayId,
  providerAmount: p.amountCentavos,
  providerStatus: p.status,
});

export const missingPayment = (t: Transaction): ReconciliationDifference => ({
  ...base,
  kind: 'missing_payment',
  gatewayPayId: t.gatewayPayId,
  transactionId: t.id,
  ourAmount: t.value,
  ourStatus: t.status,
});

/** The differences between one provider charge and our transaction of the same gateway id. */
export function differencesOf(
  charge: Pick<ProviderCharge, 'providerPaymentId' | 'status'> & { amountCentavos: number | null },
  t: Transaction,
): ReconciliationDifference[] {
  const pair = {
    ...base,
    providerPaymentId: charge.providerPaymentId,
    gatewayPayId: t.gatewayPayId,
    transactionId: t.id,
    providerAmount: charge.amountCentavos,
    ourAmount: t.value,
    providerStatus: charge.status,
    ourStatus: t.status,
  };
  const out: ReconciliationDifference[] = [];
  if (charge.amountCentavos !== null && charge.amountCentavos !== t.value)
    out.push({ ...pair, kind: 'amount_mismatch' });
  if (charge.status !== expectedProviderStatus(t)) out.push({ ...pair, kind: 'status_mismatch' });
  return out;
}
