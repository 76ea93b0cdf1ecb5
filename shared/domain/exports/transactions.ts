import * as z from 'zod';
import { type CsvCell, csvPart } from '#shared/csv';
import type { Deps } from '#shared/domain/deps';
import type { Tenant } from '#shared/domain/tenant';
import { listSchema, SEARCH_TOO_BROAD, transactionQueryOf } from '#shared/domain/transactions/manage';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { ValidationError } from '#shared/errors';
import { METHOD_LABELS, maskedDocument, maskedPhone, STATUS_LABELS } from './labels';

/** The list's filters, and `cursor` (X-Next-Cursor of the previous part) for a continuation. */
export const transactionExportSchema = listSchema.omit({ page: true, limit: true, cursor: true }).extend({
  cursor: z
    .string()
    .max(2048)
    .optional()
    .describe('X-Next-Cursor of the previous part: the rows that follow, without BOM and header'),
});

/** Rows per read: one DynamoDB query each (the list reads one row past its page). */
const EXPORT_PAGE_SIZE = 400;

const TITLES = [
  'ID',
  'Data',
  'Hora',
  'Status',
  'Forma de pagamento',
  'Parcelas',
  'Valor (R$)',
  'Valor líquido (R$)',
  'Reembolsado (R$)',
  'Produto',
  'Cliente',
  'E-mail',
  'CPF/CNPJ',
  'Telefone',
  'Pago em',
  'Vencimento',
  'ID no provedor',
] as const;

function rowOf(t: Transaction): CsvCell[] {
  return [
    { integer: t.id },
    { date: t.createdAt },
    { time: t.createdAt },
    { text: STATUS_LABELS[t.status] },
    { text: METHOD_LABELS[t.paymentMethod] },
    { integer: t.paymentMethod === 'creditcard' ? t.installments : null },
    { centavos: t.value },
    { centavos: t.valueSeller },
    { centavos: t.refundedAmount },
    { text: t.product.name },
    { text: t.customer.name },
    { text: t.customer.email },
    { text: maskedDocument(t.customer.document) },
    { text: maskedPhone(t.customer.phone) },
    { date: t.paidAt },
    { date: t.deadline },
    { integer: t.gatewayPayId },
  ];
}

/**
 * GET /api/transactions/export: every transaction of the list's filter as CSV (shared/csv.ts), newest
 * first, read page by page; a part that would outgrow a Lambda answer ends at a page boundary and
 * names the cursor of the rest.
 */
export async function exportTransactions(
  deps: Pick<Deps, 'transactions'>,
  tenant: Tenant,
  input: z.output<typeof transactionExportSchema>,
) {
  const query = transactionQueryOf(input);
  return csvPart({
    titles: TITLES,
    cursor: input.cursor ?? null,
    row: rowOf,
    readPage: async (cursor) => {
      const page = await deps.transactions.list(tenant, {
        ...query,
        page: 1,
        limit: EXPORT_PAGE_SIZE,
        cursor: cursor ?? undefined,
        countTotal: false,
      });
      if (page.tooBroad) throw new ValidationError([SEARCH_TOO_BROAD]);
      return { items: page.items, cursor: page.cursor ?? null };
    },
  });
}
