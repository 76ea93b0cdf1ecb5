import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CSV_BOM,
  CSV_PART_BUDGET_BYTES,
  csvDate,
  csvDecimal,
  csvHeader,
  csvLine,
  csvPart,
  csvText,
} from '#shared/csv';
import { withDeadline } from '#shared/deadline';

/** Reads one quoted field back the way a spreadsheet does. */
const unquote = (field: string) => field.slice(1, -1).replace(/""/g, '"');

describe('CSV cells (Excel pt-BR)', () => {
  it('quotes text and doubles its quotes, so `;`, quotes and line breaks stay inside the field', () => {
    expect(csvText('Maria; "Souza"\r\nSP')).toBe('"Maria; ""Souza""\r\nSP"');
    fc.assert(
      fc.property(fc.string(), (text) => {
        const field = csvText(text);
        const back = unquote(field);
        expect(back === text || back === `'${text}`).toBe(true);
      }),
    );
  });

  it.each(['=1+2', '+55 11', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])(
    'defuses text that a spreadsheet would run as a formula: %j',
    (text) => {
      expect(unquote(csvText(text))).toBe(`'${text}`);
    },
  );

  it('leaves other text as it is', () => {
    expect(csvText('Ana = sócia')).toBe('"Ana = sócia"');
    expect(csvText('')).toBe('""');
  });

  it('writes centavos with a comma and no grouping, negative amounts as numbers', () => {
    expect(csvDecimal(123_456)).toBe('1234,56');
    expect(csvDecimal(5)).toBe('0,05');
    expect(csvDecimal(-1_050)).toBe('-10,50');
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (c) => {
        const written = csvDecimal(c);
        expect(written).toMatch(/^-?\d+,\d{2}$/);
        expect(Math.round(Number(written.replace(',', '.')) * 100)).toBe(c);
      }),
    );
  });

  it('writes dates as DD/MM/AAAA of the Sao Paulo day', () => {
    expect(csvDate('2026-03-01T02:59:00.000Z')).toBe('28/02/2026');
    expect(csvDate('2026-03-01T03:00:00.000Z')).toBe('01/03/2026');
    expect(csvDate('2026-12-25')).toBe('25/12/2026');
  });

  it('separates fields by `;` and ends lines with CRLF; the header starts with the BOM', () => {
    expect(csvLine([{ integer: 7 }, { text: 'a' }, { centavos: 990 }, { date: null }, { text: null }])).toBe(
      '7;"a";9,90;;\r\n',
    );
    expect(csvHeader(['ID', 'Nome'])).toBe(`${CSV_BOM}"ID";"Nome"\r\n`);
  });
});

describe('csvPart', () => {
  const pages = (count: number, rowsPerPage: number, width = 10) =>
    Array.from({ length: count }, (_, p) =>
      Array.from({ length: rowsPerPage }, (_, r) => ({ n: p * rowsPerPage + r, text: 'x'.repeat(width) })),
    );

  const reader = (all: { n: number; text: string }[][]) => async (cursor: string | null) => {
    const at = cursor === null ? 0 : Number(cursor);
    return { items: all[at] ?? [], cursor: at + 1 < all.length ? String(at + 1) : null };
  };

  it('reads every page to the end of the list in one part', async () => {
    const part = await csvPart({
      titles: ['N'],
      cursor: null,
      readPage: reader(pages(7, 3)),
      row: (i) => [{ integer: i.n }],
    });
    expect(part.nextCursor).toBeNull();
    expect(part.rows).toBe(21);
    expect(part.body.split('\r\n')).toHaveLength(1 + 21 + 1);
  });

  it('stops at a page boundary past the budget and names the next page; the next part has no BOM or header', async () => {
    const big = pages(8, 1, 1_000_000);
    const first = await csvPart({
      titles: ['N', 'T'],
      cursor: null,
      readPage: reader(big),
      row: (i) => [{ integer: i.n }, { text: i.text }],
    });
    expect(first.nextCursor).toBe('5');
    expect(first.rows).toBe(5);
    expect(Buffer.byteLength(JSON.stringify(first.body))).toBeLessThan(CSV_PART_BUDGET_BYTES + 1_100_000);
    expect(first.body.startsWith(CSV_BOM)).toBe(true);
    const rest = await csvPart({
      titles: ['N', 'T'],
      cursor: first.nextCursor,
      readPage: reader(big),
      row: (i) => [{ integer: i.n }, { text: i.text }],
    });
    expect(rest.nextCursor).toBeNull();
    expect(rest.rows).toBe(3);
    expect(rest.body.startsWith('5;')).toBe(true);
  });

  it('ends a part early when the request is near its deadline, naming the next page', async () => {
    const part = await withDeadline(Date.now() + 5_000, () =>
      csvPart({ titles: ['N'], cursor: null, readPage: reader(pages(4, 2)), row: (i) => [{ integer: i.n }] }),
    );
    expect(part).toMatchObject({ rows: 2, nextCursor: '1' });
  });
});
