import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '#shared/dates';
import {
  barcodeFromDigitableLine,
  buildBoleto,
  decodeDueDateFactor,
  dueDateFactor,
  formatDigitableLine,
  mod10,
  mod11General,
  parseBarcode,
  parseDigitableLine,
} from '#shared/domain/payments/boleto';

// FEBRABAN example (facts file): Banco do Brasil, R$ 135,00, factor 3769.
const BARCODE = '00192376900000135000000001238798777770016818';
const LINE = '00190.00009 01238.798779 77700.168188 2 37690000013500';
const FREE = '0000001238798777770016818';

describe('check digits', () => {
  it.each([
    ['001900000', 9],
    ['0123879877', 9],
    ['7770016818', 8],
    ['0', 0],
    ['5', 9],
  ])('mod10(%s) is %i', (digits, digit) => {
    expect(mod10(digits)).toBe(digit);
  });

  it('computes the general digit of the facts-file barcode', () => {
    expect(mod11General(BARCODE.slice(0, 4) + BARCODE.slice(5))).toBe(2);
  });

  it('turns the remainders that would give 0, 10 or 11 into 1', () => {
    // All zeros: sum 0, 11 − 0 = 11 → 1.
    expect(mod11General('0'.repeat(43))).toBe(1);
    // 6 × 2 = 12, 12 mod 11 = 1, 11 − 1 = 10 → 1.
    expect(mod11General(`${'0'.repeat(42)}6`)).toBe(1);
  });

  it('rejects inputs that are not digits or not 43 long', () => {
    expect(() => mod10('12a')).toThrow();
    expect(() => mod11General('1'.repeat(44))).toThrow();
  });
});

describe('dueDateFactor', () => {
  it.each([
    ['2000-07-03', '1000'],
    ['2000-07-05', '1002'],
    ['2010-11-17', '4789'],
    ['2025-02-20', '9998'],
    ['2025-02-21', '9999'],
    ['2025-02-22', '1000'],
    ['2025-02-23', '1001'],
    ['2026-11-21', '1637'],
    ['2049-10-13', '9999'],
    ['2049-10-14', '1000'],
  ])('gives %s the factor %s', (date, factor) => {
    expect(dueDateFactor(date)).toBe(factor);
  });

  it('is 0000 for a boleto without a due date', () => {
    expect(dueDateFactor(null)).toBe('0000');
  });

  it('rejects dates on or before the base date', () => {
    expect(() => dueDateFactor('1997-10-07')).toThrow();
  });
});

describe('decodeDueDateFactor', () => {
  it('reads factors after the 2025 restart as dates of the new cycle', () => {
    expect(decodeDueDateFactor('1000', '2025-02-22')).toBe('2025-02-22');
    expect(decodeDueDateFactor('1637', '2026-06-01')).toBe('2026-11-21');
    expect(decodeDueDateFactor('9999', '2025-02-22')).toBe('2025-02-21');
  });

  it('reads the facts-file factor in its own era and in the next cycle', () => {
    expect(decodeDueDateFactor('3769', '2008-01-01')).toBe('2008-02-01');
    expect(decodeDueDateFactor('3769', '2026-01-01')).toBe(addDays('2008-02-01', 9_000));
  });

  it('accepts exactly 3,000 days back and 5,500 days ahead, and nothing beyond', () => {
    const today = '2030-06-15';
    const back = addDays(today, -3_000);
    const ahead = addDays(today, 5_500);
    expect(decodeDueDateFactor(dueDateFactor(back), today)).toBe(back);
    expect(decodeDueDateFactor(dueDateFactor(ahead), today)).toBe(ahead);
    expect(() => decodeDueDateFactor(dueDateFactor(addDays(back, -1)), today)).toThrow(/window/);
    expect(() => decodeDueDateFactor(dueDateFactor(addDays(ahead, 1)), today)).toThrow(/window/);
  });

  it('returns null for 0000 and rejects malformed factors', () => {
    expect(decodeDueDateFactor('0000', '2026-01-01')).toBeNull();
    expect(() => decodeDueDateFactor('123', '2026-01-01')).toThrow();
  });

  it('decodes every date of the window back to itself', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: -3_000, max: 5_500 }),
        (todayOffset, dueOffset) => {
          const today = addDays('2025-01-01', todayOffset);
          const due = addDays(today, dueOffset);
          expect(decodeDueDateFactor(dueDateFactor(due), today)).toBe(due);
        },
      ),
    );
  });
});

describe('buildBoleto', () => {
  it('reproduces the FEBRABAN example barcode and linha digitável', () => {
    const boleto = buildBoleto({
      bankCode: '001',
      amountCentavos: 13_500,
      dueDate: decodeDueDateFactor('3769', '2008-01-01'),
      freeField: FREE,
    });
    expect(boleto).toEqual({
      barcode: BARCODE,
      digitableLine: LINE.replace(/[.\s]/g, ''),
      formattedLine: LINE,
    });
  });

  it('places the factor and the amount where the layout says', () => {
    const { barcode, formattedLine } = buildBoleto({
      bankCode: '341',
      amountCentavos: 9_999_999_999,
      dueDate: '2026-11-21',
      freeField: '1'.repeat(25),
    });
    expect(barcode.slice(0, 4)).toBe('3419');
    expect(barcode.slice(5, 19)).toBe('16379999999999');
    expect(formattedLine).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
    expect(formattedLine.endsWith(' 16379999999999')).toBe(true);
  });

  it('writes factor 0000 and a zero amount when both are left open', () => {
    const { barcode } = buildBoleto({ bankCode: '237', amountCentavos: 0, dueDate: null, freeField: FREE });
    expect(barcode.slice(5, 19)).toBe('0'.repeat(14));
    expect(parseBarcode(barcode, '2026-01-01').dueDate).toBeNull();
  });

  it.each([
    ['a 2-digit bank', { bankCode: '01' }],
    ['a 24-digit free field', { freeField: '1'.repeat(24) }],
    ['a negative amount', { amountCentavos: -1 }],
    ['a fractional amount', { amountCentavos: 10.5 }],
    ['an amount over 10 digits', { amountCentavos: 10_000_000_000 }],
    ['an impossible date', { dueDate: '2026-02-30' }],
  ])('rejects %s', (_, override) => {
    const input = {
      bankCode: '001',
      amountCentavos: 100,
      dueDate: '2026-11-21',
      freeField: FREE,
      ...override,
    };
    expect(() => buildBoleto(input)).toThrow();
  });
});

describe('parseDigitableLine', () => {
  it('decodes the facts-file linha digitável into its barcode and fields', () => {
    expect(barcodeFromDigitableLine(LINE)).toBe(BARCODE);
    expect(parseDigitableLine(LINE, '2008-01-15')).toEqual({
      bankCode: '001',
      currencyCode: '9',
      generalDigit: 2,
      factor: '3769',
      dueDate: '2008-02-01',
      amountCentavos: 13_500,
      freeField: FREE,
      barcode: BARCODE,
    });
  });

  it('accepts the line typed without dots and spaces', () => {
    expect(barcodeFromDigitableLine(LINE.replace(/[.\s]/g, ''))).toBe(BARCODE);
  });

  it('detects any single changed digit', () => {
    const digits = LINE.replace(/[.\s]/g, '');
    for (let i = 0; i < digits.length; i++) {
      const changed = String((Number(digits[i]) + 1) % 10);
      const tampered = digits.slice(0, i) + changed + digits.slice(i + 1);
      expect(() => barcodeFromDigitableLine(tampered), `digit ${i + 1}`).toThrow(/check digit/);
    }
  });

  it('detects a changed barcode digit through the general digit', () => {
    const tampered = `${BARCODE.slice(0, 10)}${(Number(BARCODE[10]) + 1) % 10}${BARCODE.slice(11)}`;
    expect(() => parseBarcode(tampered, '2008-01-15')).toThrow(/general check digit/);
  });

  it('rejects lines of the wrong length and barcodes in another currency', () => {
    expect(() => barcodeFromDigitableLine(LINE.slice(0, -1))).toThrow(/47 digits/);
    const head = '0010';
    const rest = BARCODE.slice(5);
    const otherCurrency = head + mod11General(head + rest) + rest;
    expect(() => parseBarcode(otherCurrency, '2008-01-15')).toThrow(/currency/);
  });

  it('round-trips random boletos through the independent decoder', () => {
    const today = '2026-03-10';
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{3}$/),
        fc.integer({ min: 0, max: 9_999_999_999 }),
        fc.option(fc.integer({ min: -3_000, max: 5_500 }), { nil: null }),
        fc.stringMatching(/^\d{25}$/),
        (bankCode, amountCentavos, dueOffset, freeField) => {
          const dueDate = dueOffset === null ? null : addDays(today, dueOffset);
          const boleto = buildBoleto({ bankCode, amountCentavos, dueDate, freeField });
          expect(formatDigitableLine(boleto.digitableLine)).toBe(boleto.formattedLine);
          expect(barcodeFromDigitableLine(boleto.formattedLine)).toBe(boleto.barcode);
          const parsed = parseDigitableLine(boleto.formattedLine, today);
          expect(parsed).toMatchObject({ bankCode, amountCentavos, dueDate, freeField });
        },
      ),
      { numRuns: 500 },
    );
  });
});
