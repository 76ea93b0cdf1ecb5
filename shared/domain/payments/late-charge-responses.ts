import * as z from 'zod';

const value = z.number().describe('Percent (2 = 2%) or Reais, as `type` says');
const rateOf = <T extends object>(extra: T) =>
  z.union([
    z.object({ ...extra, type: z.literal('percentage'), value }),
    z.object({ ...extra, type: z.literal('fixed'), value }),
  ]);

/** The terms a charge carries, in the fields it was created with (null / empty: none). */
export const lateChargeTermsFields = () => ({
  fine: rateOf({})
    .nullable()
    .describe('Fine (multa) once after the due date; at most 2% of the amount (CDC art. 52 §1)'),
  interest: z
    .object({ percentPerMonth: z.number() })
    .nullable()
    .describe('Interest (juros de mora), pro rata per calendar day after the due date; at most 1% a month'),
  discounts: z
    .array(rateOf({ until: z.string().describe('YYYY-MM-DD, America/Sao_Paulo: the last day of the tier') }))
    .describe('Early-payment discount tiers, earliest first'),
});

export const amountDueField = () =>
  z
    .number()
    .nullable()
    .describe(
      'What the customer pays if they pay today (America/Sao_Paulo), in Reais, with the fine, interest or discount of the day; null when nothing is payable',
    );
