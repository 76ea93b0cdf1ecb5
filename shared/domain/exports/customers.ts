import * as z from 'zod';
import { type CsvCell, csvPart } from '#shared/csv';
import { type CustomerProfile, toCustomerView } from '#shared/domain/customers/customer';
import { classifySearch } from '#shared/domain/customers/listing';
import { listCustomersSchema } from '#shared/domain/customers/schemas';
import type { Deps } from '#shared/domain/deps';
import { MAX_LIST_WINDOW } from '#shared/domain/paging';
import type { Tenant } from '#shared/domain/tenant';
import { maskedDocument, maskedPhone } from './labels';

export const customerExportSchema = listCustomersSchema.omit({ page: true, limit: true }).extend({
  cursor: z
    .string()
    .max(2048)
    .optional()
    .describe('X-Next-Cursor of the previous part: the rows that follow, without BOM and header'),
});

const EXPORT_PAGE_SIZE = 500;

const TITLES = [
  'ID',
  'Nome',
  'E-mail',
  'E-mail de cobrança',
  'CPF/CNPJ',
  'Tipo',
  'Telefone',
  'CEP',
  'Endereço',
  'Número',
  'Complemento',
  'Bairro',
  'Cidade',
  'UF',
  'Cliente desde',
] as const;

function rowOf(profile: CustomerProfile): CsvCell[] {
  const c = toCustomerView(profile);
  return [
    { integer: c.id },
    { text: c.name },
    { text: c.email },
    { text: c.billingEmail },
    { text: maskedDocument(c.document) },
    { text: c.personType === 'fisica' ? 'Pessoa física' : 'Pessoa jurídica' },
    { text: maskedPhone(c.phone) },
    { text: c.zipCode ? c.zipCode.replace(/^(\d{5})(\d{3})$/, '$1-$2') : null },
    { text: c.street },
    { text: c.number },
    { text: c.complement },
    { text: c.neighborhood },
    { text: c.city },
    { text: c.state },
    { date: c.createdAt },
  ];
}

/**
 * GET /api/v1/customers/export: the list's customers as CSV, newest first. Without a search every
 * customer is read by cursor, page by page; a search or `status=overdue` reads its matches the way
 * the list does (up to the list's window of MAX_LIST_WINDOW) in one part.
 */
export async function exportCustomers(
  deps: Pick<Deps, 'customers'>,
  tenant: Tenant,
  input: z.output<typeof customerExportSchema>,
) {
  const search = classifySearch(input.search);
  const overdueOnly = input.status === 'overdue';
  const byCursor = search.kind === 'all' && !overdueOnly;
  return csvPart({
    titles: TITLES,
    cursor: input.cursor ?? null,
    row: rowOf,
    readPage: async (cursor) => {
      if (!byCursor) {
        const { items } = await deps.customers.list(tenant, {
          search,
          overdueOnly,
          skip: 0,
          take: MAX_LIST_WINDOW,
        });
        return { items, cursor: null };
      }
      const page = await deps.customers.list(tenant, {
        search,
        overdueOnly,
        skip: 0,
        take: EXPORT_PAGE_SIZE,
        cursor,
      });
      return { items: page.items, cursor: page.cursor ?? null };
    },
  });
}
