import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { must } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link, navigate, useLocation } from '../../app/router';
import { downloadCsv } from '../../components/download';
import { ExportButton } from '../../components/export-button';
import { formatDateTime, formatPhone } from '../../components/format';
import { ErrorNote, Field, Loading, LoadMore, PageTitle } from '../../components/ui';
import { maskDocument } from '../auth/document-mask';

export const CUSTOMERS_PATH = '/clientes';
const PAGE_SIZE = 25;

/** Clientes: newest first, searched by name, e-mail or CPF/CNPJ, or only those with overdue charges. */
export function CustomersView() {
  const { api } = useApp();
  const { query } = useLocation();
  const search = query.get('busca') ?? '';
  const overdue = query.get('inadimplentes') === '1';
  const apiQuery = { search: search.trim() || undefined, status: overdue ? ('overdue' as const) : undefined };
  const list = useInfiniteQuery({
    queryKey: useKey('customers', search, String(overdue)),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      must(
        api.GET('/api/v1/customers', {
          params: { query: { ...apiQuery, page: pageParam, limit: PAGE_SIZE } },
        }),
      ),
    getNextPageParam: (page, pages) => (pages.length < page.totalPages ? pages.length + 1 : undefined),
  });
  const rows = list.data?.pages.flatMap((page) => page.data) ?? [];
  const total = list.data?.pages[0]?.totalCount;
  return (
    <>
      <PageTitle lead="Quem comprou de você. Abra um cliente para ver as compras, assinaturas, cobranças e cartões.">
        Clientes
      </PageTitle>
      <CustomerSearch search={search} overdue={overdue} />
      <ExportButton
        label="Exportar CSV"
        run={() => downloadCsv(api, '/api/v1/customers/export', apiQuery, 'clientes')}
      />
      <ErrorNote error={list.error} portuguese />
      {list.isPending ? <Loading /> : null}
      {total !== undefined ? (
        <p className="muted" aria-live="polite">
          {total === 1 ? '1 cliente' : `${total} clientes`}
        </p>
      ) : null}
      <ul className="list" aria-label="Clientes">
        {rows.map((c) => (
          <li key={c.uuid} className="item">
            <div>
              <p>
                <Link to={`${CUSTOMERS_PATH}/${c.uuid}`}>{c.name}</Link>
              </p>
              <dl className="facts">
                <dt>E-mail</dt>
                <dd>{c.email}</dd>
                <dt>CPF/CNPJ</dt>
                <dd>{maskDocument(c.document)}</dd>
                <dt>Telefone</dt>
                <dd>{formatPhone(c.phone)}</dd>
                <dt>Desde</dt>
                <dd>{formatDateTime(c.createdAt)}</dd>
              </dl>
            </div>
          </li>
        ))}
      </ul>
      <LoadMore
        hasNextPage={list.hasNextPage}
        isFetchingNextPage={list.isFetchingNextPage}
        fetchNextPage={list.fetchNextPage}
      />
    </>
  );
}

function CustomerSearch(props: { search: string; overdue: boolean }) {
  const [search, setSearch] = useState(props.search);
  const [overdue, setOverdue] = useState(props.overdue);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const query = new URLSearchParams();
    if (search.trim()) query.set('busca', search.trim());
    if (overdue) query.set('inadimplentes', '1');
    const q = query.toString();
    navigate(q ? `${CUSTOMERS_PATH}?${q}` : CUSTOMERS_PATH, { replace: true });
  };
  return (
    <form className="card filters" onSubmit={apply} aria-label="Filtrar clientes">
      <Field
        label="Busca"
        type="search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        hint="Início do nome, e-mail ou CPF/CNPJ"
      />
      <label className="check">
        <input type="checkbox" checked={overdue} onChange={(e) => setOverdue(e.target.checked)} />
        Só com cobranças vencidas
      </label>
      <p>
        <button type="submit" className="primary">
          Buscar
        </button>
      </p>
    </form>
  );
}
