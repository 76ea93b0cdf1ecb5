import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { centavosToReais, MAX_CENTAVOS, percentOf, reaisToCentavos, splitCentavos } from '#shared/money';
import { reaisField } from '#shared/money-field';

describe('reaisToCentavos', () => {
  it.each([
    [49.9, 4990],
    [5, 500],
    [4.99, 499],
    [0, 0],
    [0.01, 1],
    [0.07, 7],
    [0.3, 30],
    [1.1, 110],
    [4.35, 435],
    [0.29, 29],
    [19.99, 1999],
  ])('converts %s Reais to %s centavos exactly', (reais, centavos) => {
    expect(reaisToCentavos(reais)).toBe(centavos);
  });

  it('converts amounts where multiplying the float by 100 would be off by one centavo', () => {
    // 1.1 * 100 is 110.00000000000001 and 4.35 * 100 is 434.99999999999994 in IEEE 754.
    expect(1.1 * 100).not.toBe(110);
    expect(4.35 * 100).not.toBe(435);
    expect(reaisToCentavos(1.1)).toBe(110);
    expect(reaisToCentavos(4.35)).toBe(435);
  });

  it('rejects the float sum 0.1 + 0.2 because its decimal text has more than two decimal places', () => {
    expect(reaisToCentavos(0.1 + 0.2)).toBeNull();
  });

  it('rejects 49.999 because it has three decimal places', () => {
    expect(reaisToCentavos(49.999)).toBeNull();
    expect(reaisToCentavos(1.005)).toBeNull();
  });

  it('rejects negative amounts', () => {
    expect(reaisToCentavos(-1)).toBeNull();
    expect(reaisToCentavos(-0.01)).toBeNull();
  });

  it('treats negative zero as zero', () => {
    expect(reaisToCentavos(-0)).toBe(0);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('rejects %s', (value) => {
    expect(reaisToCentavos(value)).toBeNull();
  });

  it('rejects tiny amounts written in exponent notation', () => {
    expect(reaisToCentavos(1e-7)).toBeNull();
  });

  it('accepts the boleto maximum 99,999,999.99 and refuses one centavo more', () => {
    expect(reaisToCentavos(99_999_999.99)).toBe(MAX_CENTAVOS);
    expect(reaisToCentavos(100_000_000)).toBeNull();
    expect(reaisToCentavos(1e21)).toBeNull();
  });

  it('returns an integer for every amount with at most two decimal places (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_CENTAVOS }), (c) => {
        const reais = Number((c / 100).toFixed(2));
        expect(reaisToCentavos(reais)).toBe(c);
      }),
    );
  });
});

describe('centavosToReais', () => {
  it('shows 4990 centavos as 49.9 and 5 centavos as 0.05', () => {
    expect(centavosToReais(4990)).toBe(49.9);
    expect(centavosToReais(5)).toBe(0.05);
    expect(centavosToReais(0)).toBe(0);
    expect(centavosToReais(-150)).toBe(-1.5);
  });

  it('refuses a non-integer amount of centavos', () => {
    expect(() => centavosToReais(1.5)).toThrow(/integer/);
    expect(() => centavosToReais(Number.NaN)).toThrow(/integer/);
  });

  it('round-trips every amount from 0 to MAX_CENTAVOS through Reais (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_CENTAVOS }), (c) => {
        expect(reaisToCentavos(centavosToReais(c))).toBe(c);
      }),
      { numRuns: 2_000 },
    );
  });

  it('round-trips the edges of the range', () => {
    for (const c of [0, 1, 9, 10, 99, 100, 101, MAX_CENTAVOS - 1, MAX_CENTAVOS]) {
      expect(reaisToCentavos(centavosToReais(c))).toBe(c);
    }
  });
});

describe('splitCentavos', () => {
  it('splits 100 centavos in 3 as 34, 33, 33 with the first part taking the remainder', () => {
    expect(splitCentavos(100, 3)).toEqual([34, 33, 33]);
    expect(splitCentavos(99, 3)).toEqual([33, 33, 33]);
    expect(splitCentavos(2, 5)).toEqual([1, 1, 0, 0, 0]);
  });

  it('always returns `parts` integers that add up exactly and differ by at most one (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_CENTAVOS }), fc.integer({ min: 1, max: 120 }), (total, n) => {
        const split = splitCentavos(total, n);
        expect(split).toHaveLength(n);
        expect(split.every(Number.isInteger)).toBe(true);
        expect(split.reduce((a, b) => a + b, 0)).toBe(total);
        expect(Math.max(...split) - Math.min(...split)).toBeLessThanOrEqual(1);
        // Non-increasing: the larger parts come first.
        for (let i = 1; i < split.length; i++) expect(split[i]).toBeLessThanOrEqual(split[i - 1]);
      }),
    );
  });
});

describe('percentOf', () => {
  it('takes basis points of an amount', () => {
    expect(percentOf(10_000, 250)).toBe(250);
    expect(percentOf(4990, 10_000)).toBe(4990);
    expect(percentOf(4990, 0)).toBe(0);
  });

  it('rounds half up', () => {
    // 2 centavos * 25% = 0.5 centavo -> 1
    expect(percentOf(2, 2_500)).toBe(1);
    // 199 * 2.5% = 4.975 -> 5
    expect(percentOf(199, 250)).toBe(5);
    // 1 * 49.99% = 0.4999 -> 0
    expect(percentOf(1, 4_999)).toBe(0);
    // 3 * 50% = 1.5 -> 2
    expect(percentOf(3, 5_000)).toBe(2);
  });

  it('matches exact rational rounding half up for any amount and rate (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_CENTAVOS }), fc.integer({ min: 0, max: 10_000 }), (c, bp) => {
        const exact = BigInt(c) * BigInt(bp);
        const expected = Number((exact * 2n + 10_000n) / 20_000n);
        expect(percentOf(c, bp)).toBe(expected);
      }),
    );
  });
});

describe('reaisField', () => {
  const schema = z.object({ amount: reaisField('amount') });

  it('parses a Reais number to centavos', () => {
    expect(schema.parse({ amount: 49.9 })).toEqual({ amount: 4990 });
  });

  it('names the field when the amount has three decimal places', () => {
    const result = schema.safeParse({ amount: 49.999 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe(
      'amount must be a non-negative amount in Reais with at most 2 decimal places',
    );
    expect(result.error?.issues[0].path).toEqual(['amount']);
  });

  it('names the field when the amount is not a number', () => {
    const result = schema.safeParse({ amount: '49.90' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe('amount must be a number');
  });

  it('uses "value" as the default field name', () => {
    const result = reaisField().safeParse(-1);
    expect(result.error?.issues[0].message).toMatch(/^value must be a non-negative amount/);
  });
});
