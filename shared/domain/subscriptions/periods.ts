import { addDays, addMonthsAnchored, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import type { BillingInterval } from './price';

const DAY_MS = 86_400_000;

/** The anchor's Sao Paulo calendar day and its time of day (milliseconds after that day's start). */
function splitInSaoPaulo(iso: string): { date: string; timeOfDayMs: number } {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) throw new Error(`not an instant: ${iso}`);
  const date = saoPauloDate(instant);
  return { date, timeOfDayMs: instant.getTime() - startOfSaoPauloDay(date).getTime() };
}

/**
 * The same Sao Paulo time of day on another calendar day. Time of day is measured from the day's
 * start, which is the wall-clock time as long as Brazil keeps no daylight saving (since 2019).
 */
const atTimeOfDay = (date: string, timeOfDayMs: number) =>
  new Date(startOfSaoPauloDay(date).getTime() + timeOfDayMs).toISOString();

/**
 * The n-th period boundary after `anchorIso`, always computed from the anchor (never from the
 * previous boundary, so a short month does not drag the day down for good): months and years add
 * calendar months on the Sao Paulo day and clamp to the month's last day (31 Jan -> 28/29 Feb ->
 * 31 Mar; 29 Feb -> 28 Feb -> 29 Feb four years on), weeks add 7 days; the Sao Paulo time of day is
 * the anchor's. n = 0 is the anchor itself.
 */
export function periodEnd(anchorIso: string, interval: BillingInterval, count: number, n: number): string {
  if (!Number.isInteger(count) || count < 1) throw new Error(`not an interval count: ${count}`);
  if (!Number.isInteger(n) || n < 0) throw new Error(`not a period number: ${n}`);
  const { date, timeOfDayMs } = splitInSaoPaulo(anchorIso);
  return atTimeOfDay(anchoredDate(date, interval, count, n), timeOfDayMs);
}

/**
 * The calendar day n intervals of `count` after the anchor day (YYYY-MM-DD), always from the
 * anchor: months and years clamp to the month's last day and come back (31 Jan -> 28/29 Feb ->
 * 31 Mar), weeks add 7 days. Subscription periods and scheduled-charge cycles share it.
 */
export function anchoredDate(
  anchorDate: string,
  interval: BillingInterval,
  count: number,
  n: number,
): string {
  if (!Number.isInteger(count) || count < 1) throw new Error(`not an interval count: ${count}`);
  if (!Number.isInteger(n) || n < 0) throw new Error(`not a period number: ${n}`);
  return interval === 'week'
    ? addDays(anchorDate, 7 * count * n)
    : addMonthsAnchored(anchorDate, (interval === 'year' ? 12 : 1) * count * n);
}

/** The longest a period of this interval can last, a bound for the search below. */
const longestPeriodMs = (interval: BillingInterval, count: number) =>
  count * DAY_MS * { week: 7, month: 31, year: 366 }[interval];

/**
 * The first boundary of the anchor's schedule strictly after `afterIso`, with its number: where a
 * period that ends at `afterIso` is followed (a renewal, or a paused period skipped). Starts from
 * an estimate that cannot overshoot and steps forward.
 */
export function nextBoundary(
  anchorIso: string,
  interval: BillingInterval,
  count: number,
  afterIso: string,
): { n: number; at: string } {
  const after = Date.parse(afterIso);
  const elapsed = after - Date.parse(anchorIso);
  let n = Math.max(1, Math.floor(elapsed / longestPeriodMs(interval, count)));
  let at = periodEnd(anchorIso, interval, count, n);
  while (Date.parse(at) <= after) {
    n += 1;
    at = periodEnd(anchorIso, interval, count, n);
  }
  return { n, at };
}

/** A trial of `trialDays` days ends that many Sao Paulo calendar days after its start, at the same time of day. */
export function trialEnd(startIso: string, trialDays: number): string {
  if (!Number.isInteger(trialDays) || trialDays < 0) throw new Error(`not a trial length: ${trialDays}`);
  const { date, timeOfDayMs } = splitInSaoPaulo(startIso);
  return atTimeOfDay(addDays(date, trialDays), timeOfDayMs);
}
