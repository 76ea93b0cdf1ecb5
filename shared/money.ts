/** Largest amount a boleto can carry (10 digits of centavos); no amount here goes above it. */
export const MAX_CENTAVOS = 9_999_999_999;

/**
 * Reais (as received in JSON) to integer centavos, without float arithmetic: the decimal text
 * of the number is split, so 49.9 is 4990 and never 4989.
 * Returns null when the value has more than 2 decimal places, is negative, or is not finite.
 */
export function reaisToCentavos(reais: number): number | null {
  if (!Number.isFinite(reais) || reais < 0) return null;
  const text = String(reais);
  if (/e/i.test(text)) return Number.isInteger(reais) && reais * 100 <= MAX_CENTAVOS ? reais * 100 : null;
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > 2) return null;
  const centavos = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return centavos <= MAX_CENTAVOS ? centavos : null;
}

/** Integer centavos to the decimal Reais the API shows (4990 -> 49.9). */
export function centavosToReais(centavos: number): number {
  if (!Number.isSafeInteger(centavos)) throw new Error(`centavos must be an integer, got ${centavos}`);
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  return Number(`${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`);
}

/** Splits `total` centavos into `parts` integers that add up exactly, the first ones taking the remainder. */
export function splitCentavos(total: number, parts: number): number[] {
  const base = Math.floor(total / parts);
  const remainder = total - base * parts;
  return Array.from({ length: parts }, (_, i) => base + (i < remainder ? 1 : 0));
}

/** `basisPoints` of `centavos`, rounded half up, in integer arithmetic. */
export function percentOf(centavos: number, basisPoints: number): number {
  return Math.floor((centavos * basisPoints + 5_000) / 10_000);
}

/**
 * Centavos as a Brazilian reads them, `R$ 1.234,56`, grouped from the digits of the integer (never a
 * float, and the same on every ICU version). `space` goes between `R$` and the number: HTML pages
 * pass a no-break space so the two never wrap apart.
 */
export function formatBrl(centavos: number, space = ' '): string {
  if (!Number.isSafeInteger(centavos)) throw new Error(`centavos must be an integer, got ${centavos}`);
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  const reais = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}R$${space}${reais},${String(abs % 100).padStart(2, '0')}`;
}
