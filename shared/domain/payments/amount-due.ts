import { z } from 'zod';
import { addDays, daysBetween, isCalendarDate } from '#shared/dates';
import { centavosToReais, percentOf, reaisToCentavos } from '#shared/money';

/**
 * What a boleto or a pix with a due date (BCB `cobv`) costs on the day it is paid: a fine (multa)
 * once after the due date, interest (juros de mora) pro rata per calendar day after it, and an
 * early-payment discount in tiers up to a date before it. The one place this is computed: the API's
 * `amountDue`, the pages, the PDFs, the reminders and the sandbox all call `amountDueOn`.
 * docs/decisions.md, "Fine, interest and discount".
 */

/** CDC art. 52 §1: a consumer contract's late fine is at most 2% of the installment. */
export const MAX_FINE_BASIS_POINTS = 200;
/** Interest of mora at most 1% a month (the service's cap; CC art. 406 with CTN art. 161 §1). */
export const MAX_INTEREST_BASIS_POINTS_PER_MONTH = 100;
/** Interest is spread over a 30-day month, as the banks' juros de mora "ao dia" (1% a month = 0.0333% a day). */
const DAYS_PER_MONTH = 30;
export const MAX_DISCOUNT_TIERS = 3;

/** A rate in hundredths of a percent (2% = 200), or an amount in centavos. */
export type Rate = { type: 'percentage'; basisPoints: number } | { type: 'fixed'; centavos: number };

export interface LateChargeTerms {
  fine: Rate | null;
  interest: { basisPointsPerMonth: number } | null;
  /** Ordered by `until`, each until a Sao Paulo day no later than the due date. */
  discounts: { until: string; rate: Rate }[];
}

export const NO_LATE_CHARGES: LateChargeTerms = { fine: null, interest: null, discounts: [] };

export interface AmountDue {
  /** What the customer pays on that day, in centavos: face value + fine + interest - discount. */
  amountDue: number;
  fine: number;
  interest: number;
  discount: number;
}

const rateOf = (rate: Rate, amount: number) =>
  rate.type === 'percentage' ? percentOf(amount, rate.basisPoints) : rate.centavos;

/**
 * The amount due for a charge of `amount` centavos due on `dueDate`, paid on `payDate` (Sao Paulo
 * days). A due date on a weekend or a national holiday is payable on the next business day without
 * charges; paid later, the fine applies once and interest counts every calendar day from the due date.
 * On or before the due date, the first discount tier whose `until` has not passed applies.
 */
export function amountDueOn(
  amount: number,
  dueDate: string,
  terms: LateChargeTerms,
  payDate: string,
): AmountDue {
  if (payDate <= dueDate) {
    const tier = terms.discounts.find((d) => payDate <= d.until);
    const discount = tier ? Math.min(rateOf(tier.rate, amount), amount) : 0;
    return { amountDue: amount - discount, fine: 0, interest: 0, discount };
  }
  if (payDate <= nextBusinessDay(dueDate)) return { amountDue: amount, fine: 0, interest: 0, discount: 0 };
  const fine = terms.fine ? rateOf(terms.fine, amount) : 0;
  const days = daysBetween(dueDate, payDate);
  const interest = terms.interest
    ? Math.floor(
        (amount * terms.interest.basisPointsPerMonth * days + (10_000 * DAYS_PER_MONTH) / 2) /
          (10_000 * DAYS_PER_MONTH),
      )
    : 0;
  return { amountDue: amount + fine + interest, fine, interest, discount: 0 };
}

/** `date` itself when it is a business day, else the next one (weekends and national holidays). */
export function nextBusinessDay(date: string): string {
  let day = date;
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

export function isBusinessDay(date: string): boolean {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !nationalHolidays(Number(date.slice(0, 4))).has(date);
}

/** Fixed national holidays (Lei 662/49, 6.802/80, 14.759/23) and the bank holidays tied to Easter. */
const FIXED_HOLIDAYS = ['01-01', '04-21', '05-01', '09-07', '10-12', '11-02', '11-15', '11-20', '12-25'];

const holidaysByYear = new Map<number, Set<string>>();
function nationalHolidays(year: number): Set<string> {
  let days = holidaysByYear.get(year);
  if (!days) {
    const easter = easterSunday(year);
    days = new Set([
      ...FIXED_HOLIDAYS.map((md) => `${year}-${md}`),
      addDays(easter, -48), // Carnival Monday
      addDays(easter, -47), // Carnival Tuesday
      addDays(easter, -2), // Good Friday
      addDays(easter, 60), // Corpus Christi
    ]);
    holidaysByYear.set(year, days);
  }
  return days;
}

/** Easter Sunday of the Gregorian calendar (the anonymous Meeus/Jones/Butcher algorithm). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

// ---- The API's fields: `fine`, `interest`, `discounts`, in Reais and percent ----

const rateInput = z.object({
  type: z.enum(['percentage', 'fixed']),
  value: z.number().positive(),
});
type RateInput = z.infer<typeof rateInput>;

export const lateChargeTermsInput = z.object({
  fine: rateInput.nullish(),
  interest: z.object({ percentPerMonth: z.number().positive() }).nullish(),
  discounts: z
    .array(rateInput.extend({ until: z.string().refine(isCalendarDate, 'must be a date YYYY-MM-DD') }))
    .max(MAX_DISCOUNT_TIERS)
    .nullish(),
});
export type LateChargeTermsInput = z.infer<typeof lateChargeTermsInput>;

/** Percent or Reais with at most two decimals, as hundredths (basis points or centavos). */
const hundredths = (value: number) => reaisToCentavos(value);

function toRate(input: RateInput, field: string, errors: string[]): Rate | null {
  const value = hundredths(input.value);
  if (value === null) {
    errors.push(`${field}.value must have at most 2 decimal places`);
    return null;
  }
  return input.type === 'percentage'
    ? { type: 'percentage', basisPoints: value }
    : { type: 'fixed', centavos: value };
}

/**
 * The terms a charge of `amount` centavos due on `dueDate` was created with, checked against the
 * legal caps and the charge: a fine of at most 2% (a fixed fine too), interest of at most 1% a month,
 * discount tiers on distinct dates up to the due date, each below the amount. Messages name the field.
 */
export function parseLateChargeTerms(
  input: LateChargeTermsInput,
  charge: { amount: number; dueDate: string },
): { terms: LateChargeTerms; errors: string[] } {
  const errors: string[] = [];
  const fine = input.fine ? toRate(input.fine, 'fine', errors) : null;
  if (fine && rateOf(fine, charge.amount) > percentOf(charge.amount, MAX_FINE_BASIS_POINTS))
    errors.push('fine must be at most 2% of the amount (CDC art. 52)');
  let interest: LateChargeTerms['interest'] = null;
  if (input.interest) {
    const basisPoints = hundredths(input.interest.percentPerMonth);
    if (basisPoints === null) errors.push('interest.percentPerMonth must have at most 2 decimal places');
    else if (basisPoints > MAX_INTEREST_BASIS_POINTS_PER_MONTH)
      errors.push('interest.percentPerMonth must be at most 1 (1% a month)');
    else interest = { basisPointsPerMonth: basisPoints };
  }
  const discounts: LateChargeTerms['discounts'] = [];
  for (const [i, tier] of (input.discounts ?? []).entries()) {
    const field = `discounts[${i}]`;
    const rate = toRate(tier, field, errors);
    if (tier.until > charge.dueDate) errors.push(`${field}.until must be on or before the due date`);
    if (discounts.some((d) => d.until === tier.until))
      errors.push(`${field}.until repeats another tier's date`);
    if (rate && rateOf(rate, charge.amount) >= charge.amount)
      errors.push(`${field}.value must leave something to pay`);
    if (rate) discounts.push({ until: tier.until, rate });
  }
  discounts.sort((a, b) => (a.until < b.until ? -1 : 1));
  return { terms: { fine, interest, discounts }, errors };
}

const rateView = (rate: Rate) =>
  rate.type === 'percentage'
    ? { type: 'percentage' as const, value: rate.basisPoints / 100 }
    : { type: 'fixed' as const, value: centavosToReais(rate.centavos) };

/** The terms as the API shows them (the same fields it takes). */
export function lateChargeTermsView(terms: LateChargeTerms) {
  return {
    fine: terms.fine ? rateView(terms.fine) : null,
    interest: terms.interest ? { percentPerMonth: terms.interest.basisPointsPerMonth / 100 } : null,
    discounts: terms.discounts.map((d) => ({ until: d.until, ...rateView(d.rate) })),
  };
}
