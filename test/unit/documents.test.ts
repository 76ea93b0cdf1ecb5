import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cnpjCheckDigits,
  cpfCheckDigits,
  documentKind,
  isValidCnpj,
  isValidCpf,
  normalizeDocument,
  onlyDigits,
} from '#shared/domain/documents';

const DIGITS = '0123456789'.split('');
const CNPJ_CHARS = [...DIGITS, ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('')];
const digits = (n: number) =>
  fc.array(fc.constantFrom(...DIGITS), { minLength: n, maxLength: n }).map((a) => a.join(''));
const cnpjBase = fc
  .array(fc.constantFrom(...CNPJ_CHARS), { minLength: 12, maxLength: 12 })
  .map((a) => a.join(''));
const notAllEqual = (s: string) => new Set(s).size > 1;
const replaceAt = (s: string, i: number, c: string) => `${s.slice(0, i)}${c}${s.slice(i + 1)}`;

describe('CPF', () => {
  it('accepts the reference example and refuses near misses', () => {
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('52998224724')).toBe(false);
    expect(isValidCpf('5299822472')).toBe(false);
    expect(isValidCpf('529.982.247-25')).toBe(false);
  });

  it('refuses every all-equal sequence, although their check digits add up', () => {
    for (const d of DIGITS) expect(isValidCpf(d.repeat(11))).toBe(false);
  });

  it('validates any 9 digits followed by their computed check digits', () => {
    fc.assert(
      fc.property(digits(9).filter(notAllEqual), (base) => {
        expect(isValidCpf(`${base}${cpfCheckDigits(base)}`)).toBe(true);
      }),
    );
  });

  it('refuses a CPF with either check digit changed', () => {
    fc.assert(
      fc.property(
        digits(9).filter(notAllEqual),
        fc.integer({ min: 9, max: 10 }),
        fc.integer({ min: 1, max: 9 }),
        (base, at, by) => {
          const cpf = `${base}${cpfCheckDigits(base)}`;
          expect(isValidCpf(replaceAt(cpf, at, String((Number(cpf[at]) + by) % 10)))).toBe(false);
        },
      ),
    );
  });

  it('refuses a changed base digit unless the changed base happens to have the same check digits', () => {
    // mod 11 with the r < 2 rule lets a few single-digit changes through; the validator must agree
    // with the check-digit function on every one of them.
    fc.assert(
      fc.property(
        digits(9).filter(notAllEqual),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 1, max: 9 }),
        (base, at, by) => {
          const checks = cpfCheckDigits(base);
          const changed = replaceAt(base, at, String((Number(base[at]) + by) % 10));
          fc.pre(notAllEqual(changed));
          expect(isValidCpf(`${changed}${checks}`)).toBe(cpfCheckDigits(changed) === checks);
        },
      ),
    );
  });
});

describe('CNPJ', () => {
  it('accepts the numeric and the alphanumeric reference examples', () => {
    expect(isValidCnpj('11222333000181')).toBe(true);
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
    expect(isValidCnpj('11222333000182')).toBe(false);
  });

  it('values letters at char code − 48 (A = 17), not A = 10', () => {
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
  });

  it('refuses lowercase letters, letters in the check digits and all-equal sequences', () => {
    expect(isValidCnpj('12abc34501de35')).toBe(false);
    expect(isValidCnpj('12ABC34501DEA5')).toBe(false);
    for (const d of DIGITS) expect(isValidCnpj(d.repeat(14))).toBe(false);
  });

  it('validates any 12 characters followed by their computed check digits', () => {
    fc.assert(
      fc.property(cnpjBase.filter(notAllEqual), (base) => {
        const cnpj = `${base}${cnpjCheckDigits(base)}`;
        expect(isValidCnpj(cnpj)).toBe(true);
        expect(documentKind(cnpj)).toBe('cnpj');
      }),
    );
  });

  it('refuses a CNPJ with either check digit changed', () => {
    fc.assert(
      fc.property(
        cnpjBase.filter(notAllEqual),
        fc.integer({ min: 12, max: 13 }),
        fc.integer({ min: 1, max: 9 }),
        (base, at, by) => {
          const cnpj = `${base}${cnpjCheckDigits(base)}`;
          expect(isValidCnpj(replaceAt(cnpj, at, String((Number(cnpj[at]) + by) % 10)))).toBe(false);
        },
      ),
    );
  });

  it('refuses a changed numeric base digit unless the changed base has the same check digits', () => {
    fc.assert(
      fc.property(
        digits(12).filter(notAllEqual),
        fc.integer({ min: 0, max: 11 }),
        fc.integer({ min: 1, max: 9 }),
        (base, at, by) => {
          const checks = cnpjCheckDigits(base);
          const changed = replaceAt(base, at, String((Number(base[at]) + by) % 10));
          fc.pre(notAllEqual(changed));
          expect(isValidCnpj(`${changed}${checks}`)).toBe(cnpjCheckDigits(changed) === checks);
        },
      ),
    );
  });
});

describe('normalization', () => {
  it('drops dots, dashes, slashes and spaces and uppercases', () => {
    expect(normalizeDocument('529.982.247-25')).toBe('52998224725');
    expect(normalizeDocument(' 12.abc.345/01de-35 ')).toBe('12ABC34501DE35');
    expect(onlyDigits('(11) 98765-4321')).toBe('11987654321');
  });

  it('tells which document a value is', () => {
    expect(documentKind('52998224725')).toBe('cpf');
    expect(documentKind('11222333000181')).toBe('cnpj');
    expect(documentKind('12345678900')).toBeNull();
    expect(documentKind('')).toBeNull();
  });
});
