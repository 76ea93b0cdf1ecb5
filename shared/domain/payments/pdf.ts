/**
 * A boleto as a real, hand-written PDF 1.4: one A4 page, the standard Helvetica font (no embedding)
 * and the barcode as Interleaved 2 of 5 bars drawn with filled rectangles.
 */
import { isCalendarDate } from '#shared/dates';
import { formatBrl } from '#shared/money';
import { barcodeFromDigitableLine, formatDigitableLine, MAX_BOLETO_CENTAVOS } from './boleto';

export interface BoletoPdfInput {
  /** The formatted linha digitável (`AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEEEEEEEEEEEE`). */
  digitableLine: string;
  barcode: string;
  amountCentavos: number;
  /** `YYYY-MM-DD`, or null for a boleto payable on presentation. */
  dueDate: string | null;
  payerName: string;
  /** The seller (its business name): printed as the header and as the beneficiary. */
  beneficiaryName: string;
  documentNumber: string;
  /** The seller's brand colour (`#rrggbb`): a band above its name; null for none. */
  brandColor?: string | null;
  /** The boleto híbrido's pix, printed beside the barcode: its QR code and its copia e cola text. */
  pixQr?: PixQr;
}

/** A pix BR Code with its QR code's modules (qr-image.ts `qrCodeModules`). */
export interface PixQr {
  payload: string;
  modules: boolean[][];
}

// Interleaved 2 of 5: each digit is five elements, two of them wide (1 = wide).
const I2OF5 = ['00110', '10001', '01001', '11000', '00101', '10100', '01100', '00011', '10010', '01010'];
// FEBRABAN: the symbol is about 103 mm long and 13 mm tall with a 1:3 narrow-to-wide ratio;
// 405 narrow modules for 44 digits at 0.72 pt each is 103 mm.
const NARROW = 0.72;
const WIDE = NARROW * 3;
export const BAR_HEIGHT = 36.85;
export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;

export interface Bar {
  x: number;
  width: number;
}

/** The bars (not the spaces) of an I2of5 symbol, left to right, starting at x = 0. */
export function interleaved2of5Bars(digits: string): Bar[] {
  if (!/^\d*$/.test(digits) || digits.length % 2 !== 0) {
    throw new Error('Interleaved 2 of 5 encodes an even number of digits');
  }
  const bars: Bar[] = [];
  let x = 0;
  const element = (isBar: boolean, wide: boolean) => {
    const width = wide ? WIDE : NARROW;
    if (isBar) bars.push({ x, width });
    x += width;
  };
  // Start: narrow bar, narrow space, narrow bar, narrow space.
  for (const isBar of [true, false, true, false]) element(isBar, false);
  for (let i = 0; i < digits.length; i += 2) {
    // The first digit of the pair is drawn by the bars, the second by the spaces between them.
    const barPattern = I2OF5[Number(digits[i])];
    const spacePattern = I2OF5[Number(digits[i + 1])];
    for (let k = 0; k < 5; k++) {
      element(true, barPattern[k] === '1');
      element(false, spacePattern[k] === '1');
    }
  }
  // Stop: wide bar, narrow space, narrow bar.
  element(true, true);
  element(false, false);
  element(true, false);
  return bars;
}

/** WinAnsiEncoding's bytes 0x80–0x9F (the rest of 0xA0–0xFF is Latin-1, which JavaScript shares). */
const WIN_ANSI_EXTRA: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/** One character as a WinAnsi byte (a latin1 char of the content stream); null when it has none. */
function winAnsi(c: string): string | null {
  const code = c.codePointAt(0) ?? 0;
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return c;
  if (c in WIN_ANSI_EXTRA) return String.fromCharCode(WIN_ANSI_EXTRA[c]);
  return null;
}

/**
 * A PDF string literal's text in the standard fonts' WinAnsiEncoding (the fonts declare it): every
 * Portuguese letter (á, ç, ã, ê, õ…) is a byte of it. A character outside it loses its accent
 * (NFD) or becomes `?`; the three string delimiters are escaped.
 */
export function pdfText(text: string): string {
  let out = '';
  for (const c of text.normalize('NFC')) {
    const mapped =
      winAnsi(c) ??
      [...c.normalize('NFD').replace(/[\u0300-\u036f]/g, '')].map((b) => winAnsi(b) ?? '?').join('');
    out += mapped || '?';
  }
  return out.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** The fill colour operator of a `#rrggbb` colour (the seller's brand), or null for none. */
export function pdfFillColor(hex: string | null | undefined): string | null {
  const m = /^#?([0-9a-fA-F]{6})$/.exec(hex ?? '');
  if (!m) return null;
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(m[1].slice(i, i + 2), 16) / 255);
  return `${n(r)} ${n(g)} ${n(b)} rg`;
}

/** "R$ 1.234,56" (shared/money's formatter); a boleto never carries a negative amount. */
export function formatReais(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos < 0) throw new Error('Amount must be integer centavos');
  return formatBrl(centavos);
}

export function brazilianDate(date: string | null): string {
  if (date === null) return 'Contra-apresentação';
  if (!isCalendarDate(date)) throw new Error(`Not a calendar date: ${date}`);
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y}`;
}

export const n = (value: number) => Number(value.toFixed(2)).toString();

function contentStream(input: BoletoPdfInput): string {
  const ops: string[] = [];
  const text = (x: number, y: number, size: number, value: string) =>
    ops.push(`BT /F1 ${size} Tf ${n(x)} ${n(y)} Td (${pdfText(value)}) Tj ET`);
  const left = 40;
  const brand = pdfFillColor(input.brandColor);
  if (brand) ops.push(`${brand} ${left} 818 ${n(PAGE_WIDTH - 2 * left)} 6 re f 0 g`);
  ops.push(`BT /F2 16 Tf ${left} 796 Td (${pdfText(input.beneficiaryName)}) Tj ET`);
  text(left, 776, 11, 'Boleto de teste (sandbox) - sem valor de pagamento');
  text(left, 752, 12, input.digitableLine);
  const rows: [string, string][] = [
    ['Beneficiário', input.beneficiaryName],
    ['Pagador', input.payerName],
    ['Número do documento', input.documentNumber],
    ['Vencimento', brazilianDate(input.dueDate)],
    ['Valor do documento', formatReais(input.amountCentavos)],
  ];
  rows.forEach(([label, value], i) => {
    const y = 725 - i * 30;
    text(left, y + 10, 7, label);
    text(left, y, 10, value);
  });
  const barcodeY = 540;
  ops.push('0 g');
  for (const bar of interleaved2of5Bars(input.barcode)) {
    ops.push(`${n(left + bar.x)} ${barcodeY} ${n(bar.width)} ${BAR_HEIGHT} re f`);
  }
  if (input.pixQr) ops.push(...pixQrOps(input.pixQr, { x: 380, y: 520, size: 120, textX: left, textY: 515 }));
  return `${ops.join('\n')}\n`;
}

/**
 * The pix of a boleto híbrido: its QR code as filled squares (`size` points wide, bottom-left at x,
 * y, with a caption above it) and its copia e cola text in lines from (textX, textY) down.
 */
export function pixQrOps(
  pix: PixQr,
  at: { x: number; y: number; size: number; textX: number; textY: number; lineChars?: number },
): string[] {
  const ops: string[] = [];
  const text = (x: number, y: number, size: number, value: string) =>
    ops.push(`BT /F1 ${size} Tf ${n(x)} ${n(y)} Td (${pdfText(value)}) Tj ET`);
  text(at.x, at.y + at.size + 6, 8, 'Pix: leia o QR Code');
  ops.push(...qrCodeOps(pix.modules, at.x, at.y, at.size));
  text(at.textX, at.textY, 7, 'Pix copia e cola:');
  const width = at.lineChars ?? 95;
  for (let i = 0; i * width < pix.payload.length; i++) {
    text(at.textX, at.textY - 9 - i * 8, 6.5, pix.payload.slice(i * width, (i + 1) * width));
  }
  return ops;
}

/** Dark modules as filled squares in a `size`-point square whose bottom-left corner is (x, y). */
export function qrCodeOps(modules: boolean[][], x: number, y: number, size: number): string[] {
  const module = size / modules.length;
  const ops = ['0 g'];
  modules.forEach((row, r) => {
    row.forEach((dark, c) => {
      if (dark)
        ops.push(`${n(x + c * module)} ${n(y + size - (r + 1) * module)} ${n(module)} ${n(module)} re f`);
    });
  });
  return ops;
}

/** Fails when the boleto cannot be printed faithfully (a payer would pay something else). */
export function validateBoleto(
  input: Pick<BoletoPdfInput, 'barcode' | 'digitableLine' | 'amountCentavos'>,
): void {
  if (!/^\d{44}$/.test(input.barcode)) throw new Error('The barcode has 44 digits');
  // The bars and the printed line must describe the same boleto, or a payer pays something else.
  if (barcodeFromDigitableLine(input.digitableLine) !== input.barcode) {
    throw new Error('The linha digitável does not match the barcode');
  }
  if (input.amountCentavos > MAX_BOLETO_CENTAVOS) throw new Error('Amount exceeds what a boleto carries');
}

export function boletoPdf(input: BoletoPdfInput): Buffer {
  validateBoleto(input);
  const printed = { ...input, digitableLine: formatDigitableLine(input.digitableLine.replace(/[.\s]/g, '')) };
  return pdfFile([contentStream(printed)], {
    title: `Boleto ${input.documentNumber}`,
    producer: 'payment-service sandbox',
  });
}

/**
 * A PDF 1.4 file of A4 pages, one content stream each, with Helvetica as /F1 and Helvetica-Bold
 * as /F2 (standard fonts, nothing embedded).
 */
export function pdfFile(pages: string[], info: { title: string; producer: string }): Buffer {
  const PAGES_OBJECT = 2;
  const FIRST_PAGE_OBJECT = 6;
  const kids = pages.map((_, i) => `${FIRST_PAGE_OBJECT + i * 2} 0 R`).join(' ');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Title (${pdfText(info.title)}) /Producer (${pdfText(info.producer)}) >>`,
  ];
  pages.forEach((content, i) => {
    const contents = FIRST_PAGE_OBJECT + i * 2 + 1;
    objects.push(
      `<< /Type /Page /Parent ${PAGES_OBJECT} 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
        `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${contents} 0 R >>`,
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`,
    );
  });
  // A comment of high bytes right after the header tells transfer tools the file is binary.
  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(pdf, 'latin1');
  // Each xref entry is exactly 20 bytes, the EOL being space + LF.
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\n`;
  pdf += `startxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
