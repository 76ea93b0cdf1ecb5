import { formatCalendarDay, saoPauloDate, TIME_ZONE } from '#shared/dates';
import { timeLeftMs } from '#shared/deadline';
import { once } from '#shared/once';

/**
 * CSV as Excel opens it in Brazil (docs/decisions.md, "CSV exports"): `;`
 * between fields (the comma is the decimal mark), CRLF lines, UTF-8 with a BOM (without it Excel
 * reads the bytes as Windows-1252), decimals with a comma and no grouping, dates DD/MM/AAAA in Sao
 * Paulo. Text from sellers and buyers is always quoted, and text that starts like a formula is
 * prefixed with `'` so that no spreadsheet runs it (OWASP "CSV injection").
 */
export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** A cell: text (quoted, guarded), or a value this module formats (never guarded: it is ours). */
export type CsvCell =
  | { text: string | null }
  | { centavos: number | null }
  | { integer: number | null }
  | { date: string | null }
  | { time: string | null };

/** Characters a spreadsheet reads as the start of a formula (tab and CR too: Excel strips them first). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text as a quoted field: inner quotes doubled, a formula start defused. */
export function csvText(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** Centavos as `1234,56` (a negative amount keeps its sign: it is a number, not text). */
export function csvDecimal(centavos: number): string {
  if (!Number.isSafeInteger(centavos)) throw new Error(`centavos must be an integer, got ${centavos}`);
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  return `${sign}${Math.trunc(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

const clock = once(
  () =>
    new Intl.DateTimeFormat('pt-BR', {
      timeZone: TIME_ZONE,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }),
);

/** DD/MM/AAAA of an instant (its Sao Paulo day) or of a calendar day (YYYY-MM-DD). */
export function csvDate(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? formatCalendarDay(value)
    : formatCalendarDay(saoPauloDate(new Date(value)));
}

function cell(c: CsvCell): string {
  if ('text' in c) return c.text === null ? '' : csvText(c.text);
  if ('centavos' in c) return c.centavos === null ? '' : csvDecimal(c.centavos);
  if ('integer' in c) return c.integer === null ? '' : String(c.integer);
  if ('date' in c) return c.date === null ? '' : csvDate(c.date);
  return c.time === null ? '' : clock().format(new Date(c.time));
}

export const csvLine = (cells: CsvCell[]) => `${cells.map(cell).join(CSV_SEPARATOR)}\r\n`;

/** The header line, with the BOM in front: the first bytes of every export. */
export const csvHeader = (titles: readonly string[]) => CSV_BOM + csvLine(titles.map((t) => ({ text: t })));

/**
 * What one answer may carry: Lambda returns at most 6 MB (6,291,456 bytes) of buffered response,
 * counted on the JSON it returns to API Gateway, where the CSV is a JSON string (each `"` and line
 * break escaped). A part stops at a page boundary once its escaped size passes this budget, leaving
 * room for the envelope and headers; the rest follows by `cursor` (X-Next-Cursor).
 */
export const CSV_PART_BUDGET_BYTES = 5_000_000;
/** Pages one part reads at most, besides its time (CSV_PART_TIME_RESERVE_MS). */
export const CSV_PART_MAX_PAGES = 60;
export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';
/**
 * A part starts no further read with less than this left of the request's deadline (shared/deadline.ts):
 * one read of a narrow filter can take seconds, and a part that ends early still answers its rows.
 */
export const CSV_PART_TIME_RESERVE_MS = 8_000;

/** One answer of an export: the lines of whole pages, and where the next part starts (null: done). */
export interface CsvPart {
  body: string;
  rows: number;
  nextCursor: string | null;
}

/**
 * Reads pages from `cursor` (null: the first part, which starts with the BOM and the header line)
 * and writes their rows until the list ends or the part's budget is spent. Continuation parts carry
 * neither BOM nor header, so the parts concatenated are the whole file.
 */
export async function csvPart<T>(options: {
  titles: readonly string[];
  cursor: string | null;
  readPage: (cursor: string | null) => Promise<{ items: T[]; cursor: string | null }>;
  row: (item: T) => CsvCell[];
}): Promise<CsvPart> {
  const chunks: string[] = options.cursor === null ? [csvHeader(options.titles)] : [];
  let escapedBytes = Buffer.byteLength(JSON.stringify(chunks.join('')));
  let rows = 0;
  let cursor = options.cursor;
  for (let pages = 0; pages < CSV_PART_MAX_PAGES; pages++) {
    const page = await options.readPage(cursor);
    const lines = page.items.map((item) => csvLine(options.row(item))).join('');
    chunks.push(lines);
    rows += page.items.length;
    escapedBytes += Buffer.byteLength(JSON.stringify(lines)) - 2;
    cursor = page.cursor;
    if (cursor === null) return { body: chunks.join(''), rows, nextCursor: null };
    if (escapedBytes >= CSV_PART_BUDGET_BYTES || timeLeftMs() < CSV_PART_TIME_RESERVE_MS) break;
  }
  return { body: chunks.join(''), rows, nextCursor: cursor };
}
