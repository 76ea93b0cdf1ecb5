import type { Tenant } from '#shared/domain/tenant';
import { ValidationError } from '#shared/errors';

/**
 * An affiliation lets another seller (the affiliate) sell a product for a commission. It lives in
 * the product's tenant: a sandbox product's affiliations are sandbox data. The affiliate is named
 * by its seller id, which has no environment.
 */
export const AFFILIATION_NOT_FOUND = 'Affiliation not found';
export const AFFILIATION_EXISTS = 'The affiliate already has an active affiliation on this product';

/** Commission bounds in basis points (hundredths of a percent): 0.01 % .. 90 %. */
export const MIN_COMMISSION_BASIS_POINTS = 1;
export const MAX_COMMISSION_BASIS_POINTS = 9_000;
export const BASIS_POINTS_PER_PERCENT = 100;

export const AFFILIATION_STATUSES = ['active', 'ended'] as const;
export type AffiliationStatus = (typeof AFFILIATION_STATUSES)[number];

export interface Affiliation {
  /** The product's tenant (its seller and environment). */
  tenant: Tenant;
  productId: number;
  /** The affiliate's seller id. */
  affiliateId: number;
  /** The commission in basis points: 1250 is 12.5 %. */
  commissionBasisPoints: number;
  status: AffiliationStatus;
  /** When this affiliation started (re-adding an ended one starts a new one). */
  createdAt: string;
  updatedAt: string;
  endedAt: string | null;
}

/** The affiliate named in an add is not a seller of the platform (the repository checks it in its write). */
export class UnknownAffiliateError extends ValidationError {
  constructor() {
    super(['affiliateId must be the id of an existing seller']);
  }
}

export const commissionPercentOf = (basisPoints: number) => basisPoints / BASIS_POINTS_PER_PERCENT;

export function toAffiliationView(a: Affiliation) {
  return {
    productId: a.productId,
    affiliateId: a.affiliateId,
    commissionPercent: commissionPercentOf(a.commissionBasisPoints),
    status: a.status,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    endedAt: a.endedAt,
  };
}

export type AffiliationView = ReturnType<typeof toAffiliationView>;
