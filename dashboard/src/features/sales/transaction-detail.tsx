import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link } from '../../app/router';
import { useCan } from '../../app/sellers';
import { formatBrl, formatDateTime } from '../../components/format';
import { MoneyField } from '../../components/money-field';
import { ConfirmAction, ErrorNote, Field, Loading, PageTitle } from '../../components/ui';
import { DeliveryItem } from '../developers/endpoint-detail';
import { eventSentence } from '../developers/event-sentences';
import { METHOD_LABELS, PAID, PENDING, STATUS_LABELS, statusTone } from './labels';
import { SALES_PATH } from './transactions';

type Transaction = Schemas['Transaction'];
type Timeline = Schemas['TransactionTimeline'];

const STEP_LABELS: Record<Timeline['statusChanges'][number]['step'], string> = {
  created: 'Venda criada',
  paid: 'Pagamento confirmado',
  failed: 'Pagamento recusado',
  refunded: 'Reembolso',
  canceled: 'Cancelada',
  chargeback_opened: 'Chargeback aberto',
  chargeback_won: 'Chargeback revertido',
};

/** A sale: its facts, the provider's ids, its timeline, and refund or cancel. Two requests. */
export function TransactionDetailView({ id }: { id: string }) {
  const { api } = useApp();
  const key = useKey('transaction', id);
  const transaction = useQuery({
    queryKey: key,
    queryFn: () => must(api.GET('/api/transactions/{id}', { params: { path: { id } } })),
  });
  const timeline = useQuery({
    queryKey: [...key, 'timeline'],
    queryFn: () => must(api.GET('/api/transactions/{id}/timeline', { params: { path: { id } } })),
  });
  const t = transaction.data;
  // Kept here: a refund of everything left or a cancel removes the form that made it.
  const [result, setResult] = useState('');
  return (
    <>
      <PageTitle lead={t ? `${t.customer.name} · ${t.product.name}` : undefined}>{`Venda ${id}`}</PageTitle>
      <p>
        <Link to={SALES_PATH}>Voltar para as vendas</Link>
      </p>
      <ErrorNote error={transaction.error} portuguese />
      {transaction.isPending ? <Loading /> : null}
      {t ? (
        <>
          <Facts t={t} />
          <p className="muted" aria-live="polite">
            {result}
          </p>
          <Actions t={t} onResult={setResult} />
        </>
      ) : null}
      <ErrorNote error={timeline.error} portuguese />
      {timeline.data ? <TimelineSection timeline={timeline.data} /> : null}
    </>
  );
}

function Facts({ t }: { t: Transaction }) {
  return (
    <section className="card" aria-labelledby="resumo">
      <h2 id="resumo">
        Resumo <span className={statusTone(t.status)}>{STATUS_LABELS[t.status]}</span>
      </h2>
      <dl className="facts">
        <dt>Valor</dt>
        <dd>{formatBrl(t.value)}</dd>
        <dt>Líquido</dt>
        <dd>{formatBrl(t.valueSeller)}</dd>
        <dt>Reembolsado</dt>
        <dd>{formatBrl(t.refundedAmount)}</dd>
        <dt>Forma de pagamento</dt>
        <dd>
          {METHOD_LABELS[t.paymentMethod]}
          {t.installments && t.installments > 1 ? ` em ${t.installments}x` : ''}
          {t.card ? ` · ${t.card.brand} final ${t.card.last4}` : ''}
        </dd>
        <dt>Criada em</dt>
        <dd>{formatDateTime(t.createdAt)}</dd>
        <dt>Paga em</dt>
        <dd>{formatDateTime(t.paidAt)}</dd>
        <dt>Cliente</dt>
        <dd>
          <Link to={`${SALES_PATH}?cliente=${t.customer.id}`}>{t.customer.name}</Link> · {t.customer.email}
        </dd>
        <dt>Produto</dt>
        <dd>{t.product.name}</dd>
        {t.failureReason ? (
          <>
            <dt>Motivo da recusa</dt>
            <dd>{t.failureReason}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** Refund (a paid sale with something left) or cancel (a pending pix or boleto), each confirmed first. */
function Actions({ t, onResult }: { t: Transaction; onResult: (text: string) => void }) {
  const remaining = Math.round((t.value - t.refundedAmount) * 100);
  // A viewer reads the sale but is offered no action (the API refuses them too: 403 role_forbidden).
  const mayAct = useCan('write');
  const canRefund = mayAct && PAID.includes(t.status) && remaining > 0;
  const canCancel = mayAct && PENDING.includes(t.status);
  if (!canRefund && !canCancel) return null;
  return (
    <section className="card" aria-labelledby="acoes">
      <h2 id="acoes">Ações</h2>
      {canRefund ? <RefundForm t={t} remaining={remaining} onResult={onResult} /> : null}
      {canCancel ? <CancelAction t={t} onResult={onResult} /> : null}
    </section>
  );
}

function useRefresh(id: number) {
  const queryClient = useQueryClient();
  const key = useKey('transaction', String(id));
  const list = useKey('transactions');
  return () => {
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: list });
  };
}

function RefundForm(props: { t: Transaction; remaining: number; onResult: (text: string) => void }) {
  const { t, remaining, onResult } = props;
  const { api } = useApp();
  const refresh = useRefresh(t.id);
  const [kind, setKind] = useState<'total' | 'partial'>('total');
  const [amount, setAmount] = useState(0);
  const [reason, setReason] = useState('');
  const [asking, setAsking] = useState<number | null>(null);
  const refund = useMutation({
    mutationFn: (centavos: number) =>
      must(
        api.POST('/api/transactions/{id}/refund', {
          params: { path: { id: String(t.id) } },
          body: {
            ...(kind === 'partial' ? { amount: centavos / 100 } : {}),
            ...(reason.trim() ? { reason: reason.trim() } : {}),
          },
        }),
      ),
    onSuccess: (_, centavos) => {
      onResult(`Reembolso de ${formatBrl(centavos / 100)} registrado.`);
      setAsking(null);
      setAmount(0);
      refresh();
    },
    onError: () => setAsking(null),
  });
  const ask = (event: FormEvent) => {
    event.preventDefault();
    onResult('');
    refund.reset();
    setAsking(kind === 'total' ? remaining : amount);
  };
  return (
    <form onSubmit={ask} aria-label="Reembolsar" className="stack">
      <fieldset>
        <legend>Reembolso (ainda reembolsável: {formatBrl(remaining / 100)})</legend>
        <label className="check">
          <input
            type="radio"
            name="refund-kind"
            checked={kind === 'total'}
            onChange={() => setKind('total')}
          />
          Total
        </label>
        <label className="check">
          <input
            type="radio"
            name="refund-kind"
            checked={kind === 'partial'}
            onChange={() => setKind('partial')}
          />
          Parcial
        </label>
      </fieldset>
      {kind === 'partial' ? (
        <MoneyField label="Valor do reembolso" centavos={amount} onChange={setAmount} required />
      ) : null}
      <Field
        label="Motivo (opcional)"
        value={reason}
        maxLength={500}
        onChange={(e) => setReason(e.target.value)}
      />
      {asking === null ? (
        <p>
          <button type="submit" className="danger">
            Reembolsar
          </button>
        </p>
      ) : (
        <p className="confirm">
          <span>Reembolsar {formatBrl(asking / 100)} ao cliente? Isso não pode ser desfeito.</span>
          <button
            type="button"
            className="danger"
            disabled={refund.isPending}
            onClick={() => refund.mutate(asking)}
          >
            Confirmar reembolso
          </button>
          <button type="button" onClick={() => setAsking(null)}>
            Voltar
          </button>
        </p>
      )}
      <ErrorNote error={refund.error} portuguese />
    </form>
  );
}

function CancelAction({ t, onResult }: { t: Transaction; onResult: (text: string) => void }) {
  const { api } = useApp();
  const refresh = useRefresh(t.id);
  const cancel = useMutation({
    mutationFn: () =>
      must(api.DELETE('/api/transactions/{id}', { params: { path: { id: String(t.gatewayPayId) } } })),
    onSuccess: () => {
      onResult('Cobrança cancelada.');
      refresh();
    },
  });
  const what = t.paymentMethod === 'pix' ? 'o pix' : 'o boleto';
  return (
    <div className="stack">
      <p>Cancelar a cobrança: {what} deixa de poder ser pago.</p>
      <ConfirmAction
        label="Cancelar cobrança"
        question={`Cancelar esta cobrança de ${formatBrl(t.value)}?`}
        confirmLabel="Confirmar cancelamento"
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
      />
      <ErrorNote error={cancel.error} portuguese />
    </div>
  );
}

function TimelineSection({ timeline }: { timeline: Timeline }) {
  const p = timeline.provider;
  return (
    <>
      <section className="card" aria-labelledby="provedor">
        <h2 id="provedor">No provedor de pagamento</h2>
        <dl className="facts">
          <dt>Provedor</dt>
          <dd>{p.name}</dd>
          <dt>ID no provedor</dt>
          <dd>
            <code>{p.gatewayPayId}</code>
          </dd>
          {p.pixTxid ? (
            <>
              <dt>Txid do pix</dt>
              <dd>
                <code>{p.pixTxid}</code>
              </dd>
            </>
          ) : null}
          {p.boletoBarcode ? (
            <>
              <dt>Código de barras</dt>
              <dd>
                <code>{p.boletoBarcode}</code>
              </dd>
            </>
          ) : null}
        </dl>
      </section>
      <section className="card" aria-labelledby="linha-do-tempo">
        <h2 id="linha-do-tempo">Linha do tempo</h2>
        <ol className="list" aria-label="Mudanças de status">
          {timeline.statusChanges.map((s) => (
            <li key={`${s.step}-${s.at}`} className="item">
              <div>
                <p>
                  <strong>{STEP_LABELS[s.step]}</strong>
                  {s.amount !== null ? ` · ${formatBrl(s.amount)}` : ''}
                </p>
                <p className="muted">
                  {formatDateTime(s.at)}
                  {s.detail ? ` · ${s.detail}` : ''}
                </p>
              </div>
            </li>
          ))}
        </ol>
        <h3>Eventos e webhooks</h3>
        {timeline.events.length === 0 ? <p className="muted">Nenhum evento nos últimos 30 dias.</p> : null}
        <ol className="list" aria-label="Eventos">
          {timeline.events.map((e) => (
            <li key={e.id} className="item">
              <div>
                <p>
                  <Link to={`/desenvolvedores/eventos/${e.id}`}>
                    <code>{e.event}</code>
                  </Link>{' '}
                  <span className="muted">{eventSentence(e.event)}</span>
                </p>
                <p className="muted">{formatDateTime(e.timestamp)}</p>
                {e.deliveries.length === 0 ? (
                  <p className="muted">Nenhum webhook recebeu este evento.</p>
                ) : (
                  <ul className="list" aria-label={`Entregas de ${e.event}`}>
                    {e.deliveries.map((d) => (
                      <DeliveryItem key={d.id} delivery={d} link="endpoint" />
                    ))}
                  </ul>
                )}
              </div>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
