import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonthsAnchored, daysBetween, saoPauloDate } from '#shared/dates';
import { nextBoundary, periodEnd, trialEnd } from '#shared/domain/subscriptions/periods';
import { BILLING_INTERVALS, MAX_INTERVAL_COUNT } from '#shared/domain/subscriptions/price';

const DAY_MS = 86_400_000;

/** Instants from 2020 (Brazil has had no daylight saving since 2019) to 2099. */
const instant = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

const interval = fc.constantFrom(...BILLING_INTERVALS);
const schedule = interval.chain((i) =>
  fc.record({ interval: fc.constant(i), count: fc.integer({ min: 1, max: MAX_INTERVAL_COUNT[i] }) }),
);

/** The Sao Paulo wall-clock time of an instant, read by Intl (independent of the code under test). */
const wallClock = (iso: string) => {
  const d = new Date(iso);
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'America/Sao_Paulo',
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(d);
  return `${time}.${String(d.getUTCMilliseconds()).padStart(3, '0')}`;
};

const lastDayOf = (date: string) => {
  const [y, m] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
};

describe('periodEnd', () => {
  it('renews an anchor on 31 January on 28 February, then on 31 March again', () => {
    const anchor = '2026-01-31T13:00:00.000Z'; // 10:00 in Sao Paulo
    expect(periodEnd(anchor, 'month', 1, 1)).toBe('2026-02-28T13:00:00.000Z');
    expect(periodEnd(anchor, 'month', 1, 2)).toBe('2026-03-31T13:00:00.000Z');
    expect(periodEnd(anchor, 'month', 1, 3)).toBe('2026-04-30T13:00:00.000Z');
    expect(periodEnd(anchor, 'month', 1, 12)).toBe('2027-01-31T13:00:00.000Z');
  });

  it('renews an anchor on 31 January on 29 February in a leap year', () => {
    expect(periodEnd('2028-01-31T13:00:00.000Z', 'month', 1, 1)).toBe('2028-02-29T13:00:00.000Z');
    expect(periodEnd('2028-01-31T13:00:00.000Z', 'month', 1, 2)).toBe('2028-03-31T13:00:00.000Z');
  });

  it('counts the Sao Paulo day, not the UTC day: 31 Jan 23:30 in Sao Paulo renews on 28 Feb 23:30', () => {
    // 2026-02-01T02:30Z is still 31 January in Sao Paulo.
    expect(periodEnd('2026-02-01T02:30:00.000Z', 'month', 1, 1)).toBe('2026-03-01T02:30:00.000Z');
    expect(periodEnd('2026-02-01T02:30:00.000Z', 'month', 1, 2)).toBe('2026-04-01T02:30:00.000Z');
  });

  it('renews a yearly anchor on 29 February on 28 February, and on 29 February again in the next leap year', () => {
    const anchor = '2028-02-29T15:00:00.000Z';
    expect(periodEnd(anchor, 'year', 1, 1)).toBe('2029-02-28T15:00:00.000Z');
    expect(periodEnd(anchor, 'year', 1, 2)).toBe('2030-02-28T15:00:00.000Z');
    expect(periodEnd(anchor, 'year', 1, 4)).toBe('2032-02-29T15:00:00.000Z');
  });

  it('renews weekly every 7 × count days, across month and year ends', () => {
    expect(periodEnd('2026-12-29T12:00:00.000Z', 'week', 1, 1)).toBe('2027-01-05T12:00:00.000Z');
    expect(periodEnd('2026-12-29T12:00:00.000Z', 'week', 2, 3)).toBe('2027-02-09T12:00:00.000Z');
  });

  it('answers the anchor itself for n = 0, and multiplies the interval by its count', () => {
    expect(periodEnd('2026-05-10T12:00:00.000Z', 'month', 3, 0)).toBe('2026-05-10T12:00:00.000Z');
    expect(periodEnd('2026-05-10T12:00:00.000Z', 'month', 3, 2)).toBe('2026-11-10T12:00:00.000Z');
  });

  it('refuses a count below 1 and a negative period number', () => {
    expect(() => periodEnd('2026-05-10T12:00:00.000Z', 'month', 0, 1)).toThrow(/interval count/);
    expect(() => periodEnd('2026-05-10T12:00:00.000Z', 'month', 1, -1)).toThrow(/period number/);
    expect(() => periodEnd('not a date', 'month', 1, 1)).toThrow(/not an instant/);
  });

  it('lands on the anchor day clamped to the month, computed from the anchor, at its wall-clock time (property)', () => {
    fc.assert(
      fc.property(
        instant,
        fc.constantFrom('month' as const, 'year' as const),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 60 }),
        (anchor, unit, count, n) => {
          const months = (unit === 'year' ? 12 : 1) * count * n;
          const end = periodEnd(anchor, unit, count, n);
          const expectedDate = addMonthsAnchored(saoPauloDate(new Date(anchor)), months);
          expect(saoPauloDate(new Date(end))).toBe(expectedDate);
          const anchorDay = Number(saoPauloDate(new Date(anchor)).slice(8));
          expect(Number(expectedDate.slice(8))).toBe(Math.min(anchorDay, lastDayOf(expectedDate)));
          expect(wallClock(end)).toBe(wallClock(anchor));
        },
      ),
    );
  });

  it('adds exactly 7 × count × n days for weeks (property)', () => {
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: 1, max: 52 }),
        fc.integer({ min: 0, max: 200 }),
        (anchor, c, n) => {
          const end = periodEnd(anchor, 'week', c, n);
          expect(Date.parse(end) - Date.parse(anchor)).toBe(7 * c * n * DAY_MS);
          expect(wallClock(end)).toBe(wallClock(anchor));
        },
      ),
    );
  });

  it('grows strictly with n, each period no longer than its interval allows (property)', () => {
    fc.assert(
      fc.property(instant, schedule, fc.integer({ min: 0, max: 100 }), (anchor, s, n) => {
        const a = Date.parse(periodEnd(anchor, s.interval, s.count, n));
        const b = Date.parse(periodEnd(anchor, s.interval, s.count, n + 1));
        const days = (b - a) / DAY_MS;
        expect(days).toBeGreaterThan(0);
        const [min, max] = { week: [7, 7], month: [28, 31], year: [365, 366] }[s.interval];
        expect(days).toBeGreaterThanOrEqual(min * s.count);
        expect(days).toBeLessThanOrEqual(max * s.count);
      }),
    );
  });
});

describe('nextBoundary', () => {
  it('is the boundary right after a period end on the schedule', () => {
    const anchor = '2026-01-31T13:00:00.000Z';
    expect(nextBoundary(anchor, 'month', 1, '2026-02-28T13:00:00.000Z')).toEqual({
      n: 2,
      at: '2026-03-31T13:00:00.000Z',
    });
  });

  it('skips every boundary already passed (a paused subscription catching up)', () => {
    const anchor = '2026-01-31T13:00:00.000Z';
    expect(nextBoundary(anchor, 'month', 1, '2026-06-15T00:00:00.000Z')).toEqual({
      n: 5,
      at: '2026-06-30T13:00:00.000Z',
    });
  });

  it('finds the first boundary strictly after the instant, whatever the distance (property)', () => {
    fc.assert(
      fc.property(instant, schedule, fc.integer({ min: 0, max: 20 * 366 * DAY_MS }), (anchor, s, offset) => {
        const after = new Date(Date.parse(anchor) + offset).toISOString();
        const { n, at } = nextBoundary(anchor, s.interval, s.count, after);
        expect(n).toBeGreaterThanOrEqual(1);
        expect(at).toBe(periodEnd(anchor, s.interval, s.count, n));
        expect(Date.parse(at)).toBeGreaterThan(Date.parse(after));
        expect(Date.parse(periodEnd(anchor, s.interval, s.count, n - 1))).toBeLessThanOrEqual(
          Date.parse(after),
        );
      }),
    );
  });
});

describe('trialEnd', () => {
  it('ends trialDays Sao Paulo days after the start, at the same time of day', () => {
    expect(trialEnd('2026-02-01T02:30:00.000Z', 14)).toBe('2026-02-15T02:30:00.000Z');
    expect(trialEnd('2028-02-20T12:00:00.000Z', 10)).toBe('2028-03-01T12:00:00.000Z');
  });

  it('keeps the calendar distance and the wall-clock time (property)', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: 0, max: 730 }), (start, days) => {
        const end = trialEnd(start, days);
        expect(daysBetween(saoPauloDate(new Date(start)), saoPauloDate(new Date(end)))).toBe(days);
        expect(wallClock(end)).toBe(wallClock(start));
      }),
    );
  });
});
