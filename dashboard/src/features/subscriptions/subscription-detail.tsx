import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link } from '../../app/router';
import { RoleNote, useCan } from '../../app/sellers';
import { formatBrl, formatDate, formatDateTime } from '../../components/format';
import { ConfirmAction, ErrorNote, Field, Loading, PageTitle } from '../../components/ui';
import { priceText, SubscriptionBadge } from './subscriptions';

type Subscription = Schemas['Subscription'];
type Action = 'cancelNow' | 'cancelAtPeriodEnd' | 'pause' | 'resume' | 'reactivate';

const EVENT_LABEL: Record<Schemas['SubscriptionEvent']['eventType'], string> = {
  'subscription.created': 'Assinatura criada',
  'subscription.activated': 'Assinatura ativada',
  trial_started: 'Teste grátis iniciado',
  trial_ended: 'Teste grátis encerrado',
  payment_success: 'Pagamento aprovado',
  payment_failed: 'Pagamento recusado',
  'subscription.paused': 'Cobranças pausadas',
  'subscription.resumed': 'Cobranças retomadas',
  'subscription.canceled': 'Assinatura cancelada',
  'subscription.expired': 'Assinatura encerrada',
};

const DONE: Record<Action, string> = {
  cancelNow: 'Assinatura cancelada: nada mais será cobrado.',
  cancelAtPeriodEnd: 'Cancelamento agendado para o fim do período.',
  pause: 'Cobranças pausadas: os períodos passam sem cobrança.',
  resume: 'Cobranças retomadas: a próxima é no fim do período atual.',
  reactivate: 'Assinatura reativada.',
};

/** What an event's data says, in a line: the amount of a payment, the reason of a cancellation. */
function eventDetail(data: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof data.amount === 'number') parts.push(formatBrl(data.amount));
  if (typeof data.transactionId === 'number' || typeof data.transactionId === 'string')
    parts.push(`transação ${data.transactionId}`);
  if (typeof data.trialDays === 'number' && data.trialDays > 0) parts.push(`${data.trialDays} dias de teste`);
  if (typeof data.reason === 'string') parts.push(`motivo: ${data.reason}`);
  if (typeof data.failureCode === 'string') parts.push(`código ${data.failureCode}`);
  return parts.join(' · ');
}

/** The actions the state allows (the API refuses the others with 409 anyway). */
function actionsOf(s: Subscription): Action[] {
  if (s.status === 'active')
    return [s.pauseCollection ? 'resume' : 'pause', 'cancelAtPeriodEnd', 'cancelNow'];
  if (s.status === 'pending_cancellation') return ['reactivate', 'cancelNow'];
  if (s.status === 'canceled' || s.status === 'failed') return ['reactivate'];
  return ['cancelNow'];
}

const ASK: Record<Action, { label: string; question: string; confirm: string; plain: boolean }> = {
  pause: {
    label: 'Pausar cobranças',
    question: 'Pausar? Os períodos seguem sem cobrança até você retomar.',
    confirm: 'Sim, pausar',
    plain: true,
  },
  resume: {
    label: 'Retomar cobranças',
    question: 'Retomar? A próxima cobrança é no fim do período atual.',
    confirm: 'Sim, retomar',
    plain: true,
  },
  reactivate: {
    label: 'Reativar assinatura',
    question: 'Reativar? Se o período pago já acabou, o cartão salvo é cobrado agora.',
    confirm: 'Sim, reativar',
    plain: true,
  },
  cancelAtPeriodEnd: {
    label: 'Cancelar no fim do período',
    question: 'Cancelar no fim do período? O cliente mantém o acesso até lá, sem novas cobranças.',
    confirm: 'Sim, cancelar no fim do período',
    plain: false,
  },
  cancelNow: {
    label: 'Cancelar agora',
    question: 'Cancelar agora? Nada mais será cobrado e o acesso termina hoje.',
    confirm: 'Sim, cancelar agora',
    plain: false,
  },
};

/** A subscription and its history (two requests), with the actions its state allows. */
export function SubscriptionDetailView({ id }: { id: string }) {
  const { api, environment } = useApp();
  const client = useQueryClient();
  const key = useKey('subscriptions', id);
  const path = { params: { path: { id } } };
  const subscription = useQuery({
    queryKey: key,
    queryFn: () => must(api.GET('/api/subscriptions/{id}', path)),
  });
  const events = useQuery({
    queryKey: useKey('subscriptions', id, 'events'),
    queryFn: () => must(api.GET('/api/subscriptions/{id}/events', path)),
  });
  const [reason, setReason] = useState('');
  const canWrite = useCan('write');
  const act = useMutation({
    mutationFn: (action: Action) => {
      switch (action) {
        case 'cancelNow':
        case 'cancelAtPeriodEnd': {
          const body = {
            atPeriodEnd: action === 'cancelAtPeriodEnd',
            ...(reason.trim() ? { reason: reason.trim() } : {}),
          };
          return must(api.POST('/api/subscriptions/{id}/cancel', { ...path, body }));
        }
        case 'pause':
          return must(api.POST('/api/subscriptions/{id}/pause', path));
        case 'resume':
          return must(api.POST('/api/subscriptions/{id}/resume', path));
        case 'reactivate':
          return must(api.POST('/api/subscriptions/{id}/reactivate', path));
      }
    },
    onSuccess: (answer) => {
      setReason('');
      client.setQueryData(key, answer);
      void client.invalidateQueries({ queryKey: [environment, 'subscriptions'] });
    },
  });

  const back = (
    <p>
      <Link to="/assinaturas">Voltar para Assinaturas</Link>
    </p>
  );
  if (subscription.isPending) return <Loading />;
  if (!subscription.data)
    return (
      <>
        {back}
        <PageTitle>Assinatura</PageTitle>
        <ErrorNote error={subscription.error} />
      </>
    );
  const s = subscription.data;
  return (
    <>
      {back}
      <PageTitle lead={<SubscriptionBadge s={s} />}>{`Assinatura ${s.id} · ${s.customer.name}`}</PageTitle>
      {act.isSuccess && act.variables ? <output className="status">{DONE[act.variables]}</output> : null}
      <section className="card" aria-labelledby="subscription-facts">
        <h2 id="subscription-facts">Resumo</h2>
        <dl className="facts">
          <dt>Cliente</dt>
          <dd>{s.customer.name}</dd>
          <dt>E-mail</dt>
          <dd>{s.customer.email}</dd>
          <dt>Produto</dt>
          <dd>
            <Link to={`/produtos/${s.subscriptionPrice.product.id}`}>{s.subscriptionPrice.product.name}</Link>
          </dd>
          <dt>Plano</dt>
          <dd>
            {s.subscriptionPrice.name}: {priceText(s)}
          </dd>
          <dt>Pagamento</dt>
          <dd>
            {s.collectionMethod === 'pix_automatic'
              ? 'Pix Automático'
              : s.paymentMethod
                ? `Cartão ${s.paymentMethod.cardBrand.charAt(0).toUpperCase()}${s.paymentMethod.cardBrand.slice(1)} final ${s.paymentMethod.cardLast4}`
                : '—'}
          </dd>
          <dt>Período atual</dt>
          <dd>
            {formatDate(s.currentPeriodStart)} a {formatDate(s.currentPeriodEnd)}
          </dd>
          {s.trialEndsAt ? (
            <>
              <dt>Teste grátis até</dt>
              <dd>{formatDate(s.trialEndsAt)}</dd>
            </>
          ) : null}
          {s.status === 'active' || s.status === 'pending' ? (
            <>
              <dt>Próxima cobrança</dt>
              <dd>
                {s.pauseCollection
                  ? `Pausada desde ${formatDate(s.pauseCollection.pausedAt)}`
                  : formatDate(s.nextPaymentAt)}
              </dd>
            </>
          ) : null}
          {s.cancelAtPeriodEnd || s.cancelAt ? (
            <>
              <dt>Termina em</dt>
              <dd>{formatDate(s.cancelAt ?? s.currentPeriodEnd)}</dd>
            </>
          ) : null}
          {s.cancelReason && s.status !== 'active' ? (
            <>
              <dt>Motivo</dt>
              <dd>{s.cancelReason}</dd>
            </>
          ) : null}
          {s.cancelledAt ? (
            <>
              <dt>Cancelada em</dt>
              <dd>{formatDateTime(s.cancelledAt)}</dd>
            </>
          ) : null}
          <dt>Períodos pagos</dt>
          <dd>{s.billingCycle}</dd>
          <dt>Falhas seguidas</dt>
          <dd>{s.failedPaymentCount}</dd>
          <dt>Último pagamento</dt>
          <dd>{formatDateTime(s.lastPaymentAt)}</dd>
          <dt>Criada em</dt>
          <dd>{formatDateTime(s.createdAt)}</dd>
        </dl>
        <RoleNote access="write" what="assinaturas são canceladas, pausadas e retomadas" />
        {canWrite && actionsOf(s).includes('cancelNow') ? (
          <Field
            label="Motivo do cancelamento (opcional)"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={500}
            hint="Fica no histórico da assinatura."
          />
        ) : null}
        <div className="row wrap actions">
          {(canWrite ? actionsOf(s) : []).map((action) => (
            <ConfirmAction
              key={action}
              label={ASK[action].label}
              question={ASK[action].question}
              confirmLabel={ASK[action].confirm}
              plain={ASK[action].plain}
              busy={act.isPending}
              onConfirm={() => act.mutate(action)}
            />
          ))}
        </div>
        <ErrorNote error={act.error} />
      </section>
      <section aria-labelledby="subscription-history">
        <h2 id="subscription-history">Histórico</h2>
        {events.isPending ? <Loading /> : null}
        <ErrorNote error={events.error} />
        <ol className="list">
          {events.data?.map((e) => (
            <li key={e.id} className="item">
              <div>
                <strong>
                  {e.eventType === 'subscription.canceled' && e.eventData.atPeriodEnd === true
                    ? 'Cancelamento agendado para o fim do período'
                    : EVENT_LABEL[e.eventType]}
                </strong>
                <p className="muted">
                  {formatDateTime(e.createdAt)}
                  {eventDetail(e.eventData) ? ` · ${eventDetail(e.eventData)}` : ''}
                </p>
              </div>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
