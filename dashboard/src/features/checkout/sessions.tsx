import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link } from '../../app/router';
import { useCan } from '../../app/sellers';
import { formatDateTime } from '../../components/format';
import { ConfirmAction, CopyButton, ErrorNote, Field, Loading, Pager, PageTitle } from '../../components/ui';
import { maskDocument } from '../auth/document-mask';

type Session = Schemas['CheckoutSession'];
type Status = Session['status'];
export const SESSION_STATUS: Record<Status, string> = {
  open: 'Aberta',
  complete: 'Paga',
  expired: 'Expirada',
};
const BADGE: Record<Status, string> = { open: 'pending', complete: 'succeeded', expired: '' };

function StatusBadge({ status }: { status: Status }) {
  return <span className={`badge ${BADGE[status]}`}>{SESSION_STATUS[status]}</span>;
}

/** The seller's products by id, for the names the lists show and the product filter (one request). */
export function useProductNames() {
  const { api } = useApp();
  return useQuery({
    queryKey: useKey('products', 'names'),
    queryFn: async () => {
      const page = await must(
        api.GET('/api/products/seller', { params: { query: { tab: 'all', limit: 100 } } }),
      );
      return page.data.map((p) => ({ id: p.id, name: p.name }));
    },
  });
}

/** Checkout sessions, newest first, with the API's filters: sessions and product names, two requests. */
export function CheckoutSessionsView() {
  const { api } = useApp();
  const products = useProductNames();
  const [status, setStatus] = useState<Status | ''>('');
  const [productId, setProductId] = useState('');
  const [email, setEmail] = useState('');
  const [page, setPage] = useState(1);
  const query = {
    page,
    limit: 20,
    ...(status ? { status } : {}),
    ...(productId ? { product_id: Number(productId) } : {}),
    ...(email.trim() ? { customer_email: email.trim() } : {}),
  };
  const sessions = useQuery({
    queryKey: useKey('checkout-sessions', JSON.stringify(query)),
    queryFn: () => must(api.GET('/api/checkout/sessions', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const nameOf = (id: number) => products.data?.find((p) => p.id === id)?.name ?? `Produto ${id}`;
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  return (
    <>
      <PageTitle lead="Páginas de pagamento que o seu sistema cria pela API, com os dados do comprador já preenchidos.">
        Sessões de checkout
      </PageTitle>
      <div className="filters list-filters">
        <div className="field">
          <label htmlFor="sessions-status">Situação</label>
          <select
            id="sessions-status"
            value={status}
            onChange={(e) => reset(setStatus)(e.target.value as Status | '')}
          >
            <option value="">Todas</option>
            {Object.entries(SESSION_STATUS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="sessions-product">Produto</label>
          <select
            id="sessions-product"
            value={productId}
            onChange={(e) => reset(setProductId)(e.target.value)}
          >
            <option value="">Todos</option>
            {products.data?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <Field
          label="E-mail do comprador"
          type="search"
          value={email}
          onChange={(e) => reset(setEmail)(e.target.value)}
          maxLength={254}
        />
      </div>
      {sessions.isPending ? <Loading /> : null}
      <ErrorNote error={sessions.error} />
      {sessions.data && sessions.data.data.length === 0 ? (
        <p className="muted">Nenhuma sessão com estes filtros.</p>
      ) : null}
      <ul className="list">
        {sessions.data?.data.map((s) => (
          <li key={s.id} className="item">
            <div>
              <Link to={`/sessoes/${s.id}`}>
                <code>{s.id}</code>
              </Link>{' '}
              <StatusBadge status={s.status} />
              <p>
                {nameOf(s.product_id)}
                {s.customer_email ? ` · ${s.customer_email}` : ''}
              </p>
              <p className="muted">
                Criada em {formatDateTime(s.created_at)} ·{' '}
                {s.status === 'complete'
                  ? `paga em ${formatDateTime(s.completed_at)}`
                  : `${s.status === 'open' ? 'expira' : 'expirou'} em ${formatDateTime(s.expires_at)}`}
              </p>
            </div>
          </li>
        ))}
      </ul>
      {sessions.data ? <Pager page={page} totalPages={sessions.data.totalPages} onPage={setPage} /> : null}
    </>
  );
}

const PREFILL_LABELS: [keyof Session['customer'], string][] = [
  ['customer.name', 'Nome'],
  ['customer.email', 'E-mail'],
  ['customer.document', 'CPF/CNPJ'],
  ['customer.phone', 'Telefone'],
  ['customer.zip_code', 'CEP'],
  ['customer.city', 'Cidade'],
  ['customer.state', 'UF'],
];
const METHOD_LABEL: Record<string, string> = {
  pix: 'Pix',
  boleto: 'Boleto',
  card: 'Cartão',
  creditcard: 'Cartão',
};

/** One session: what it sells, to whom, its addresses and its end; expire while open (the session and product names: two requests). */
export function CheckoutSessionDetailView({ id }: { id: string }) {
  const { api, environment } = useApp();
  const client = useQueryClient();
  const key = useKey('checkout-sessions', id);
  const products = useProductNames();
  const session = useQuery({
    queryKey: key,
    queryFn: () => must(api.GET('/api/checkout/sessions/{id}', { params: { path: { id } } })),
  });
  const canWrite = useCan('write');
  const expire = useMutation({
    mutationFn: () => must(api.POST('/api/checkout/sessions/{id}/expire', { params: { path: { id } } })),
    onSuccess: (answer) => {
      client.setQueryData(key, answer);
      void client.invalidateQueries({ queryKey: [environment, 'checkout-sessions'] });
    },
  });

  const back = (
    <p>
      <Link to="/sessoes">Voltar para Sessões de checkout</Link>
    </p>
  );
  if (session.isPending) return <Loading />;
  if (!session.data)
    return (
      <>
        {back}
        <PageTitle>Sessão de checkout</PageTitle>
        <ErrorNote error={session.error} />
      </>
    );
  const s = session.data.data;
  const prefill = PREFILL_LABELS.filter(([field]) => s.customer[field]);
  return (
    <>
      {back}
      <PageTitle
        lead={
          <>
            <StatusBadge status={s.status} /> <code className="wrap-anywhere">{s.id}</code>
          </>
        }
      >
        Sessão de checkout
      </PageTitle>
      {expire.isSuccess ? (
        <output className="status">Sessão expirada: a página não aceita mais pagamentos.</output>
      ) : null}
      <section className="card" aria-labelledby="session-facts">
        <h2 id="session-facts">Resumo</h2>
        <dl className="facts">
          <dt>Produto</dt>
          <dd>
            <Link to={`/produtos/${s.product_id}`}>
              {products.data?.find((p) => p.id === s.product_id)?.name ?? `Produto ${s.product_id}`}
            </Link>
          </dd>
          {s.price_id ? (
            <>
              <dt>Preço de assinatura</dt>
              <dd>{s.price_id}</dd>
            </>
          ) : null}
          <dt>Formas de pagamento</dt>
          <dd>{s.payment_methods.map((m) => METHOD_LABEL[m] ?? m).join(', ') || 'As do produto'}</dd>
          <dt>Criada em</dt>
          <dd>{formatDateTime(s.created_at)}</dd>
          <dt>{{ open: 'Expira em', expired: 'Expirou em', complete: 'Prazo' }[s.status]}</dt>
          <dd>{formatDateTime(s.expires_at)}</dd>
          {s.completed_at ? (
            <>
              <dt>Paga em</dt>
              <dd>{formatDateTime(s.completed_at)}</dd>
            </>
          ) : null}
          {s.transaction_id ? (
            <>
              <dt>Transação</dt>
              <dd>{s.transaction_id}</dd>
            </>
          ) : null}
          {s.subscription_id ? (
            <>
              <dt>Assinatura</dt>
              <dd>
                <Link to={`/assinaturas/${s.subscription_id}`}>Assinatura {s.subscription_id}</Link>
              </dd>
            </>
          ) : null}
          {s.client_reference_id ? (
            <>
              <dt>Referência</dt>
              <dd>{s.client_reference_id}</dd>
            </>
          ) : null}
          {s.affiliate_id ? (
            <>
              <dt>Afiliado</dt>
              <dd>Vendedor {s.affiliate_id}</dd>
            </>
          ) : null}
        </dl>
        {s.status === 'open' ? (
          <div className="row wrap">
            <CopyButton value={s.url} label="Copiar link da sessão" />
            <a className="button" href={s.url} target="_blank" rel="noopener noreferrer">
              Abrir a página (nova aba)
            </a>
            {canWrite ? (
              <ConfirmAction
                label="Expirar sessão"
                question="Expirar esta sessão? O comprador não conseguirá mais pagar por ela."
                confirmLabel="Sim, expirar"
                busy={expire.isPending}
                onConfirm={() => expire.mutate()}
              />
            ) : null}
          </div>
        ) : null}
        <ErrorNote error={expire.error} />
      </section>
      <section className="card" aria-labelledby="session-buyer">
        <h2 id="session-buyer">Comprador</h2>
        {prefill.length === 0 ? (
          <p className="muted">Sem dados preenchidos: o comprador informa na página.</p>
        ) : (
          <dl className="facts">
            {prefill.map(([field, label]) => (
              <Fragment key={field}>
                <dt>{label}</dt>
                <dd>
                  {field === 'customer.document' ? maskDocument(s.customer[field] ?? '') : s.customer[field]}
                </dd>
              </Fragment>
            ))}
          </dl>
        )}
      </section>
      <section className="card" aria-labelledby="session-urls">
        <h2 id="session-urls">Endereços e metadados</h2>
        <dl className="facts">
          <dt>Depois de pagar</dt>
          <dd>{s.success_url ?? '—'}</dd>
          <dt>Ao desistir</dt>
          <dd>{s.cancel_url ?? '—'}</dd>
        </dl>
        {Object.keys(s.metadata).length > 0 ? (
          <pre className="excerpt">
            <code>{JSON.stringify(s.metadata, null, 2)}</code>
          </pre>
        ) : (
          <p className="muted">Sem metadados.</p>
        )}
      </section>
    </>
  );
}
