import { centavosToReais, percentOf } from '#shared/money';
import { type Affiliation, commissionPercentOf } from './affiliation';

const FULL = 10_000;

/**
 * The affiliate's commission of one sale, taken from the seller's net (the amount after the
 * platform's fee), so it can never exceed what the seller receives: `commission` is
 * `commissionBasisPoints` of `valueSellerCentavos` rounded half up (to the nearest centavo, a half
 * centavo going to the affiliate), and `valueSeller` is the rest. Both are integers that add up to
 * the input exactly (docs/decisions.md, "Affiliates").
 */
export function commissionSplit(
  valueSellerCentavos: number,
  commissionBasisPoints: number,
): { commission: number; valueSeller: number } {
  if (!Number.isSafeInteger(valueSellerCentavos) || valueSellerCentavos < 0)
    throw new RangeError(`valueSellerCentavos must be a non-negative integer, got ${valueSellerCentavos}`);
  if (!Number.isInteger(commissionBasisPoints) || commissionBasisPoints < 0 || commissionBasisPoints > FULL)
    throw new RangeError(
      `commissionBasisPoints must be an integer in 0..10000, got ${commissionBasisPoints}`,
    );
  const commission = percentOf(valueSellerCentavos, commissionBasisPoints);
  return { commission, valueSeller: valueSellerCentavos - commission };
}

/**
 * What a transaction records about its affiliate: who, at which percent (frozen at sale time, so a
 * later change of the affiliation never rewrites a past sale) and the commission in centavos.
 */
export interface TransactionAffiliate {
  affiliateId: number;
  commissionPercent: number;
  /** Centavos. */
  commission: number;
}

/**
 * The seller's net and the affiliate record of a sale made through `affiliation` (null: no
 * affiliate, the net unchanged). The transaction stores both: `valueSeller` drops by the commission.
 */
export function affiliateSale(
  affiliation: Pick<Affiliation, 'affiliateId' | 'commissionBasisPoints'> | null,
  valueSellerCentavos: number,
): { valueSeller: number; affiliate: TransactionAffiliate | null } {
  if (!affiliation) return { valueSeller: valueSellerCentavos, affiliate: null };
  const split = commissionSplit(valueSellerCentavos, affiliation.commissionBasisPoints);
  return {
    valueSeller: split.valueSeller,
    affiliate: {
      affiliateId: affiliation.affiliateId,
      commissionPercent: commissionPercentOf(affiliation.commissionBasisPoints),
      commission: split.commission,
    },
  };
}

/** What a sale's refunds and chargeback stand at: all the commission's reversal depends on. */
export interface SaleReturns {
  /** Centavos: the sale's face value. */
  value: number;
  /** Centavos refunded so far, all refunds together. */
  refundedAmount: number;
  /** Whether a chargeback holds the sale reversed now (opened and not won). */
  chargebackOpen: boolean;
}

/**
 * The centavos of the commission taken back from the affiliate, from the sale as it stands: all of
 * it while a chargeback is open; otherwise the refunded share of the sale,
 * `floor(commission × refunded / value)`. Computed from the cumulative refund, never summed per
 * refund, so the reversals of any sequence of partial refunds add up to at most the commission and
 * a full refund reverses it exactly; rounding down leaves the affiliate the fraction of a centavo
 * until the refund that completes it. A chargeback won restores what the refunds alone reverse
 * (docs/decisions.md, "Affiliates").
 */
export function commissionReversed(commission: number, sale: SaleReturns): number {
  if (sale.chargebackOpen) return commission;
  if (sale.value <= 0 || sale.refundedAmount <= 0) return 0;
  const refunded = Math.min(sale.refundedAmount, sale.value);
  // In BigInt: commission × refunded passes 2^53 for sales of tens of millions of Reais.
  return Number((BigInt(commission) * BigInt(refunded)) / BigInt(sale.value));
}

/** An affiliate's agreed commission as the API shows it (a carnê's): in Reais. */
export function toAffiliateCommissionView(a: TransactionAffiliate) {
  return {
    affiliateId: a.affiliateId,
    commissionPercent: a.commissionPercent,
    commission: centavosToReais(a.commission),
  };
}

/**
 * A transaction's affiliate as the API shows it, in Reais: the commission of the sale, what its
 * refunds or chargeback took back, and the affiliate's net (the commission less the reversal).
 */
export function toTransactionAffiliateView(a: TransactionAffiliate, sale: SaleReturns) {
  const reversed = commissionReversed(a.commission, sale);
  return {
    ...toAffiliateCommissionView(a),
    commissionReversed: centavosToReais(reversed),
    net: centavosToReais(a.commission - reversed),
  };
}
