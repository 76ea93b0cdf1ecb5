/**
 * Boleto bancário (FEBRABAN): the 44-digit barcode, the 47-digit linha digitável and their checks.
 * Barcode: bank(3) · currency 9 · general digit · due-date factor(4) · centavos(10) · free field(25).
 */
import { addDays, daysBetween, isCalendarDate } from '#shared/dates';

export interface BoletoInput {
  /** 3-digit bank code (COMPE), e.g. `001`. */
  bankCode: string;
  /** 0 leaves the amount to be filled in at payment, as FEBRABAN allows. */
  amountCentavos: number;
  /** `YYYY-MM-DD`, or null for a boleto without a due date (factor 0000). */
  dueDate: string | null;
  /** 25 digits whose layout belongs to the issuing bank. */
  freeField: string;
}

export interface Boleto {
  barcode: string;
  digitableLine: string;
  formattedLine: string;
}

export interface ParsedBoleto {
  bankCode: string;
  currencyCode: string;
  generalDigit: number;
  factor: string;
  dueDate: string | null;
  amountCentavos: number;
  freeField: string;
  barcode: string;
}

export const MAX_BOLETO_CENTAVOS = 9_999_999_999;

const FACTOR_BASE = '1997-10-07';
// Factor 9999 fell on 2025-02-21; from then on the factor cycles through 1000..9999 (9,000 days).
const FACTOR_CYCLE = 9_000;
const WINDOW_BACK = 3_000;
const WINDOW_AHEAD = 5_500;

export function dueDateFactor(dueDate: string | null): string {
  if (dueDate === null) return '0000';
  const days = daysBetween(FACTOR_BASE, dueDate);
  if (days < 1) throw new Error(`Boleto due date ${dueDate} precedes the factor base date`);
  // Below 1000 only dates of 1997–2000 exist; every later date lives in the 1000..9999 cycle.
  const factor = days < 1_000 ? days : ((days - 1_000) % FACTOR_CYCLE) + 1_000;
  return String(factor).padStart(4, '0');
}

/**
 * The factor repeats every 9,000 days, so the date is the one falling within 3,000 days before to
 * 5,500 days after `today`, the window FEBRABAN set for the 2025 restart; that window is narrower
 * than a cycle, so at most one date fits.
 */
export function decodeDueDateFactor(factor: string, today: string): string | null {
  if (!/^\d{4}$/.test(factor)) throw new Error(`Boleto factor "${factor}" is not 4 digits`);
  if (!isCalendarDate(today)) throw new Error(`Not a calendar date: ${today}`);
  const value = Number(factor);
  if (value === 0) return null;
  const fromBase = daysBetween(FACTOR_BASE, today);
  let days = value;
  if (value >= 1_000) {
    // The first cycle at or after the start of the window.
    const cycles = Math.max(0, Math.ceil((fromBase - WINDOW_BACK - value) / FACTOR_CYCLE));
    days = value + cycles * FACTOR_CYCLE;
  }
  const offset = days - fromBase;
  if (offset < -WINDOW_BACK || offset > WINDOW_AHEAD) {
    throw new Error(`Boleto factor ${factor} names no date within the window around ${today}`);
  }
  return addDays(FACTOR_BASE, days);
}

/** Weights 2,1,2,1… from the right; two-digit products count as the sum of their digits. */
export function mod10(digits: string): number {
  if (!/^\d+$/.test(digits)) throw new Error('mod10 takes digits only');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const product = Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 2 : 1);
    sum += product > 9 ? product - 9 : product;
  }
  return (10 - (sum % 10)) % 10;
}

/** The barcode's general digit over its other 43 digits: weights 2..9 from the right; 0, 10, 11 → 1. */
export function mod11General(digits43: string): number {
  if (!/^\d{43}$/.test(digits43)) throw new Error('mod11General takes the 43 digits without the check digit');
  let sum = 0;
  for (let i = 0; i < 43; i++) sum += Number(digits43[42 - i]) * ((i % 8) + 2);
  const digit = 11 - (sum % 11);
  return digit === 0 || digit === 10 || digit === 11 ? 1 : digit;
}

export function formatDigitableLine(line: string): string {
  if (!/^\d{47}$/.test(line)) throw new Error('A linha digitável has 47 digits');
  const s = (from: number, to: number) => line.slice(from, to);
  return `${s(0, 5)}.${s(5, 10)} ${s(10, 15)}.${s(15, 21)} ${s(21, 26)}.${s(26, 32)} ${s(32, 33)} ${s(33, 47)}`;
}

function withMod10(digits: string): string {
  return digits + mod10(digits);
}

export function buildBoleto(input: BoletoInput): Boleto {
  const { bankCode, amountCentavos, dueDate, freeField } = input;
  if (!/^\d{3}$/.test(bankCode)) throw new Error('Boleto bank code must be 3 digits');
  if (!/^\d{25}$/.test(freeField)) throw new Error('Boleto free field must be 25 digits');
  if (!Number.isSafeInteger(amountCentavos) || amountCentavos < 0 || amountCentavos > MAX_BOLETO_CENTAVOS) {
    throw new Error(`Boleto amount must be an integer of centavos from 0 to ${MAX_BOLETO_CENTAVOS}`);
  }
  if (dueDate !== null && !isCalendarDate(dueDate)) throw new Error(`Not a calendar date: ${dueDate}`);
  const factorAndAmount = dueDateFactor(dueDate) + String(amountCentavos).padStart(10, '0');
  const head = `${bankCode}9`;
  const general = mod11General(head + factorAndAmount + freeField);
  const barcode = head + general + factorAndAmount + freeField;
  const digitableLine =
    withMod10(head + freeField.slice(0, 5)) +
    withMod10(freeField.slice(5, 15)) +
    withMod10(freeField.slice(15, 25)) +
    general +
    factorAndAmount;
  return { barcode, digitableLine, formattedLine: formatDigitableLine(digitableLine) };
}

/**
 * Reads a typed or printed linha digitável (dots and spaces allowed) back into the barcode,
 * checking the three field digits and the general digit; decoded apart from the builder.
 */
export function barcodeFromDigitableLine(line: string): string {
  const digits = line.replace(/[.\s]/g, '');
  if (!/^\d{47}$/.test(digits)) throw new Error('A linha digitável has 47 digits');
  const fields = [digits.slice(0, 10), digits.slice(10, 21), digits.slice(21, 32)];
  fields.forEach((field, i) => {
    if (mod10(field.slice(0, -1)) !== Number(field.at(-1))) {
      throw new Error(`Linha digitável field ${i + 1} fails its check digit`);
    }
  });
  const barcode =
    digits.slice(0, 4) +
    digits[32] +
    digits.slice(33, 47) +
    digits.slice(4, 9) +
    digits.slice(10, 20) +
    digits.slice(21, 31);
  checkBarcode(barcode);
  return barcode;
}

function checkBarcode(barcode: string): void {
  if (!/^\d{44}$/.test(barcode)) throw new Error('A boleto barcode has 44 digits');
  if (mod11General(barcode.slice(0, 4) + barcode.slice(5)) !== Number(barcode[4])) {
    throw new Error('Boleto barcode fails its general check digit');
  }
}

export function parseBarcode(barcode: string, today: string): ParsedBoleto {
  checkBarcode(barcode);
  if (barcode[3] !== '9') throw new Error(`Boleto currency ${barcode[3]} is not the Real (9)`);
  const factor = barcode.slice(5, 9);
  return {
    bankCode: barcode.slice(0, 3),
    currencyCode: barcode[3],
    generalDigit: Number(barcode[4]),
    factor,
    dueDate: decodeDueDateFactor(factor, today),
    amountCentavos: Number(barcode.slice(9, 19)),
    freeField: barcode.slice(19, 44),
    barcode,
  };
}

export function parseDigitableLine(line: string, today: string): ParsedBoleto {
  return parseBarcode(barcodeFromDigitableLine(line), today);
}
