import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { AffiliationView } from './affiliation';
import type { listAffiliations } from './affiliations';
import type { toTransactionAffiliateView } from './commission';

const iso = () => z.iso.datetime();
const percent = () =>
  z.number().describe('Commission in percent of the seller net (0.01 to 90, at most 2 decimals, e.g. 12.5)');

/** Every affiliation route that answers one affiliation (add, end). */
export const affiliationResponse = z.lazy(() =>
  z
    .object({
      productId: z.number().int(),
      affiliateId: z.number().int().describe("The affiliate's seller id"),
      commissionPercent: percent(),
      status: z.enum(['active', 'ended']),
      createdAt: iso().describe('When this affiliation started'),
      updatedAt: iso(),
      endedAt: iso().nullable().describe('Null while active'),
    })
    .meta({ id: 'Affiliation', description: "An affiliate's commission on a product" }),
);

/** GET /api/products/{id}/affiliates. */
export const affiliationListResponse = z.lazy(() =>
  z
    .object({ data: z.array(affiliationResponse) })
    .meta({ id: 'AffiliationList', description: "A product's affiliations, by affiliate id" }),
);

/** The affiliate of a sale, for the transaction's answer (null when the sale had none). */
export const transactionAffiliateResponse = z.lazy(() =>
  z
    .object({
      affiliateId: z.number().int().describe("The affiliate's seller id"),
      commissionPercent: percent(),
      commission: z
        .number()
        .describe("The affiliate's commission, in Reais; valueSeller is already net of it"),
    })
    .meta({ id: 'TransactionAffiliate', description: 'The affiliate of a sale and its commission' }),
);

type _Affiliation = Assert<Equals<z.output<typeof affiliationResponse>, AffiliationView>>;
type _List = Assert<
  Equals<z.output<typeof affiliationListResponse>, Awaited<ReturnType<typeof listAffiliations>>>
>;
type _Sale = Assert<
  Equals<z.output<typeof transactionAffiliateResponse>, ReturnType<typeof toTransactionAffiliateView>>
>;
