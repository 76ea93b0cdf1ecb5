import { addDays, saoPauloDate } from '#shared/dates';
import { commissionReversed } from '#shared/domain/affiliates/commission';
import { PAID, type Transaction } from '#shared/domain/transactions/transaction';

/** The methods the home splits sales by: a Pix Automático debit is its own, apart from pix. */
export const FIGURE_METHODS = ['pix', 'boleto', 'card', 'pixAutomatic'] as const;
export type FigureMethod = (typeof FIGURE_METHODS)[number];

/** What a day's sales hold per method: centavos kept, the seller's net, paid sales, declined ones. */
export const SALE_FIELDS = ['gross', 'net', 'count', 'declined'] as const;
export type SaleField = (typeof SALE_FIELDS)[number];

/**
 * What is still to come in on a day ("a receber"), in the seller's net: pix and boletos still
 * pending by their due date, cards by their settlement date, boletos paid and not yet cleared.
 */
export const RECEIVABLE_KINDS = ['pendingPix', 'pendingBoleto', 'card', 'boletoClearing'] as const;
export type ReceivableKind = (typeof RECEIVABLE_KINDS)[number];

/** Settlement rule (decisions): card D+30 whole (not per installment), boleto D+1 after payment, pix D+0. */
export const CARD_SETTLEMENT_DAYS = 30;
export const BOLETO_CLEARING_DAYS = 1;

/** One number of one day: a sale figure of one method, or a receivable of one kind. */
export type FigureCell =
  | { day: string; kind: 'sale'; method: FigureMethod; field: SaleField; amount: number }
  | { day: string; kind: 'receivable'; receivable: ReceivableKind; amount: number };

export function figureMethodOf(t: Pick<Transaction, 'paymentMethod' | 'recurring'>): FigureMethod {
  if (t.recurring?.method === 'pix_automatic') return 'pixAutomatic';
  return t.paymentMethod === 'creditcard' ? 'card' : t.paymentMethod;
}

/** A sale that was paid: a paid status, or reversed (only a paid sale is ever reversed). */
export const wasPaid = (t: Transaction) => PAID.includes(t.status) || t.status === 'reversed';

const chargebackOpen = (t: Transaction) =>
  t.status === 'reversed' && (t.chargeback ? t.chargeback.status === 'open' : t.failureCode === 'chargeback');

/**
 * What the sale stands at after its returns, in centavos: `gross` is the value the seller keeps
 * (the value less refunds; nothing while a chargeback holds it), `net` what reaches the seller
 * (valueSeller, already net of the fee and the affiliate's commission, less what went back to the
 * buyer, plus the commission taken back from the affiliate). The fee is not returned, so a sale
 * refunded in full nets minus its fee.
 */
export function keptOf(t: Transaction): { gross: number; net: number } {
  const open = chargebackOpen(t);
  const returned = open ? t.value : Math.min(t.refundedAmount, t.value);
  const commissionBack = t.affiliate
    ? commissionReversed(t.affiliate.commission, {
        value: t.value,
        refundedAmount: t.refundedAmount,
        chargebackOpen: open,
      })
    : 0;
  return { gross: t.value - returned, net: t.valueSeller - returned + commissionBack };
}

/**
 * What one transaction, as it stands, adds to its seller's daily figures. Sales count on the Sao
 * Paulo day the sale was created (so a day's figures are the sums of that day's transactions, and a
 * later refund or chargeback changes the day of the sale); receivables on the day the money is
 * expected. Every write adds the difference between the transaction's cells after and before, so
 * the figures always equal the sums of the transactions as they stand.
 */
export function figureCellsOf(t: Transaction): FigureCell[] {
  const day = saoPauloDate(new Date(t.createdAt));
  const method = figureMethodOf(t);
  const cells: FigureCell[] = [];
  const sale = (field: SaleField, amount: number) => {
    if (amount !== 0) cells.push({ day, kind: 'sale', method, field, amount });
  };
  const receivable = (on: string, kind: ReceivableKind, amount: number) => {
    if (amount !== 0) cells.push({ day: on, kind: 'receivable', receivable: kind, amount });
  };
  if (wasPaid(t)) {
    const kept = keptOf(t);
    sale('count', 1);
    sale('gross', kept.gross);
    sale('net', kept.net);
    const paidDay = saoPauloDate(new Date(t.paidAt ?? t.createdAt));
    if (t.status === 'captured')
      receivable(addDays(paidDay, CARD_SETTLEMENT_DAYS), 'card', Math.max(0, kept.net));
    if (t.status === 'payedBoleto')
      receivable(addDays(paidDay, BOLETO_CLEARING_DAYS), 'boletoClearing', Math.max(0, kept.net));
  } else if (t.status === 'denied') {
    sale('declined', 1);
  } else if ((t.status === 'pendingPix' || t.status === 'pendingBoleto') && t.deadline) {
    const due = saoPauloDate(new Date(t.deadline.length === 10 ? `${t.deadline}T12:00:00Z` : t.deadline));
    receivable(due, t.status === 'pendingPix' ? 'pendingPix' : 'pendingBoleto', t.valueSeller);
  }
  return cells;
}

/** The cells to add so the figures move from `before` (null: not counted yet) to `after`. */
export function figureDelta(before: Transaction | null, after: Transaction): FigureCell[] {
  const sums = new Map<string, FigureCell>();
  const add = (cell: FigureCell, sign: number) => {
    const id = cellId(cell);
    const held = sums.get(id);
    sums.set(id, { ...cell, amount: (held?.amount ?? 0) + sign * cell.amount });
  };
  for (const cell of before ? figureCellsOf(before) : []) add(cell, -1);
  for (const cell of figureCellsOf(after)) add(cell, 1);
  return [...sums.values()].filter((c) => c.amount !== 0);
}

const cellId = (c: FigureCell) =>
  c.kind === 'sale' ? `${c.day}#${c.method}#${c.field}` : `${c.day}#r#${c.receivable}`;

/** One day's figures, every number in centavos (absent numbers are 0). */
export interface DayFigures {
  sales: Record<FigureMethod, Record<SaleField, number>>;
  receivables: Record<ReceivableKind, number>;
}

export function emptyDay(): DayFigures {
  const sales = {} as DayFigures['sales'];
  for (const m of FIGURE_METHODS) sales[m] = { gross: 0, net: 0, count: 0, declined: 0 };
  const receivables = {} as DayFigures['receivables'];
  for (const k of RECEIVABLE_KINDS) receivables[k] = 0;
  return { sales, receivables };
}

/** Adds `cells` into `days` (the fakes' and the tests' way to total transactions). */
export function addCells(days: Map<string, DayFigures>, cells: readonly FigureCell[]): void {
  for (const c of cells) {
    const day = days.get(c.day) ?? emptyDay();
    days.set(c.day, day);
    if (c.kind === 'sale') day.sales[c.method][c.field] += c.amount;
    else day.receivables[c.receivable] += c.amount;
  }
}
