import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { must } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link, navigate, useLocation } from '../../app/router';
import { downloadCsv } from '../../components/download';
import { ExportButton } from '../../components/export-button';
import { formatBrl, formatDateTime } from '../../components/format';
import { ErrorNote, Field, Loading, LoadMore, PageTitle } from '../../components/ui';
import { METHOD_LABELS, STATUS_LABELS, statusTone } from './labels';

export const SALES_PATH = '/vendas';
const PAGE_SIZE = 25;

/** Every filter of GET /api/transactions, as the address carries them (back button, shared links). */
export interface SalesFilters {
  status: string;
  paymentMethod: string;
  productId: string;
  customerId: string;
  from: string;
  to: string;
  search: string;
}

const QUERY_NAMES: Record<keyof SalesFilters, string> = {
  status: 'status',
  paymentMethod: 'forma',
  productId: 'produto',
  customerId: 'cliente',
  from: 'de',
  to: 'ate',
  search: 'busca',
};

function readFilters(query: URLSearchParams): SalesFilters {
  const get = (name: keyof SalesFilters) => query.get(QUERY_NAMES[name]) ?? '';
  return {
    status: get('status'),
    paymentMethod: get('paymentMethod'),
    productId: get('productId'),
    customerId: get('customerId'),
    from: get('from'),
    to: get('to'),
    search: get('search'),
  };
}

/** The filters as the API's query (the list and its export take the same one). */
export function apiQueryOf(f: SalesFilters) {
  const id = (v: string) => (/^\d+$/.test(v) ? Number(v) : undefined);
  return {
    status: (f.status || undefined) as keyof typeof STATUS_LABELS | undefined,
    paymentMethod: (f.paymentMethod || undefined) as keyof typeof METHOD_LABELS | undefined,
    productId: id(f.productId),
    customerId: id(f.customerId),
    from: f.from || undefined,
    to: f.to || undefined,
    search: f.search.trim() || undefined,
  };
}

/** Vendas: the transactions, newest first, every filter of the API, by cursor pages ("Carregar mais"). */
export function TransactionsView() {
  const { api } = useApp();
  const { query } = useLocation();
  const filters = readFilters(query);
  const apiQuery = apiQueryOf(filters);
  const list = useInfiniteQuery({
    queryKey: useKey('transactions', JSON.stringify(filters)),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      must(
        api.GET('/api/transactions', {
          params: { query: { ...apiQuery, limit: PAGE_SIZE, cursor: pageParam } },
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const rows = list.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <>
      <PageTitle lead="Todas as vendas, da mais nova à mais antiga. Abra uma para ver a linha do tempo, reembolsar ou cancelar.">
        Vendas
      </PageTitle>
      <SalesFilterForm initial={filters} />
      <ExportButton
        label="Exportar CSV"
        run={() => downloadCsv(api, '/api/transactions/export', apiQuery, 'transacoes')}
      />
      <ErrorNote error={list.error} portuguese />
      {list.isPending ? <Loading /> : null}
      {list.data && rows.length === 0 ? <p className="muted">Nenhuma venda encontrada.</p> : null}
      <ul className="list" aria-label="Vendas">
        {rows.map((t) => (
          <li key={t.id} className="item">
            <div>
              <p className="row spread wrap">
                <Link to={`${SALES_PATH}/${t.id}`}>
                  Venda {t.id} · {t.customer.name}
                </Link>
                <span className={statusTone(t.status)}>{STATUS_LABELS[t.status]}</span>
              </p>
              <dl className="facts">
                <dt>Valor</dt>
                <dd>{formatBrl(t.value)}</dd>
                <dt>Forma</dt>
                <dd>{METHOD_LABELS[t.paymentMethod]}</dd>
                <dt>Produto</dt>
                <dd>{t.product.name}</dd>
                <dt>Data</dt>
                <dd>{formatDateTime(t.createdAt)}</dd>
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

function SalesFilterForm({ initial }: { initial: SalesFilters }) {
  const { api } = useApp();
  const [filters, setFilters] = useState(initial);
  const ids = { status: useId(), method: useId(), product: useId() };
  const products = useQuery({
    queryKey: useKey('products', 'filter'),
    queryFn: () => must(api.GET('/api/products/seller', { params: { query: { limit: 100 } } })),
  });
  const set = (name: keyof SalesFilters) => (e: { target: { value: string } }) =>
    setFilters({ ...filters, [name]: e.target.value });
  const go = (next: SalesFilters) => {
    const query = new URLSearchParams();
    for (const name of Object.keys(QUERY_NAMES) as (keyof SalesFilters)[]) {
      const value = next[name].trim();
      if (value) query.set(QUERY_NAMES[name], value);
    }
    const search = query.toString();
    navigate(search ? `${SALES_PATH}?${search}` : SALES_PATH, { replace: true });
  };
  const apply = (event: FormEvent) => {
    event.preventDefault();
    go(filters);
  };
  const empty = {
    status: '',
    paymentMethod: '',
    productId: '',
    customerId: '',
    from: '',
    to: '',
    search: '',
  };
  return (
    <form className="card filters" onSubmit={apply} aria-label="Filtrar vendas">
      <Field
        label="Busca"
        type="search"
        value={filters.search}
        onChange={set('search')}
        hint="Nome, e-mail ou CPF/CNPJ do cliente"
      />
      <div className="field">
        <label htmlFor={ids.status}>Status</label>
        <select id={ids.status} value={filters.status} onChange={set('status')}>
          <option value="">Todos</option>
          {Object.entries(STATUS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.method}>Forma de pagamento</label>
        <select id={ids.method} value={filters.paymentMethod} onChange={set('paymentMethod')}>
          <option value="">Todas</option>
          {Object.entries(METHOD_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.product}>Produto</label>
        <select id={ids.product} value={filters.productId} onChange={set('productId')}>
          <option value="">Todos</option>
          {(products.data?.data ?? []).map((p) => (
            <option key={p.id} value={String(p.id)}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <Field
        label="Cliente (ID)"
        inputMode="numeric"
        pattern="[0-9]*"
        value={filters.customerId}
        onChange={set('customerId')}
      />
      <Field label="De" type="date" value={filters.from} onChange={set('from')} />
      <Field label="Até" type="date" value={filters.to} onChange={set('to')} />
      <div className="row">
        <button type="submit" className="primary">
          Filtrar
        </button>
        <button
          type="button"
          onClick={() => {
            setFilters(empty);
            go(empty);
          }}
        >
          Limpar filtros
        </button>
      </div>
    </form>
  );
}
