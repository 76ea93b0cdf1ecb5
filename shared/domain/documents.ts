/**
 * Brazilian taxpayer documents: CPF (people, 11 digits) and CNPJ (companies, 14 characters).
 * Since Receita Federal IN 2.229/2024 a CNPJ may carry letters in its first 12 characters; each
 * character is worth its char code − 48, so a numeric CNPJ keeps the values of its digits.
 */

export type DocumentKind = 'cpf' | 'cnpj';

const CPF_FORMAT = /^[0-9]{11}$/;
const CNPJ_FORMAT = /^[0-9A-Z]{12}[0-9]{2}$/;
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** Masks people type (`123.456.789-09`, `12.ABC.345/01DE-35`) are dropped; letters are uppercased. */
export function normalizeDocument(raw: string): string {
  return raw.replace(/[.\-/\s]/g, '').toUpperCase();
}

export const onlyDigits = (raw: string): string => raw.replace(/\D/g, '');

const charValue = (char: string) => char.charCodeAt(0) - 48;

function checkDigit(chars: string, weights: number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += charValue(chars[i]) * weights[i];
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** A sequence like 00000000000 passes the arithmetic but is not a real document. */
const allEqual = (value: string) => value.split('').every((c) => c === value[0]);

/** The two check digits of a CPF's first 9 digits. */
export function cpfCheckDigits(base: string): string {
  if (!/^[0-9]{9}$/.test(base)) throw new RangeError('a CPF base has 9 digits');
  const first = checkDigit(base, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(`${base}${first}`, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${first}${second}`;
}

/** The two check digits of a CNPJ's first 12 characters (digits or uppercase letters). */
export function cnpjCheckDigits(base: string): string {
  if (!/^[0-9A-Z]{12}$/.test(base)) throw new RangeError('a CNPJ base has 12 characters [0-9A-Z]');
  const first = checkDigit(base, CNPJ_WEIGHTS_1);
  const second = checkDigit(`${base}${first}`, CNPJ_WEIGHTS_2);
  return `${first}${second}`;
}

export function isValidCpf(value: string): boolean {
  return CPF_FORMAT.test(value) && !allEqual(value) && cpfCheckDigits(value.slice(0, 9)) === value.slice(9);
}

export function isValidCnpj(value: string): boolean {
  return (
    CNPJ_FORMAT.test(value) && !allEqual(value) && cnpjCheckDigits(value.slice(0, 12)) === value.slice(12)
  );
}

/** Which document a normalized value is, or null when it is neither a valid CPF nor a valid CNPJ. */
export function documentKind(value: string): DocumentKind | null {
  if (isValidCpf(value)) return 'cpf';
  if (isValidCnpj(value)) return 'cnpj';
  return null;
}
