import { documentKind, normalizeDocument } from '#shared/domain/documents';
import { readNumberedPage } from '#shared/domain/paging';
import type { CustomerSearch } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { searchableName, toCustomerView } from './customer';
import type { CustomerDeps } from './customers';
import type { ListCustomersInput } from './schemas';

/**
 * What a search term means, so that no search reads every customer: a valid CPF/CNPJ (masked or
 * not) is an exact document, anything with `@` an exact e-mail, the rest a name prefix that
 * ignores case and accents.
 */
export function classifySearch(term: string | undefined): CustomerSearch {
  const value = term?.trim() ?? '';
  if (value === '') return { kind: 'all' };
  const document = normalizeDocument(value);
  if (documentKind(document)) return { kind: 'document', document };
  if (value.includes('@')) return { kind: 'email', email: value.toLowerCase() };
  const prefix = searchableName(value);
  return prefix === '' ? { kind: 'all' } : { kind: 'name', prefix };
}

export async function listCustomers(
  deps: Pick<CustomerDeps, 'customers'>,
  tenant: Tenant,
  input: ListCustomersInput,
) {
  const search = classifySearch(input.search);
  const { items, totalCount } = await readNumberedPage(input, async ({ page, limit }) => {
    const { items, total } = await deps.customers.list(tenant, {
      search,
      overdueOnly: input.status === 'overdue',
      skip: (page - 1) * limit,
      take: limit,
    });
    return { items, totalCount: total };
  });
  return {
    data: items.map(toCustomerView),
    count: items.length,
    totalCount,
    totalPages: Math.ceil(totalCount / input.limit),
  };
}
