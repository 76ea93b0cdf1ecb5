import * as z from 'zod';
import { numericOrUuidParam } from '#shared/domain/params';
import { reaisToCentavos } from '#shared/money';
import {
  AFFILIATION_STATUSES,
  MAX_COMMISSION_BASIS_POINTS,
  MIN_COMMISSION_BASIS_POINTS,
} from './affiliation';

/** Seller ids are numeric ids (at most 15 digits, as every numeric path id). */
const MAX_SELLER_ID = 999_999_999_999_999;

const affiliateIdField = z
  .number({
    error: (issue) =>
      issue.input === undefined ? 'affiliateId is required' : 'affiliateId must be a seller id',
  })
  .int('affiliateId must be a seller id (a positive integer)')
  .min(1, 'affiliateId must be a seller id (a positive integer)')
  .max(MAX_SELLER_ID, 'affiliateId must be a seller id (a positive integer)');

const COMMISSION_RULE = 'commissionPercent must be between 0.01 and 90 with at most 2 decimal places';

/**
 * A percent with at most two decimals, read as basis points without float arithmetic: the same
 * exact two-decimal parse as Reais to centavos (12.5 -> 1250, 0.07 -> 7).
 */
const commissionPercentField = z
  .number({
    error: (issue) =>
      issue.input === undefined ? 'commissionPercent is required' : 'commissionPercent must be a number',
  })
  .transform((percent, ctx) => {
    const basisPoints = Object.is(percent, -0) ? null : reaisToCentavos(percent);
    if (
      basisPoints === null ||
      basisPoints < MIN_COMMISSION_BASIS_POINTS ||
      basisPoints > MAX_COMMISSION_BASIS_POINTS
    ) {
      ctx.addIssue({ code: 'custom', message: COMMISSION_RULE });
      return z.NEVER;
    }
    return basisPoints;
  });

/** POST /api/products/{id}/affiliates; the output carries the commission in basis points. */
export const addAffiliationSchema = z
  .object({ affiliateId: affiliateIdField, commissionPercent: commissionPercentField })
  .strict();
export type AddAffiliationInput = z.output<typeof addAffiliationSchema>;

/** GET /api/products/{id}/affiliates. */
export const listAffiliationsQuerySchema = z.object({
  status: z.enum(AFFILIATION_STATUSES).optional(),
});

/**
 * DELETE /api/products/{id}/affiliates/{affiliateId}: `id` as every product route (integer or uuid);
 * `affiliateId` is any segment, so a malformed one answers `Affiliation not found` once the product
 * is known, rather than the route's `Product not found`.
 */
export const affiliationPathSchema = numericOrUuidParam.extend({ affiliateId: z.string() });
