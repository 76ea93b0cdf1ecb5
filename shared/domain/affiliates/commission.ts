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

/** A transaction's affiliate as the API shows it: the commission in Reais. */
export function toTransactionAffiliateView(a: TransactionAffiliate) {
  return {
    affiliateId: a.affiliateId,
    commissionPercent: a.commissionPercent,
    commission: centavosToReais(a.commission),
  };
}
