import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link } from '../../app/router';
import { formatDate } from '../../components/format';
import { ErrorNote, Field, Loading, Pager, PageTitle } from '../../components/ui';
import { useProductNames } from '../checkout/sessions';
import { recurringText } from '../products/prices';

type Subscription = Schemas['Subscription'];
type Status = Subscription['status'];

export const SUBSCRIPTION_STATUS: Record<Status, string> = {
  pending: 'Pendente',
  active: 'Ativa',
  pending_cancellation: 'Cancelamento agendado',
  canceled: 'Cancelada',
  failed: 'Suspensa por falha',
};

/** The state a seller reads: the API's status, told apart when collection is paused or in a trial. */
export function SubscriptionBadge({ s }: { s: Subscription }) {
  if (s.status === 'active' && s.pauseCollection) return <span className="badge pending">Pausada</span>;
  if (s.status === 'active' && s.trialEndsAt && s.billingCycle === 0)
    return <span className="badge enabled">Em teste grátis</span>;
  const tone = {
    active: 'enabled',
    pending: 'pending',
    pending_cancellation: 'pending',
    canceled: '',
    failed: 'failed',
  };
  return <span className={`badge ${tone[s.status]}`}>{SUBSCRIPTION_STATUS[s.status]}</span>;
}

export const priceText = (s: Subscription) =>
  recurringText(
    s.subscriptionPrice.unitAmount,
    s.subscriptionPrice.billingInterval,
    s.subscriptionPrice.intervalCount,
  );

/** Subscriptions, newest first, filtered by status, product and customer: subscriptions and product names, two requests. */
export function SubscriptionsView() {
  const { api } = useApp();
  const products = useProductNames();
  const [status, setStatus] = useState<Status | ''>('');
  const [productId, setProductId] = useState('');
  const [customerId, setCustomerId] = useState('');
  const [page, setPage] = useState(1);
  const query = {
    page,
    limit: 20,
    ...(status ? { status } : {}),
    ...(productId ? { productId: Number(productId) } : {}),
    ...(customerId ? { customerId: Number(customerId) } : {}),
  };
  const subscriptions = useQuery({
    queryKey: useKey('subscriptions', JSON.stringify(query)),
    queryFn: () => must(api.GET('/api/subscriptions', { params: { query } })),
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <PageTitle lead="Clientes que pagam um preço de assinatura a cada período.">Assinaturas</PageTitle>
      <div className="filters list-filters">
        <div className="field">
          <label htmlFor="subscriptions-status">Situação</label>
          <select
            id="subscriptions-status"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as Status | '');
              setPage(1);
            }}
          >
            <option value="">Todas</option>
            {Object.entries(SUBSCRIPTION_STATUS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="subscriptions-product">Produto</label>
          <select
            id="subscriptions-product"
            value={productId}
            onChange={(e) => {
              setProductId(e.target.value);
              setPage(1);
            }}
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
          label="Id do cliente"
          inputMode="numeric"
          pattern="[0-9]*"
          value={customerId}
          onChange={(e) => {
            setCustomerId(e.target.value.replace(/\D/g, ''));
            setPage(1);
          }}
        />
      </div>
      {subscriptions.isPending ? <Loading /> : null}
      <ErrorNote error={subscriptions.error ?? products.error} />
      {subscriptions.data && subscriptions.data.data.length === 0 ? (
        <p className="muted">Nenhuma assinatura com estes filtros.</p>
      ) : null}
      <ul className="list">
        {subscriptions.data?.data.map((s) => (
          <li key={s.id} className="item">
            <div>
              <Link to={`/assinaturas/${s.id}`}>
                {s.customer.name} · {s.subscriptionPrice.product.name}
              </Link>{' '}
              <SubscriptionBadge s={s} />
              <p>
                {s.subscriptionPrice.name}: {priceText(s)}
              </p>
              <p className="muted">
                {s.customer.email} ·{' '}
                {s.status === 'pending_cancellation'
                  ? `termina em ${formatDate(s.cancelAt ?? s.currentPeriodEnd)}`
                  : s.nextPaymentAt && !s.pauseCollection
                    ? `próxima cobrança em ${formatDate(s.nextPaymentAt)}`
                    : `desde ${formatDate(s.createdAt)}`}
              </p>
            </div>
          </li>
        ))}
      </ul>
      {subscriptions.data ? (
        <Pager page={page} totalPages={subscriptions.data.totalPages} onPage={setPage} />
      ) : null}
    </>
  );
}
