import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonthsAnchored,
  daysBetween,
  isCalendarDate,
  saoPauloDate,
  startOfSaoPauloDay,
} from '#shared/dates';

/** Calendar dates from 1990 to 2099 as YYYY-MM-DD. */
const calendarDate = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

const lastDayOf = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

describe('saoPauloDate', () => {
  it('keeps 2026-11-22T02:30Z on 2026-11-21, since Sao Paulo is still before midnight', () => {
    expect(saoPauloDate(new Date('2026-11-22T02:30:00Z'))).toBe('2026-11-21');
  });

  it('moves to the next day at 03:00Z', () => {
    expect(saoPauloDate(new Date('2026-11-22T02:59:59.999Z'))).toBe('2026-11-21');
    expect(saoPauloDate(new Date('2026-11-22T03:00:00Z'))).toBe('2026-11-22');
  });

  it('crosses the year boundary in Sao Paulo time, not UTC', () => {
    expect(saoPauloDate(new Date('2027-01-01T01:00:00Z'))).toBe('2026-12-31');
  });
});

describe('isCalendarDate', () => {
  it.each(['2026-01-31', '2028-02-29', '2000-02-29', '2026-12-31'])('accepts %s', (value) => {
    expect(isCalendarDate(value)).toBe(true);
  });

  it.each([
    ['2026-02-29', '2026 is not a leap year'],
    ['1900-02-29', '1900 is not a leap year (century rule)'],
    ['2026-04-31', 'April has 30 days'],
    ['2026-13-01', 'there is no month 13'],
    ['2026-00-10', 'there is no month 0'],
    ['2026-01-00', 'there is no day 0'],
    ['2026-1-05', 'the month needs two digits'],
    ['2026-01-05T00:00:00Z', 'a timestamp is not a date'],
    ['', 'it is empty'],
  ])('rejects %s because %s', (value) => {
    expect(isCalendarDate(value)).toBe(false);
  });
});

describe('addDays', () => {
  it('crosses month, year and leap-day boundaries', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-11-21', 0)).toBe('2026-11-21');
  });

  it('refuses a string that is not a calendar date', () => {
    expect(() => addDays('2026-02-30', 1)).toThrow(/not a calendar date/);
  });

  it('is undone by daysBetween (property)', () => {
    fc.assert(
      fc.property(calendarDate, fc.integer({ min: -3_000, max: 3_000 }), (date, n) => {
        expect(daysBetween(date, addDays(date, n))).toBe(n);
      }),
    );
  });
});

describe('daysBetween', () => {
  it('counts whole days, negative when `to` is earlier', () => {
    expect(daysBetween('2026-11-21', '2026-11-24')).toBe(3);
    expect(daysBetween('2026-11-24', '2026-11-21')).toBe(-3);
    expect(daysBetween('2028-02-01', '2028-03-01')).toBe(29);
    expect(daysBetween('2026-01-01', '2027-01-01')).toBe(365);
  });

  it('counts the boleto factor base: 1997-10-07 to 2025-02-21 is 9999 days', () => {
    expect(daysBetween('1997-10-07', '2025-02-21')).toBe(9999);
  });
});

describe('addMonthsAnchored', () => {
  it('gives Feb 28 for a Jan 31 anchor, then Mar 31 (not Mar 28)', () => {
    expect(addMonthsAnchored('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonthsAnchored('2026-01-31', 2)).toBe('2026-03-31');
    expect(addMonthsAnchored('2026-01-31', 3)).toBe('2026-04-30');
  });

  it('gives Feb 29 in a leap year', () => {
    expect(addMonthsAnchored('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonthsAnchored('2028-02-29', 12)).toBe('2029-02-28');
    expect(addMonthsAnchored('2028-02-29', 48)).toBe('2032-02-29');
  });

  it('crosses years forwards and backwards', () => {
    expect(addMonthsAnchored('2026-11-30', 3)).toBe('2027-02-28');
    expect(addMonthsAnchored('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonthsAnchored('2026-01-15', -1)).toBe('2025-12-15');
    expect(addMonthsAnchored('2026-01-15', -13)).toBe('2024-12-15');
    expect(addMonthsAnchored('2026-05-10', 0)).toBe('2026-05-10');
  });

  it('keeps the anchor day whenever the target month has it, else the last day (property)', () => {
    fc.assert(
      fc.property(calendarDate, fc.integer({ min: -240, max: 240 }), (anchor, months) => {
        const result = addMonthsAnchored(anchor, months);
        expect(isCalendarDate(result)).toBe(true);
        const [ay, am, ad] = anchor.split('-').map(Number);
        const [ry, rm, rd] = result.split('-').map(Number);
        expect(ry * 12 + rm - (ay * 12 + am)).toBe(months);
        expect(rd).toBe(Math.min(ad, lastDayOf(ry, rm)));
      }),
    );
  });

  it('never drifts when applied month after month from the same anchor (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 28, max: 31 }), fc.integer({ min: 1, max: 36 }), (day, n) => {
        const anchor = `2026-01-${day}`;
        for (let m = 0; m <= n; m++) {
          const [y, mo, d] = addMonthsAnchored(anchor, m).split('-').map(Number);
          // The anchor day whenever the month has it, else the month's last day.
          expect(d).toBe(Math.min(day, lastDayOf(y, mo)));
        }
      }),
    );
  });
});

describe('startOfSaoPauloDay', () => {
  it('starts 2026-11-21 at 03:00 UTC', () => {
    expect(startOfSaoPauloDay('2026-11-21').toISOString()).toBe('2026-11-21T03:00:00.000Z');
  });

  it('is the first instant of that Sao Paulo day (property, 2020 onwards)', () => {
    const recent = fc
      .date({
        min: new Date('2020-01-01T00:00:00Z'),
        max: new Date('2099-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(recent, (date) => {
        const start = startOfSaoPauloDay(date);
        expect(saoPauloDate(start)).toBe(date);
        expect(saoPauloDate(new Date(start.getTime() - 1))).toBe(addDays(date, -1));
      }),
    );
  });

  // Brazil had daylight saving until 2019; on the day it ended clocks went from 00:00 (-02) back
  // to 23:00 (-03) of the previous day, so 2019-02-17 began at 03:00Z. The offset must be the one
  // in force at the resulting instant, not at "midnight read as UTC".
  it('starts a day on which daylight saving ended at the first instant of that day (2019-02-17)', () => {
    const start = startOfSaoPauloDay('2019-02-17');
    expect(saoPauloDate(start)).toBe('2019-02-17');
    expect(start.toISOString()).toBe('2019-02-17T03:00:00.000Z');
  });

  it('starts a day on which daylight saving began at its first existing instant (2018-11-04 01:00 -02)', () => {
    expect(startOfSaoPauloDay('2018-11-04').toISOString()).toBe('2018-11-04T03:00:00.000Z');
  });
});
