/**
 * A boleto booklet (carnê): one slip per installment, three to an A4 page, each slip a third of
 * the page with a dashed line to cut along. Drawn with the same hand-written PDF as a single boleto
 * (pdf.ts): the barcode's bars, the standard Helvetica fonts, WinAnsi text.
 */
import { barcodeFromDigitableLine, formatDigitableLine } from './boleto';
import {
  BAR_HEIGHT,
  brazilianDate,
  formatReais,
  interleaved2of5Bars,
  n,
  PAGE_HEIGHT,
  PAGE_WIDTH,
  type PixQr,
  pdfFile,
  pdfFillColor,
  pdfText,
  pixQrOps,
  validateBoleto,
} from './pdf';

export const SLIPS_PER_PAGE = 3;

/** What a slip says instead of a boleto when the installment has none to pay now. */
export type SlipState =
  | { kind: 'boleto'; digitableLine: string; pixQr?: PixQr }
  | { kind: 'not_issued' }
  | { kind: 'paid'; paidOn: string }
  | { kind: 'canceled' };

export interface BookletSlip {
  number: number;
  amountCentavos: number;
  dueDate: string;
  state: SlipState;
}

export interface BookletInput {
  /** The seller, printed on every slip as the beneficiary. */
  sellerName: string;
  /** The seller's brand colour (`#rrggbb`): a band above each slip; null for none. */
  brandColor?: string | null;
  payerName: string;
  installments: number;
  /** Printed in the document's title ("Carnê <reference>"). */
  reference: string;
  productName: string;
  /** A sandbox booklet says on every page that it pays nothing. */
  sandbox: boolean;
  slips: BookletSlip[];
}

const SLIP_HEIGHT = PAGE_HEIGHT / SLIPS_PER_PAGE;
const LEFT = 36;
const RIGHT = PAGE_WIDTH - 36;

const NOT_ISSUED = [
  'Boleto ainda não emitido: ele é registrado 10 dias antes do vencimento.',
  'Abra o carnê de novo a partir dessa data para imprimir o boleto desta parcela.',
];

/**
 * The bars of a provider's linha digitável, or null when it is not a 47-digit bank boleto line whose
 * check digits hold (the slip then prints the line as given, without bars that could disagree).
 */
function barcodeOf(digitableLine: string, amountCentavos: number): string | null {
  try {
    const barcode = barcodeFromDigitableLine(digitableLine.replace(/\D/g, ''));
    validateBoleto({ barcode, digitableLine, amountCentavos });
    return barcode;
  } catch {
    return null;
  }
}

function slipOps(input: BookletInput, slip: BookletSlip, top: number): string[] {
  const ops: string[] = [];
  const text = (x: number, y: number, size: number, value: string, bold = false) =>
    ops.push(`BT /${bold ? 'F2' : 'F1'} ${size} Tf ${n(x)} ${n(y)} Td (${pdfText(value)}) Tj ET`);
  const brand = pdfFillColor(input.brandColor);
  if (brand) ops.push(`${brand} ${n(LEFT)} ${n(top - 16)} ${n(RIGHT - LEFT)} 5 re f 0 g`);
  let y = top - 30;
  text(LEFT, y, 12, input.sellerName, true);
  text(RIGHT - 120, y, 11, `Parcela ${slip.number} de ${input.installments}`, true);
  y -= 14;
  text(LEFT, y, 8, input.sandbox ? 'Carnê de teste (sandbox) - sem valor de pagamento' : input.productName);
  const fields: [string, string][] = [
    ['Beneficiário', input.sellerName],
    ['Pagador', input.payerName],
    ['Vencimento', brazilianDate(slip.dueDate)],
    ['Valor do documento', formatReais(slip.amountCentavos)],
  ];
  y -= 26;
  fields.forEach(([label, value], i) => {
    const x = i % 2 === 0 ? LEFT : LEFT + 300;
    const rowY = y - Math.floor(i / 2) * 28;
    text(x, rowY + 10, 7, label);
    text(x, rowY, 10, value);
  });
  y -= 70;
  const state = slip.state;
  if (state.kind === 'boleto') {
    const barcode = barcodeOf(state.digitableLine, slip.amountCentavos);
    text(LEFT, y + 8, 7, 'Linha digitável');
    text(
      LEFT,
      y - 4,
      12,
      barcode ? formatDigitableLine(state.digitableLine.replace(/\D/g, '')) : state.digitableLine,
      true,
    );
    if (barcode) {
      const barY = y - 20 - BAR_HEIGHT;
      ops.push('0 g');
      for (const bar of interleaved2of5Bars(barcode)) {
        ops.push(`${n(LEFT + bar.x)} ${n(barY)} ${n(bar.width)} ${BAR_HEIGHT} re f`);
      }
    } else text(LEFT, y - 24, 9, 'Pague pela linha digitável acima.');
    if (state.pixQr)
      ops.push(
        ...pixQrOps(state.pixQr, { x: RIGHT - 92, y: top - 212, size: 92, textX: LEFT, textY: top - 222 }),
      );
  } else if (state.kind === 'paid') {
    text(LEFT, y - 4, 12, `Parcela paga em ${brazilianDate(state.paidOn)}`, true);
  } else if (state.kind === 'canceled') {
    text(LEFT, y - 4, 12, 'Parcela cancelada: não pague', true);
  } else {
    NOT_ISSUED.forEach((line, i) => {
      text(LEFT, y - 4 - i * 13, 9, line);
    });
  }
  return ops;
}

/** The dashed line between two slips, where the payer cuts. */
const cutLine = (y: number) => `[4 3] 0 d 0.5 w ${n(LEFT)} ${n(y)} m ${n(RIGHT)} ${n(y)} l S [] 0 d`;

/** Every slip in installment order, SLIPS_PER_PAGE to a page: ceil(slips / 3) pages. */
export function boletoBookletPdf(input: BookletInput): Buffer {
  if (input.slips.length === 0) throw new Error('A booklet has at least one slip');
  const pages: string[] = [];
  for (let first = 0; first < input.slips.length; first += SLIPS_PER_PAGE) {
    const ops: string[] = [];
    input.slips.slice(first, first + SLIPS_PER_PAGE).forEach((slip, k) => {
      const top = PAGE_HEIGHT - k * SLIP_HEIGHT;
      if (k > 0) ops.push(cutLine(top));
      ops.push(...slipOps(input, slip, top));
    });
    pages.push(`${ops.join('\n')}\n`);
  }
  return pdfFile(pages, { title: `Carnê ${input.reference}`, producer: 'payment-service' });
}
