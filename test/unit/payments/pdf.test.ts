import { describe, expect, it } from 'vitest';
import { buildBoleto } from '#shared/domain/payments/boleto';
import {
  boletoPdf,
  formatReais,
  interleaved2of5Bars,
  pdfText as pdfTextOf,
} from '#shared/domain/payments/pdf';
import { pdfText } from '#test/support/pdf-text';

const boleto = buildBoleto({
  bankCode: '001',
  amountCentavos: 123_456,
  dueDate: '2026-11-21',
  freeField: '0000001238798777770016818',
});

const input = {
  digitableLine: boleto.formattedLine,
  barcode: boleto.barcode,
  amountCentavos: 123_456,
  dueDate: '2026-11-21',
  payerName: 'João da Silva (filial)',
  beneficiaryName: 'Açaí Comércio \\ Ltda',
  documentNumber: 'INV-000123',
};

const pdf = boletoPdf(input);
const text = pdf.toString('latin1');
const RECT = /^[\d.]+ [\d.]+ [\d.]+ [\d.]+ re f$/gm;

describe('interleaved2of5Bars', () => {
  it('draws 2 start bars, 5 bars per digit pair and 2 stop bars', () => {
    expect(interleaved2of5Bars('00')).toHaveLength(2 + 5 + 2);
    expect(interleaved2of5Bars(boleto.barcode)).toHaveLength(114);
  });

  it('encodes a pair with the first digit in the bars and the second in the spaces', () => {
    // "10": bars of 1 = W N N N W, spaces of 0 = N N W W N; narrow 0.72, wide 2.16.
    const bars = interleaved2of5Bars('10').map((b) => [Number(b.x.toFixed(2)), Number(b.width.toFixed(2))]);
    expect(bars).toEqual([
      [0, 0.72],
      [1.44, 0.72],
      [2.88, 2.16],
      [5.76, 0.72],
      [7.2, 0.72],
      [10.08, 0.72],
      [12.96, 2.16],
      [15.84, 2.16],
      [18.72, 0.72],
    ]);
  });

  it('is 405 narrow modules (about 103 mm) long for a 44-digit barcode', () => {
    const last = interleaved2of5Bars(boleto.barcode).at(-1)!;
    expect((last.x + last.width) / 0.72).toBeCloseTo(405, 6);
  });

  it('rejects an odd number of digits', () => {
    expect(() => interleaved2of5Bars('123')).toThrow();
  });
});

describe('formatReais', () => {
  it.each([
    [0, 'R$ 0,00'],
    [7, 'R$ 0,07'],
    [123_456, 'R$ 1.234,56'],
    [9_999_999_999, 'R$ 99.999.999,99'],
  ])('formats %i centavos as %s', (centavos, shown) => {
    expect(formatReais(centavos)).toBe(shown);
  });
});

describe('boletoPdf', () => {
  it('is a PDF 1.4 file that ends with %%EOF', () => {
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.endsWith('%%EOF\n')).toBe(true);
  });

  it('has an xref table whose offsets point at each "n 0 obj" line', () => {
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
    const m = /^xref\n0 (\d+)\n((?:\d{10} \d{5} [fn] \n)+)trailer\n/.exec(text.slice(startxref))!;
    const count = Number(m[1]);
    const entries = m[2].match(/.{20}/gs)!;
    expect(entries).toHaveLength(count);
    expect(entries[0]).toBe('0000000000 65535 f \n');
    entries.slice(1).forEach((entry, i) => {
      const offset = Number(entry.slice(0, 10));
      expect(text.slice(offset, offset + `${i + 1} 0 obj\n`.length)).toBe(`${i + 1} 0 obj\n`);
    });
    expect(text).toMatch(new RegExp(`trailer\\n<< /Size ${count} /Root 1 0 R`));
  });

  it('declares the content stream length in bytes', () => {
    const m = /<< \/Length (\d+) >>\nstream\n/.exec(text)!;
    const start = m.index + m[0].length;
    expect(text.slice(start + Number(m[1]), start + Number(m[1]) + 'endstream'.length)).toBe('endstream');
  });

  it('prints the linha digitável, amount, due date and the names in WinAnsi with escapes', () => {
    expect(text).toContain(`(${boleto.formattedLine}) Tj`);
    expect(text).toContain('(R$ 1.234,56) Tj');
    expect(text).toContain('(21/11/2026) Tj');
    expect(text).toContain('(Jo\xe3o da Silva \\(filial\\)) Tj');
    expect(text).toContain('(A\xe7a\xed Com\xe9rcio \\\\ Ltda) Tj');
    expect(text).toContain('/Encoding /WinAnsiEncoding');
    expect(text).toContain('(INV-000123) Tj');
    expect(text).toContain('/BaseFont /Helvetica');
  });

  it('draws the barcode as 114 filled rectangles', () => {
    expect(text.match(RECT)).toHaveLength(114);
  });

  it('formats an unformatted linha digitável before printing it', () => {
    const plain = boletoPdf({ ...input, digitableLine: boleto.digitableLine }).toString('latin1');
    expect(plain).toContain(`(${boleto.formattedLine}) Tj`);
  });

  it('prints a boleto without due date as payable on presentation', () => {
    const open = buildBoleto({
      bankCode: '001',
      amountCentavos: 500,
      dueDate: null,
      freeField: '1'.repeat(25),
    });
    const out = boletoPdf({
      ...input,
      digitableLine: open.formattedLine,
      barcode: open.barcode,
      amountCentavos: 500,
      dueDate: null,
    }).toString('latin1');
    expect(out).toContain('(Contra-apresenta\xe7\xe3o) Tj');
  });

  it('refuses a barcode that does not match the printed line', () => {
    const other = buildBoleto({
      bankCode: '237',
      amountCentavos: 1,
      dueDate: '2026-11-21',
      freeField: '2'.repeat(25),
    });
    expect(() => boletoPdf({ ...input, barcode: other.barcode })).toThrow(/does not match/);
    expect(() => boletoPdf({ ...input, barcode: '123' })).toThrow(/44 digits/);
  });

  it('is deterministic for the same input', () => {
    expect(boletoPdf(input).equals(pdf)).toBe(true);
  });

  it('reads back as text in a PDF reader (PDF.js)', async () => {
    const extracted = await pdfText(pdf);
    expect(extracted).toContain(boleto.formattedLine);
    expect(extracted).toContain('R$ 1.234,56');
    expect(extracted).toContain('21/11/2026');
    expect(extracted).toContain('João da Silva (filial)');
    expect(extracted).toContain('Açaí Comércio \\ Ltda');
    expect(extracted).toContain('Beneficiário');
    expect(extracted).toContain('Número do documento');
  });

  it('keeps every WinAnsi character and loses only the accent of one outside it', () => {
    expect(pdfTextOf('ção “aspas” – 5€ ǎ 中')).toBe('\xe7\xe3o \x93aspas\x94 \x96 5\x80 a ?');
  });

  it("draws the seller's brand colour as a band above its name, and none without one", () => {
    const branded = boletoPdf({ ...input, brandColor: '#ff8000' }).toString('latin1');
    expect(branded).toMatch(/^1 0\.5 0 rg 40 818 [\d.]+ 6 re f 0 g$/m);
    expect(text).not.toContain(' rg ');
  });
});
