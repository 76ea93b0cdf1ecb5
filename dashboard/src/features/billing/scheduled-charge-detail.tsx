import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link, useLocation } from '../../app/router';
import { RoleNote, useCan } from '../../app/sellers';
import { formatBrl, formatDateTime, formatDay, todayInSaoPaulo } from '../../components/format';
import { ErrorNote, Field, Loading, PageTitle } from '../../components/ui';
import { CHARGE_STATUS, ConfirmForm, METHOD_LABEL, StatusBadge } from './common';
import { termsText } from './late-charges';
import { REMINDERS_PATH, stepWhen } from './reminder-labels';
import { CHARGES_PATH } from './scheduled-charges';

type Detail = Schemas['ScheduledChargeDetail'];
type Cycle = Detail['cycles'][number];

const OPEN = ['scheduled', 'due_today', 'overdue'];
const MARKABLE_CYCLE = ['due_today', 'overdue', 'failed'];
const CLOSED = ['paid', 'canceled', 'recurrence_canceled'];

const TIMELINE_LABEL: Record<string, string> = {
  created: 'Cobrança criada',
  updated: 'Cobrança alterada',
  due_today: 'Vence hoje',
  overdue: 'Venceu sem pagamento',
  reminder_sent: 'Lembrete enviado',
  reminder_failed: 'Lembrete não entregue',
  reminder_skipped: 'Lembrete não enviado',
  issued: 'Pix ou boleto emitido',
  paid: 'Pagamento recebido',
  manually_marked_paid: 'Marcada como paga manualmente',
  postponed: 'Vencimento adiado',
  payment_failed: 'Pagamento recusado',
  cycle_failed: 'Ciclo sem pagamento após as tentativas',
  canceled: 'Cobrança cancelada',
  recurrence_canceled: 'Recorrência cancelada',
  cancel_at_period_end_set: 'Termina após o ciclo atual',
  cancel_at_period_end_cleared: 'Continua após o ciclo atual',
  paused: 'Cobrança pausada',
  resumed: 'Cobrança retomada',
  payment_method_attached: 'Cartão salvo',
  payment_method_changed: 'Cartão trocado',
  payment_method_cleared: 'Cartão removido',
  trial_started: 'Período de teste iniciado',
  trial_converted: 'Período de teste convertido',
};
const CHANNEL: Record<string, string> = { email: 'E-mail', whatsapp: 'WhatsApp', sms: 'SMS' };
const SKIP_REASON: Record<string, string> = {
  opted_out: 'o cliente pediu para não receber por este canal',
  channel_disabled: 'canal desativado na régua de cobrança',
  no_mobile_phone: 'o cliente não tem celular cadastrado',
};
const REMINDER_KINDS = ['reminder_sent', 'reminder_failed', 'reminder_skipped'];

/** A step's key on the timeline (`before_3`, `due`, `after_1`) as the régua says it. */
function stageText(stage: unknown): string {
  if (typeof stage !== 'string') return '';
  if (stage === 'due') return stepWhen(0);
  const m = stage.match(/^(before|after)_(\d+)$/);
  return m ? stepWhen((m[1] === 'before' ? -1 : 1) * Number(m[2])) : stage;
}

const ATTEMPT_STATUS: Record<string, string> = {
  pending: 'Aguardando',
  succeeded: 'Aprovada',
  declined: 'Recusada',
  canceled: 'Cancelada',
  errored: 'Erro técnico',
};

/** A scheduled charge: its actions, cycles, card attempts and timeline. Two requests. */
export function ScheduledChargeDetailView({ id }: { id: string }) {
  const { api, environment } = useApp();
  const client = useQueryClient();
  const created = useLocation().query.get('criada') === '1';
  const key = useKey('scheduled-charges', 'detail', id);
  const charge = useQuery({
    queryKey: key,
    queryFn: () => must(api.GET('/api/v1/scheduled-charges/{id}', { params: { path: { id } } })),
  });
  const attempts = useQuery({
    queryKey: useKey('scheduled-charges', 'attempts', id),
    queryFn: () =>
      must(
        api.GET('/api/v1/scheduled-charges/{id}/attempts', {
          params: { path: { id }, query: { limit: 50 } },
        }),
      ),
  });
  const [result, setResult] = useState<string | null>(null);
  const canWrite = useCan('write');
  const path = { params: { path: { id } } };
  const action = useMutation({
    mutationFn: async (run: { call: () => Promise<unknown>; done: string }) => {
      await run.call();
      return run.done;
    },
    onMutate: () => setResult(null),
    onSuccess: async (done) => {
      setResult(done);
      await client.invalidateQueries({ queryKey: [environment, 'scheduled-charges'] });
    },
  });
  const run = (call: () => Promise<unknown>, done: string) => action.mutate({ call, done });

  if (charge.isPending) return <Loading />;
  if (!charge.data)
    return (
      <>
        <PageTitle>Cobrança</PageTitle>
        <ErrorNote error={charge.error} />
        <Link to={CHARGES_PATH}>Voltar para Cobranças agendadas</Link>
      </>
    );
  const c = charge.data;
  const recurring = c.type === 'recurring';
  const markable = c.cycles.filter((cycle) => MARKABLE_CYCLE.includes(cycle.status));
  const canMarkPaid = recurring ? markable.length > 0 : ['due_today', 'overdue'].includes(c.status);
  const canPostpone = [...OPEN, 'paused'].includes(c.status);
  const closed = CLOSED.includes(c.status);
  // The earliest open cycle: what the customer pays if they pay today.
  const dueNow = c.cycles.find((cycle) => OPEN.includes(cycle.status) && cycle.amountDue !== null);
  const reminders = c.timeline.filter((e) => REMINDER_KINDS.includes(e.kind));
  return (
    <>
      <p>
        <Link to={CHARGES_PATH}>Voltar para Cobranças agendadas</Link>
      </p>
      <PageTitle lead={c.id}>{`Cobrança de ${c.customer.name}`}</PageTitle>
      {created && !result ? <output className="status">Cobrança criada.</output> : null}
      <section className="card" aria-labelledby="charge-summary">
        <h2 id="charge-summary">Resumo</h2>
        <p>
          Situação: <StatusBadge status={c.status} labels={CHARGE_STATUS} />
          {c.pausedAt ? ' (pausada)' : ''}
        </p>
        <dl className="facts">
          <dt>Valor</dt>
          <dd>{formatBrl(c.amount)}</dd>
          <dt>Vencimento</dt>
          <dd>{formatDay(c.dueDate)}</dd>
          <dt>Tipo</dt>
          <dd>{recurring ? recurrenceText(c.recurrence) : 'Única'}</dd>
          <dt>Meios</dt>
          <dd>{c.methods.map((m) => METHOD_LABEL[m]).join(', ')}</dd>
          <dt>Cliente</dt>
          <dd>
            {c.customer.name} · {c.customer.email}
          </dd>
          <dt>Produto</dt>
          <dd>{c.product?.name ?? '—'}</dd>
          <dt>Descrição</dt>
          <dd>{c.description ?? '—'}</dd>
          <dt>Multa, juros e desconto</dt>
          <dd>{termsText(c) ?? 'Nenhum'}</dd>
          {dueNow ? (
            <>
              <dt>A pagar hoje</dt>
              <dd className="amount-due">
                <strong>{formatBrl(dueNow.amountDue)}</strong>
                {recurring ? ` (ciclo ${dueNow.cycleNumber})` : ''}
                {dueNow.amountDue !== null && dueNow.amountDue !== dueNow.amount
                  ? dueNow.amountDue > dueNow.amount
                    ? ' com multa e juros'
                    : ' com desconto'
                  : ''}
              </dd>
            </>
          ) : null}
          {c.paymentMethod ? (
            <>
              <dt>Cartão salvo</dt>
              <dd>
                {c.paymentMethod.cardBrand} final {c.paymentMethod.cardLast4}
              </dd>
            </>
          ) : null}
        </dl>
      </section>
      <section className="card stack" aria-labelledby="charge-actions">
        <h2 id="charge-actions">Ações</h2>
        {result ? <output className="status ok">{result}</output> : null}
        <ErrorNote error={action.error} />
        {!closed ? (
          <RoleNote access="write" what="cobranças são marcadas como pagas, adiadas, pausadas e canceladas" />
        ) : null}
        {canMarkPaid && canWrite ? (
          <MarkPaid
            charge={c}
            markable={markable}
            busy={action.isPending}
            onConfirm={(body) =>
              run(
                () => must(api.POST('/api/v1/scheduled-charges/{id}/mark-paid', { ...path, body })),
                recurring
                  ? `Pagamento do ciclo ${body.cycleNumber} registrado.`
                  : 'Pagamento registrado: a cobrança está paga.',
              )
            }
          />
        ) : null}
        {canPostpone && canWrite ? (
          <Postpone
            busy={action.isPending}
            onConfirm={(body) =>
              run(
                () => must(api.POST('/api/v1/scheduled-charges/{id}/postpone', { ...path, body })),
                `Vencimento adiado para ${formatDay(body.newDueDate)}.`,
              )
            }
          />
        ) : null}
        <div className="row wrap">
          {!closed && !c.pausedAt && canWrite ? (
            <ConfirmForm
              label="Pausar cobrança"
              question="Pausar? Nada é cobrado nem lembrado até você retomar."
              confirmLabel="Sim, pausar"
              busy={action.isPending}
              onConfirm={() =>
                run(() => must(api.POST('/api/v1/scheduled-charges/{id}/pause', path)), 'Cobrança pausada.')
              }
            />
          ) : null}
          {c.pausedAt && !closed && canWrite ? (
            <ConfirmForm
              label="Retomar cobrança"
              question="Retomar? O que venceu durante a pausa é cobrado em seguida."
              confirmLabel="Sim, retomar"
              busy={action.isPending}
              onConfirm={() =>
                run(() => must(api.POST('/api/v1/scheduled-charges/{id}/resume', path)), 'Cobrança retomada.')
              }
            />
          ) : null}
          {!closed && canWrite ? (
            <ConfirmForm
              danger
              label={recurring ? 'Cancelar recorrência' : 'Cancelar cobrança'}
              question="Cancelar? O pix e o boleto em aberto deixam de poder ser pagos."
              confirmLabel="Sim, cancelar"
              busy={action.isPending}
              onConfirm={() =>
                run(
                  () => must(api.POST('/api/v1/scheduled-charges/{id}/cancel', path)),
                  recurring ? 'Recorrência cancelada.' : 'Cobrança cancelada.',
                )
              }
            />
          ) : null}
        </div>
        {closed ? <p className="muted">Esta cobrança está encerrada: não há ações.</p> : null}
      </section>
      <section className="block" aria-labelledby="charge-cycles">
        <h2 id="charge-cycles">{recurring ? 'Ciclos' : 'Vencimento'}</h2>
        <ul className="list" aria-label="Ciclos da cobrança">
          {c.cycles.map((cycle) => (
            <CycleItem key={cycle.cycleId} cycle={cycle} />
          ))}
        </ul>
      </section>
      <section className="block" aria-labelledby="charge-attempts">
        <h2 id="charge-attempts">Tentativas de cobrança no cartão</h2>
        <ErrorNote error={attempts.error} />
        {attempts.isPending ? <Loading /> : null}
        {attempts.data && attempts.data.data.length === 0 ? (
          <p className="muted">Nenhuma tentativa no cartão.</p>
        ) : null}
        <ul className="list" aria-label="Tentativas">
          {attempts.data?.data.map((a) => (
            <li key={a.id} className="item">
              <div>
                <p>
                  Ciclo {a.cycleNumber}, tentativa {a.attemptNumber}:{' '}
                  <strong>{ATTEMPT_STATUS[a.status] ?? a.status}</strong>
                </p>
                <p className="muted">
                  {formatDateTime(a.attemptedAt)} · {a.cardBrand ?? ''}{' '}
                  {a.cardLast4 ? `final ${a.cardLast4}` : ''}
                  {a.failureReason ? ` · ${a.failureReason}` : ''}
                </p>
              </div>
            </li>
          ))}
        </ul>
      </section>
      <section className="block reminder-results" aria-labelledby="charge-reminders">
        <h2 id="charge-reminders">Lembretes</h2>
        <p className="muted">
          Enviados pela <Link to={REMINDERS_PATH}>régua de cobrança</Link>, com o resultado de cada canal.
        </p>
        {reminders.length === 0 ? <p className="muted">Nenhum lembrete ainda.</p> : null}
        <ol className="timeline" aria-label="Lembretes da cobrança">
          {reminders.map((e) => (
            <ReminderResult key={e.id} entry={e} recurring={recurring} />
          ))}
        </ol>
      </section>
      <section className="block" aria-labelledby="charge-timeline">
        <h2 id="charge-timeline">Histórico</h2>
        <ol className="timeline" aria-label="Histórico da cobrança">
          {c.timeline.map((e) => (
            <li key={e.id}>
              <strong>{timelineLabel(e)}</strong>
              {e.cycleNumber && recurring ? ` (ciclo ${e.cycleNumber})` : ''}
              {timelineDetail(e)}
              <span className="muted"> · {formatDateTime(e.createdAt)}</span>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

/** One channel's outcome of a reminder step: sent to whom, or why it failed or was skipped. */
function ReminderResult({ entry, recurring }: { entry: Detail['timeline'][number]; recurring: boolean }) {
  const d = entry.data as { stage?: unknown; channel?: unknown; to?: unknown; reason?: unknown };
  const channel = CHANNEL[String(d.channel)] ?? String(d.channel ?? '');
  const reason = typeof d.reason === 'string' ? (SKIP_REASON[d.reason] ?? d.reason) : null;
  const outcome =
    entry.kind === 'reminder_sent'
      ? `${channel}: enviado${typeof d.to === 'string' ? ` para ${d.to}` : ''}`
      : entry.kind === 'reminder_failed'
        ? `${channel}: falhou${reason ? ` (${reason})` : ''}`
        : `${channel}: não enviado${reason ? ` (${reason})` : ''}`;
  return (
    <li>
      <strong className={entry.kind === 'reminder_failed' ? 'failed' : undefined}>{outcome}</strong>
      {` · ${stageText(d.stage)}`}
      {entry.cycleNumber && recurring ? ` (ciclo ${entry.cycleNumber})` : ''}
      <span className="muted"> · {formatDateTime(entry.createdAt)}</span>
    </li>
  );
}

function recurrenceText(r: Detail['recurrence']): string {
  if (!r) return 'Recorrente';
  const every = { week: 'semana', month: 'mês', year: 'ano' }[r.interval];
  const each = r.intervalCount === 1 ? `Todo ${every}` : `A cada ${r.intervalCount} ${every}s`;
  const end = r.endAfterCycles
    ? `, ${r.endAfterCycles} cobranças`
    : r.endDate
      ? `, até ${formatDay(r.endDate)}`
      : '';
  return `Recorrente: ${each.toLowerCase()}${end}`;
}

function timelineLabel(e: Detail['timeline'][number]): string {
  const method = (e.data as { method?: unknown }).method;
  if (e.kind === 'issued' && typeof method === 'string' && METHOD_LABEL[method])
    return `${METHOD_LABEL[method]} emitido`;
  return TIMELINE_LABEL[e.kind] ?? e.kind;
}

function timelineDetail(e: Detail['timeline'][number]): string {
  const d = e.data as Record<string, unknown>;
  if (e.kind === 'postponed' && typeof d.to === 'string')
    return `: de ${formatDay(String(d.from ?? ''))} para ${formatDay(d.to)}${d.reason ? ` (${String(d.reason)})` : ''}`;
  if (e.kind === 'manually_marked_paid' && typeof d.paymentDate === 'string')
    return `: pago em ${formatDay(d.paymentDate)}${d.externalReference ? ` (ref. ${String(d.externalReference)})` : ''}`;
  return '';
}

function CycleItem({ cycle }: { cycle: Cycle }) {
  const boleto = cycle.issued.find((t) => t.paymentMethod === 'boleto' && t.status !== 'cancel');
  return (
    <li className="item">
      <div>
        <p>
          Ciclo {cycle.cycleNumber}: <StatusBadge status={cycle.status} labels={CHARGE_STATUS} />
        </p>
        <dl className="facts">
          <dt>Vencimento</dt>
          <dd>{formatDay(cycle.dueDate)}</dd>
          <dt>Valor</dt>
          <dd>{formatBrl(cycle.amount)}</dd>
          {cycle.amountDue !== null && (OPEN.includes(cycle.status) || cycle.status === 'failed') ? (
            <>
              <dt>A pagar hoje</dt>
              <dd>{formatBrl(cycle.amountDue)}</dd>
            </>
          ) : null}
          {cycle.paidAt ? (
            <>
              <dt>Pago</dt>
              <dd>
                {cycle.paymentDate ? formatDay(cycle.paymentDate) : formatDateTime(cycle.paidAt)}
                {cycle.paidBy === 'manual' ? ' (marcado manualmente)' : ''}
                {cycle.externalReference ? ` · ref. ${cycle.externalReference}` : ''}
              </dd>
            </>
          ) : null}
          {boleto?.boleto ? (
            <>
              <dt>Boleto</dt>
              <dd>
                <code>{boleto.boleto.formattedLine}</code>
              </dd>
            </>
          ) : null}
          {cycle.failureReason ? (
            <>
              <dt>Falha</dt>
              <dd>{cycle.failureReason}</dd>
            </>
          ) : null}
        </dl>
        {OPEN.includes(cycle.status) || cycle.status === 'failed' ? (
          <p>
            <a href={cycle.payUrl} target="_blank" rel="noreferrer">
              Link de pagamento do ciclo {cycle.cycleNumber}
            </a>
          </p>
        ) : null}
      </div>
    </li>
  );
}

function MarkPaid(props: {
  charge: Detail;
  markable: Cycle[];
  busy: boolean;
  onConfirm: (body: { paymentDate: string; externalReference?: string; cycleNumber?: number }) => void;
}) {
  const recurring = props.charge.type === 'recurring';
  const [paymentDate, setPaymentDate] = useState(todayInSaoPaulo());
  const [reference, setReference] = useState('');
  const [cycleNumber, setCycleNumber] = useState(props.markable[0]?.cycleNumber ?? 1);
  const cycleId = useId();
  const amount = recurring
    ? props.markable.find((c) => c.cycleNumber === cycleNumber)?.amount
    : props.charge.amount;
  return (
    <ConfirmForm
      label="Marcar como paga"
      question={`Registrar ${formatBrl(amount)} recebidos fora do sistema em ${formatDay(paymentDate)}?`}
      confirmLabel="Sim, marcar como paga"
      busy={props.busy}
      onConfirm={() =>
        props.onConfirm({
          paymentDate,
          externalReference: reference.trim() || undefined,
          cycleNumber: recurring ? cycleNumber : undefined,
        })
      }
    >
      <div className="filters">
        {recurring ? (
          <div className="field">
            <label htmlFor={cycleId}>Ciclo pago</label>
            <select id={cycleId} value={cycleNumber} onChange={(e) => setCycleNumber(Number(e.target.value))}>
              {props.markable.map((c) => (
                <option key={c.cycleNumber} value={c.cycleNumber}>
                  Ciclo {c.cycleNumber} ({formatDay(c.dueDate)})
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <Field
          label="Data do pagamento"
          type="date"
          required
          max={todayInSaoPaulo()}
          value={paymentDate}
          onChange={(e) => setPaymentDate(e.target.value)}
        />
        <Field
          label="Referência externa (opcional)"
          maxLength={255}
          value={reference}
          onChange={(e) => setReference(e.target.value)}
        />
      </div>
    </ConfirmForm>
  );
}

function Postpone(props: {
  busy: boolean;
  onConfirm: (body: { newDueDate: string; reason?: string }) => void;
}) {
  const [newDueDate, setNewDueDate] = useState('');
  const [reason, setReason] = useState('');
  return (
    <ConfirmForm
      label="Adiar vencimento"
      question={`Adiar o vencimento para ${formatDay(newDueDate)}? O cliente recebe novos lembretes.`}
      confirmLabel="Sim, adiar"
      busy={props.busy}
      onConfirm={() => props.onConfirm({ newDueDate, reason: reason.trim() || undefined })}
    >
      <div className="filters">
        <Field
          label="Novo vencimento"
          type="date"
          required
          min={todayInSaoPaulo()}
          value={newDueDate}
          onChange={(e) => setNewDueDate(e.target.value)}
        />
        <Field
          label="Motivo (opcional)"
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
    </ConfirmForm>
  );
}
