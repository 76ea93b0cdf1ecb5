import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CardAttempt,
  cardBrand,
  last4,
  luhnValid,
  SANDBOX_CARDS,
  sandboxCardOutcome,
} from '#shared/domain/payments/cards';

const TODAY = '2026-05-15';
const attempt = (number: string, overrides: Partial<CardAttempt> = {}): CardAttempt => ({
  number,
  expiryMonth: 12,
  expiryYear: 2030,
  cvv: cardBrand(number) === 'amex' ? '1234' : '123',
  today: TODAY,
  ...overrides,
});

describe('luhnValid', () => {
  it('accepts every sandbox card', () => {
    for (const number of Object.keys(SANDBOX_CARDS)) expect(luhnValid(number), number).toBe(true);
  });

  it.each(['4111111111111112', '4242424242424241', '0000000000000001'])('rejects %s', (number) => {
    expect(luhnValid(number)).toBe(false);
  });

  it.each(['4111 1111 1111 1111', '41111111111', '41111111111111111111', '', 'abcdabcdabcdabcd'])(
    'rejects the malformed input "%s"',
    (number) => {
      expect(luhnValid(number)).toBe(false);
    },
  );

  it('accepts exactly one check digit for any 15-digit body', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{15}$/), (body) => {
        const valid = [...'0123456789'].filter((d) => luhnValid(body + d));
        expect(valid).toHaveLength(1);
      }),
    );
  });
});

describe('cardBrand', () => {
  it.each([
    ['4111111111111111', 'visa'],
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['5105105105105100', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2720990000000007', 'mastercard'],
    ['2220990000000000', 'unknown'],
    ['2721000000000000', 'unknown'],
    ['378282246310005', 'amex'],
    ['341111111111111', 'amex'],
    ['4011780000000000', 'elo'],
    ['4389350000000000', 'elo'],
    ['5067000000000000', 'elo'],
    ['6363680000000000', 'elo'],
    ['5090000000000000', 'elo'],
    ['6011111111111117', 'unknown'],
    ['', 'unknown'],
    ['4abc', 'unknown'],
  ])('identifies %s as %s', (number, brand) => {
    expect(cardBrand(number)).toBe(brand);
  });
});

describe('last4', () => {
  it('keeps only the last four digits', () => {
    expect(last4('4111111111111111')).toBe('1111');
    expect(last4('5555 5555 5555 4444')).toBe('4444');
    expect(() => last4('123')).toThrow();
  });
});

describe('sandboxCardOutcome', () => {
  it.each(['4111111111111111', '4242424242424242', '5555555555554444', '378282246310005'])(
    'approves %s',
    (number) => {
      expect(sandboxCardOutcome(attempt(number))).toEqual({ outcome: 'approved' });
    },
  );

  it.each([
    ['4000000000000002', 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
    ['4000000000000069', 'expired_card'],
    ['4000000000000127', 'incorrect_cvc'],
    ['4000000000000119', 'issuer_unavailable'],
  ])('declines %s with %s', (number, failureCode) => {
    const result = sandboxCardOutcome(attempt(number));
    expect(result).toMatchObject({ outcome: 'declined', failureCode });
    expect(result.outcome !== 'approved' && result.failureReason).toMatch(/^[A-Z][ -~]+\.$/);
  });

  it('fails 4000000000000259 as a processing error, not a decline', () => {
    expect(sandboxCardOutcome(attempt('4000000000000259'))).toEqual({
      outcome: 'error',
      failureCode: 'processing_error',
      failureReason: expect.stringMatching(/^[A-Z][ -~]+\.$/),
    });
  });

  it('declines a Luhn-valid card that is not a sandbox card', () => {
    expect(luhnValid('4012888888881881')).toBe(true);
    expect(sandboxCardOutcome(attempt('4012888888881881'))).toMatchObject({
      outcome: 'declined',
      failureCode: 'card_declined',
    });
  });

  it('keeps a card valid through its expiry month and declines it the month after', () => {
    const card = '4111111111111111';
    expect(sandboxCardOutcome(attempt(card, { expiryMonth: 5, expiryYear: 2026 })).outcome).toBe('approved');
    expect(sandboxCardOutcome(attempt(card, { expiryMonth: 4, expiryYear: 2026 }))).toMatchObject({
      outcome: 'declined',
      failureCode: 'expired_card',
    });
    expect(sandboxCardOutcome(attempt(card, { expiryMonth: 12, expiryYear: 2025 }))).toMatchObject({
      failureCode: 'expired_card',
    });
    expect(
      sandboxCardOutcome(attempt(card, { expiryMonth: 1, expiryYear: 2026, today: '2026-01-31' })).outcome,
    ).toBe('approved');
  });

  it('reads a two-digit expiry year as 20YY', () => {
    const card = '4111111111111111';
    expect(sandboxCardOutcome(attempt(card, { expiryMonth: 6, expiryYear: 26 })).outcome).toBe('approved');
    expect(sandboxCardOutcome(attempt(card, { expiryMonth: 4, expiryYear: 26 }))).toMatchObject({
      failureCode: 'expired_card',
    });
  });

  it('checks expiry before the scripted outcome', () => {
    expect(sandboxCardOutcome(attempt('4000000000009995', { expiryYear: 2020 }))).toMatchObject({
      failureCode: 'expired_card',
    });
  });

  it.each([
    ['4111111111111111', '12'],
    ['4111111111111111', '1234'],
    ['4111111111111111', '12a'],
    ['4111111111111111', ''],
    ['378282246310005', '123'],
    ['378282246310005', '12345'],
  ])('declines %s with CVV "%s" as incorrect_cvc', (number, cvv) => {
    expect(sandboxCardOutcome(attempt(number, { cvv }))).toMatchObject({
      outcome: 'declined',
      failureCode: 'incorrect_cvc',
    });
  });

  it('checks the CVV before the scripted outcome but after the expiry', () => {
    expect(sandboxCardOutcome(attempt('4000000000000259', { cvv: '1' }))).toMatchObject({
      failureCode: 'incorrect_cvc',
    });
    expect(sandboxCardOutcome(attempt('4000000000000259', { cvv: '1', expiryYear: 2020 }))).toMatchObject({
      failureCode: 'expired_card',
    });
  });

  it.each([
    ['month 0', { expiryMonth: 0 }],
    ['month 13', { expiryMonth: 13 }],
    ['a fractional year', { expiryYear: 2030.5 }],
    ['a malformed today', { today: '15/05/2026' }],
  ])('throws on %s, which the caller must have validated', (_, overrides) => {
    expect(() => sandboxCardOutcome(attempt('4111111111111111', overrides))).toThrow();
  });
});
