import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { AffiliationView } from './affiliation';
import type { listAffiliations } from './affiliations';
import type { toAffiliateCommissionView, toTransactionAffiliateView } from './commission';

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

/** An affiliate's agreed commission (a carnê's; null when it has none). */
export const affiliateCommissionResponse = z.lazy(() =>
  z
    .object({
      affiliateId: z.number().int().describe("The affiliate's seller id"),
      commissionPercent: percent(),
      commission: z
        .number()
        .describe("The affiliate's commission, in Reais; valueSeller is already net of it"),
    })
    .meta({ id: 'AffiliateCommission', description: 'An affiliate and its commission' }),
);

/** The affiliate of a sale, for the transaction's answer (null when the sale had none). */
export const transactionAffiliateResponse = z.lazy(() =>
  z
    .object({
      affiliateId: z.number().int().describe("The affiliate's seller id"),
      commissionPercent: percent(),
      commission: z
        .number()
        .describe("The affiliate's commission of the sale, in Reais; valueSeller is already net of it"),
      commissionReversed: z
        .number()
        .describe(
          'In Reais: the refunded share of the commission (pro rata, rounded down to the centavo), or all of it while a chargeback is open; 0 again when the chargeback is won',
        ),
      net: z.number().describe("The affiliate's net, in Reais: commission less commissionReversed"),
    })
    .meta({
      id: 'TransactionAffiliate',
      description: 'The affiliate of a sale, its commission and what refunds or a chargeback took back',
    }),
);

type _Affiliation = Assert<Equals<z.output<typeof affiliationResponse>, AffiliationView>>;
type _List = Assert<
  Equals<z.output<typeof affiliationListResponse>, Awaited<ReturnType<typeof listAffiliations>>>
>;
type _Commission = Assert<
  Equals<z.output<typeof affiliateCommissionResponse>, ReturnType<typeof toAffiliateCommissionView>>
>;
type _Sale = Assert<
  Equals<z.output<typeof transactionAffiliateResponse>, ReturnType<typeof toTransactionAffiliateView>>
>;
