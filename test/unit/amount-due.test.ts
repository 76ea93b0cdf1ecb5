import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '#shared/dates';
import {
  amountDueOn,
  easterSunday,
  type LateChargeTerms,
  lateChargeTermsView,
  NO_LATE_CHARGES,
  nextBusinessDay,
  parseLateChargeTerms,
} from '#shared/domain/payments/amount-due';

/** 2% fine, 1% a month, 5% until ten days before, 2% until the due date (a Tuesday). */
const DUE = '2026-03-10';
const terms: LateChargeTerms = {
  fine: { type: 'percentage', basisPoints: 200 },
  interest: { basisPointsPerMonth: 100 },
  discounts: [
    { until: '2026-02-28', rate: { type: 'percentage', basisPoints: 500 } },
    { until: DUE, rate: { type: 'percentage', basisPoints: 200 } },
  ],
};

describe('the amount due on a day', () => {
  it('charges the fine once and interest per calendar day after the due date, to the centavo', () => {
    // R$ 150,00 paid 10 days late: fine R$ 3,00; interest 15000 * 1% * 10/30 = R$ 0,50.
    expect(amountDueOn(15_000, DUE, terms, '2026-03-20')).toEqual({
      amountDue: 15_350,
      fine: 300,
      interest: 50,
      discount: 0,
    });
    // One day late: the fine and a day's interest, 15000 * 1% / 30 = 5 centavos.
    expect(amountDueOn(15_000, DUE, terms, '2026-03-11')).toMatchObject({ fine: 300, interest: 5 });
  });

  it('gives the first discount tier not yet passed, and the face value on the due date without a tier', () => {
    expect(amountDueOn(15_000, DUE, terms, '2026-02-20').discount).toBe(750);
    expect(amountDueOn(15_000, DUE, terms, '2026-02-28').discount).toBe(750);
    expect(amountDueOn(15_000, DUE, terms, '2026-03-01').discount).toBe(300);
    expect(amountDueOn(15_000, DUE, terms, DUE)).toEqual({
      amountDue: 14_700,
      fine: 0,
      interest: 0,
      discount: 300,
    });
    expect(amountDueOn(15_000, DUE, NO_LATE_CHARGES, '2026-04-10').amountDue).toBe(15_000);
  });

  it('lets a due date on a weekend or holiday be paid on the next business day without charges', () => {
    // 2026-04-04 is a Saturday; Monday the 6th is free; Tuesday pays the fine and 3 days of interest from the due date.
    expect(nextBusinessDay('2026-04-04')).toBe('2026-04-06');
    expect(amountDueOn(10_000, '2026-04-04', terms, '2026-04-06').amountDue).toBe(10_000);
    expect(amountDueOn(10_000, '2026-04-04', terms, '2026-04-07')).toMatchObject({ fine: 200, interest: 10 });
    // Carnival 2027: Easter is March 28; Monday 8 and Tuesday 9 February are bank holidays.
    expect(easterSunday(2027)).toBe('2027-03-28');
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(nextBusinessDay('2027-02-06')).toBe('2027-02-10');
    expect(nextBusinessDay('2026-12-25')).toBe('2026-12-28');
  });

  const amounts = fc.integer({ min: 1, max: 9_999_999_999 });
  const day = fc.integer({ min: -120, max: 400 }).map((n) => addDays(DUE, n));
  const rate = fc.oneof(
    fc.integer({ min: 1, max: 200 }).map((basisPoints) => ({ type: 'percentage' as const, basisPoints })),
    fc.integer({ min: 1, max: 500 }).map((centavos) => ({ type: 'fixed' as const, centavos })),
  );
  const anyTerms = fc.record({
    fine: fc.option(rate, { nil: null }),
    interest: fc.option(
      fc.integer({ min: 1, max: 100 }).map((basisPointsPerMonth) => ({ basisPointsPerMonth })),
      { nil: null },
    ),
    discounts: fc
      .uniqueArray(fc.tuple(fc.integer({ min: 0, max: 60 }), rate), { selector: ([d]) => d, maxLength: 3 })
      .map((tiers) =>
        tiers
          .map(([back, r]) => ({ until: addDays(DUE, -back), rate: r }))
          .sort((a, b) => (a.until < b.until ? -1 : 1)),
      ),
  });

  it('is never negative and adds up exactly (property)', () => {
    fc.assert(
      fc.property(amounts, anyTerms, day, (amount, t, paid) => {
        const due = amountDueOn(amount, DUE, t, paid);
        expect(due.amountDue).toBeGreaterThanOrEqual(0);
        expect(Number.isSafeInteger(due.amountDue)).toBe(true);
        expect(due.amountDue).toBe(amount + due.fine + due.interest - due.discount);
      }),
    );
  });

  it('never falls as the payment day moves later after the due date (property)', () => {
    fc.assert(
      fc.property(
        amounts,
        anyTerms,
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 60 }),
        (amount, t, late, more) => {
          const earlier = amountDueOn(amount, DUE, t, addDays(DUE, late)).amountDue;
          const later = amountDueOn(amount, DUE, t, addDays(DUE, late + more)).amountDue;
          expect(later).toBeGreaterThanOrEqual(earlier);
          expect(earlier).toBeGreaterThanOrEqual(amount);
        },
      ),
    );
  });
});

describe('the terms a charge is created with', () => {
  const charge = { amount: 15_000, dueDate: DUE };

  it('reads the API fields into exact units and shows them back the same', () => {
    const input = {
      fine: { type: 'percentage' as const, value: 2 },
      interest: { percentPerMonth: 1 },
      discounts: [
        { until: DUE, type: 'fixed' as const, value: 3 },
        { until: '2026-02-28', type: 'percentage' as const, value: 5 },
      ],
    };
    const { terms: parsed, errors } = parseLateChargeTerms(input, charge);
    expect(errors).toEqual([]);
    expect(parsed.discounts.map((d) => d.until)).toEqual(['2026-02-28', DUE]);
    expect(lateChargeTermsView(parsed)).toEqual({
      fine: { type: 'percentage', value: 2 },
      interest: { percentPerMonth: 1 },
      discounts: [
        { until: '2026-02-28', type: 'percentage', value: 5 },
        { until: DUE, type: 'fixed', value: 3 },
      ],
    });
  });

  it('refuses what the law or the charge does not allow, naming the field', () => {
    const { errors } = parseLateChargeTerms(
      {
        fine: { type: 'fixed', value: 3.01 },
        interest: { percentPerMonth: 1.5 },
        discounts: [
          { until: '2026-03-11', type: 'percentage', value: 1.234 },
          { until: '2026-03-01', type: 'fixed', value: 150 },
        ],
      },
      charge,
    );
    expect(errors).toEqual([
      'fine must be at most 2% of the amount (CDC art. 52)',
      'interest.percentPerMonth must be at most 1 (1% a month)',
      'discounts[0].value must have at most 2 decimal places',
      'discounts[0].until must be on or before the due date',
      'discounts[1].value must leave something to pay',
    ]);
    expect(parseLateChargeTerms({ fine: { type: 'percentage', value: 2.5 } }, charge).errors).toEqual([
      'fine must be at most 2% of the amount (CDC art. 52)',
    ]);
  });
});
