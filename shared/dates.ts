import { once } from '#shared/once';

/** Calendar days in America/Sao_Paulo; timestamps are ISO 8601 UTC. Time always comes from a Clock. */
export const TIME_ZONE = 'America/Sao_Paulo';

// Formatters with a time zone load ICU's zone data: built on first use, not at every cold start.
const formatter = once(
  () =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }),
);

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The Sao Paulo calendar day of an instant, as YYYY-MM-DD. */
export function saoPauloDate(instant: Date): string {
  return formatter().format(instant);
}

export function isCalendarDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}

function parts(date: string): [number, number, number] {
  if (!isCalendarDate(date)) throw new Error(`not a calendar date: ${date}`);
  const [y, m, d] = date.split('-').map(Number);
  return [y, m, d];
}

function format(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = parts(date);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return format(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const [y1, m1, d1] = parts(from);
  const [y2, m2, d2] = parts(to);
  return Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / 86_400_000);
}

/**
 * The same day `months` later, computed from the anchor each time: an anchor on the 31st gives
 * Feb 28/29 and then Mar 31 again, never drifting to the 28th.
 */
export function addMonthsAnchored(anchor: string, months: number): string {
  const [y, m, d] = parts(anchor);
  const index = y * 12 + (m - 1) + months;
  const ty = Math.floor(index / 12);
  const tm = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(ty, tm, 0)).getUTCDate();
  return format(ty, tm, Math.min(d, lastDay));
}

const wallClock = once(
  () =>
    new Intl.DateTimeFormat('en-US', {
      timeZone: TIME_ZONE,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }),
);

/** Offset of Sao Paulo wall time from UTC at an instant, in milliseconds (-3 h today). */
function saoPauloOffsetMs(instant: Date): number {
  const p = Object.fromEntries(
    wallClock()
      .formatToParts(instant)
      .map((x) => [x.type, x.value]),
  );
  const wall = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The UTC instant at which a Sao Paulo calendar day starts. */
export function startOfSaoPauloDay(date: string): Date {
  const [y, m, d] = parts(date);
  const midnightAsUtc = Date.UTC(y, m - 1, d);
  // The offset that matters is the one in force at the returned instant, which can differ from
  // the offset at "midnight read as UTC" on a day the rules changed: look twice.
  // On a day that began with a DST jump the midnight does not exist: the earliest candidate that
  // falls on the date is the first instant of the day.
  const first = midnightAsUtc - saoPauloOffsetMs(new Date(midnightAsUtc));
  const second = midnightAsUtc - saoPauloOffsetMs(new Date(first));
  const candidates = [first, second].sort((a, b) => a - b);
  return new Date(candidates.find((c) => saoPauloDate(new Date(c)) === date) ?? candidates[1]);
}

/** `dd/mm/aaaa` of a calendar day (YYYY-MM-DD), as Brazilian pages and e-mails show dates. */
export function formatCalendarDay(date: string): string {
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
}
