import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link, useLocation } from '../../app/router';
import { RoleNote, useCan } from '../../app/sellers';
import { formatBrl, formatDateTime, formatDay, todayInSaoPaulo } from '../../components/format';
import { ErrorNote, Field, Loading, PageTitle } from '../../components/ui';
import { CARNES_PATH } from './carnes';
import { CHARGE_STATUS, ConfirmForm, PLAN_STATUS, StatusBadge } from './common';
import { termsText } from './late-charges';

type Plan = Schemas['InstallmentPlan'];
type Installment = Plan['installmentsDetail'][number];

const LIVE = ['pending_activation', 'active'];
const PAYABLE = ['scheduled', 'due_today', 'overdue', 'failed'];

/** A carnê: its installments with their boletos and actions, and the printable booklet. One request. */
export function CarneDetailView({ uuid }: { uuid: string }) {
  const { api, environment } = useApp();
  const client = useQueryClient();
  const created = useLocation().query.get('criado') === '1';
  const plan = useQuery({
    queryKey: useKey('installment-plans', 'detail', uuid),
    queryFn: () => must(api.GET('/api/v1/installment-plans/{uuid}', { params: { path: { uuid } } })),
  });
  const [result, setResult] = useState<string | null>(null);
  const canWrite = useCan('write');
  const action = useMutation({
    mutationFn: async (run: { call: () => Promise<unknown>; done: string }) => {
      await run.call();
      return run.done;
    },
    onMutate: () => setResult(null),
    onSuccess: async (done) => {
      setResult(done);
      await client.invalidateQueries({ queryKey: [environment, 'installment-plans'] });
    },
  });
  const run = (call: () => Promise<unknown>, done: string) => action.mutate({ call, done });
  const path = { params: { path: { uuid } } };

  if (plan.isPending) return <Loading />;
  if (!plan.data)
    return (
      <>
        <PageTitle>Carnê</PageTitle>
        <ErrorNote error={plan.error} />
        <Link to={CARNES_PATH}>Voltar para Carnês</Link>
      </>
    );
  const p = plan.data;
  const live = LIVE.includes(p.status);
  return (
    <>
      <p>
        <Link to={CARNES_PATH}>Voltar para Carnês</Link>
      </p>
      <PageTitle lead={`${p.product.name} · ${p.uuid}`}>{`Carnê de ${p.customer.name}`}</PageTitle>
      {created && !result ? (
        <output className="status">Carnê criado: o boleto da 1ª parcela já foi registrado.</output>
      ) : null}
      <section className="card" aria-labelledby="carne-summary">
        <h2 id="carne-summary">Resumo</h2>
        <p>
          Situação: <StatusBadge status={p.status} labels={PLAN_STATUS} />
        </p>
        <dl className="facts">
          <dt>Parcelas</dt>
          <dd>
            {p.installments}x de {formatBrl(p.installmentAmount)} ({p.installmentsPaid} pagas)
          </dd>
          <dt>Total previsto</dt>
          <dd>{formatBrl(p.totalScheduled)}</dd>
          <dt>Total recebido</dt>
          <dd>{formatBrl(p.totalCollected)}</dd>
          <dt>Preço à vista</dt>
          <dd>{formatBrl(p.baseValue)}</dd>
          <dt>Multa, juros e desconto</dt>
          <dd>{termsText(p.installmentsDetail[0]) ?? 'Nenhum'}</dd>
          <dt>Cliente</dt>
          <dd>
            {p.customer.name} · {p.customer.email}
          </dd>
          <dt>Criado em</dt>
          <dd>{formatDateTime(p.createdAt)}</dd>
        </dl>
      </section>
      <Booklet plan={p} />
      <section className="card stack" aria-labelledby="carne-actions">
        <h2 id="carne-actions">Ações</h2>
        {result ? <output className="status ok">{result}</output> : null}
        <ErrorNote error={action.error} />
        {live && !canWrite ? (
          <RoleNote access="write" what="carnês são cancelados, reemitidos e marcados como pagos" />
        ) : live ? (
          <ConfirmForm
            danger
            label="Cancelar carnê"
            question="Cancelar o carnê? Os boletos em aberto deixam de poder ser pagos."
            confirmLabel="Sim, cancelar carnê"
            busy={action.isPending}
            onConfirm={() =>
              run(
                () => must(api.POST('/api/v1/installment-plans/{uuid}/cancel', path)),
                'Carnê cancelado: os boletos em aberto não podem mais ser pagos.',
              )
            }
          />
        ) : (
          <p className="muted">Este carnê está encerrado: não há ações.</p>
        )}
      </section>
      <section className="block" aria-labelledby="carne-installments">
        <h2 id="carne-installments">Parcelas</h2>
        <ul className="list" aria-label="Parcelas do carnê">
          {p.installmentsDetail.map((i) => (
            <InstallmentItem
              key={i.number}
              installment={i}
              of={p.installments}
              live={live && canWrite}
              busy={action.isPending}
              onReissue={(dueDate) =>
                run(
                  () =>
                    must(
                      api.POST('/api/v1/installment-plans/{uuid}/installments/{number}/reissue', {
                        params: { path: { uuid, number: String(i.number) } },
                        body: dueDate ? { dueDate } : {},
                      }),
                    ),
                  `Segunda via da parcela ${i.number} emitida; o boleto anterior não vale mais.`,
                )
              }
              onMarkPaid={() =>
                run(
                  () =>
                    must(
                      api.POST('/api/v1/installment-plans/{uuid}/installments/{number}/mark-paid', {
                        params: { path: { uuid, number: String(i.number) } },
                      }),
                    ),
                  `Parcela ${i.number} marcada como paga.`,
                )
              }
            />
          ))}
        </ul>
      </section>
    </>
  );
}

function InstallmentItem(props: {
  installment: Installment;
  of: number;
  live: boolean;
  busy: boolean;
  onReissue: (dueDate: string | null) => void;
  onMarkPaid: () => void;
}) {
  const i = props.installment;
  const [dueDate, setDueDate] = useState('');
  const actionable = props.live && i.boleto !== null && PAYABLE.includes(i.status);
  return (
    <li className="item">
      <div>
        <h3>
          Parcela {i.number} de {props.of} <StatusBadge status={i.status} labels={CHARGE_STATUS} />
        </h3>
        <dl className="facts">
          <dt>Vencimento</dt>
          <dd>
            {formatDay(i.dueDate)}
            {i.boleto && i.boleto.dueDate !== i.dueDate
              ? ` (boleto vence em ${formatDay(i.boleto.dueDate)})`
              : ''}
          </dd>
          <dt>Valor</dt>
          <dd>{formatBrl(i.amount)}</dd>
          {i.amountDue !== null && PAYABLE.includes(i.status) ? (
            <>
              <dt>A pagar hoje</dt>
              <dd className="amount-due">
                <strong>{formatBrl(i.amountDue)}</strong>
                {i.amountDue > i.amount
                  ? ' com multa e juros'
                  : i.amountDue < i.amount
                    ? ' com desconto'
                    : ''}
              </dd>
            </>
          ) : null}
          {i.discounts.length > 0 && PAYABLE.includes(i.status) ? (
            <>
              <dt>Desconto</dt>
              <dd>{termsText({ discounts: i.discounts })}</dd>
            </>
          ) : null}
          <dt>Boleto</dt>
          <dd>
            {i.boleto ? (
              <>
                <code>{i.boleto.barcodeLine}</code>{' '}
                <a href={i.boleto.pdfUrl} target="_blank" rel="noreferrer">
                  PDF do boleto {i.number}
                </a>
              </>
            ) : (
              'Emitido 10 dias antes do vencimento'
            )}
          </dd>
          {i.reissueCount > 0 ? (
            <>
              <dt>Segundas vias</dt>
              <dd>{i.reissueCount}</dd>
            </>
          ) : null}
          {i.paidAt ? (
            <>
              <dt>Paga em</dt>
              <dd>
                {formatDateTime(i.paidAt)} ({formatBrl(i.paidAmount)})
              </dd>
            </>
          ) : null}
        </dl>
        {actionable ? (
          <div className="row wrap">
            <ConfirmForm
              label={`Segunda via da parcela ${i.number}`}
              question={`Emitir um novo boleto para a parcela ${i.number}${dueDate ? ` com vencimento em ${formatDay(dueDate)}` : ''}? O atual deixa de valer.`}
              confirmLabel="Sim, emitir segunda via"
              busy={props.busy}
              onConfirm={() => props.onReissue(dueDate || null)}
            >
              <Field
                label={`Novo vencimento da parcela ${i.number} (opcional)`}
                type="date"
                min={todayInSaoPaulo()}
                value={dueDate}
                onChange={(e) => setDueDate(e.target.value)}
              />
            </ConfirmForm>
            <ConfirmForm
              label={`Marcar parcela ${i.number} como paga`}
              question="Confirmamos com o banco antes de registrar. Marcar como paga?"
              confirmLabel="Sim, marcar como paga"
              busy={props.busy}
              onConfirm={props.onMarkPaid}
            />
          </div>
        ) : null}
      </div>
    </li>
  );
}

/** The whole carnê as one PDF (three slips to a page), and its public link for the customer. */
function Booklet({ plan }: { plan: Plan }) {
  const { api } = useApp();
  const uuid = plan.uuid;
  const path = { params: { path: { uuid } } };
  const fileName = `carne-${plan.customer.name.replace(/[^\p{L}\p{N}]+/gu, '-').toLowerCase()}.pdf`;
  const [copied, setCopied] = useState(false);
  const canWrite = useCan('write');
  const pdf = () => must(api.GET('/api/v1/installment-plans/{uuid}/booklet', { ...path, parseAs: 'blob' }));
  const open = useMutation({
    mutationFn: async (mode: 'open' | 'download') => {
      // Opened in the click itself, so that no pop-up blocker takes the PDF for an unasked window.
      const tab = mode === 'open' ? window.open('', '_blank') : null;
      try {
        const url = URL.createObjectURL(await pdf());
        if (tab) tab.location.href = url;
        else {
          const a = document.createElement('a');
          a.href = url;
          a.download = fileName;
          a.click();
        }
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      } catch (error) {
        tab?.close();
        throw error;
      }
    },
  });
  const share = useMutation({
    mutationFn: () => must(api.POST('/api/v1/installment-plans/{uuid}/booklet-link', path)),
    onSuccess: async (link) => {
      setCopied(false);
      if (link.url)
        await navigator.clipboard.writeText(link.url).then(
          () => setCopied(true),
          () => setCopied(false),
        );
    },
  });
  const revoke = useMutation({
    mutationFn: () => must(api.DELETE('/api/v1/installment-plans/{uuid}/booklet-link', path)),
    onSuccess: () => share.reset(),
  });
  return (
    <section className="card stack" aria-labelledby="carne-booklet">
      <h2 id="carne-booklet">Carnê para imprimir</h2>
      <p className="muted">
        Todas as parcelas em um PDF, três por folha A4. As parcelas ainda não emitidas aparecem com o aviso de
        quando o boleto fica pronto.
      </p>
      <div className="row wrap">
        <button
          type="button"
          className="primary"
          disabled={open.isPending}
          onClick={() => open.mutate('open')}
        >
          Abrir carnê para imprimir
        </button>
        <button type="button" disabled={open.isPending} onClick={() => open.mutate('download')}>
          Baixar carnê (PDF)
        </button>
        {plan.status !== 'canceled' && canWrite ? (
          <button type="button" disabled={share.isPending} onClick={() => share.mutate()}>
            Copiar link público
          </button>
        ) : null}
      </div>
      <ErrorNote error={open.error ?? share.error ?? revoke.error} />
      {share.data?.url ? (
        <div className="secret">
          <p className="secret-label">Link público do carnê (envie ao cliente; abre sem senha)</p>
          <code className="secret-value">{share.data.url}</code>
          <p aria-live="polite" className="muted">
            {copied ? 'Link copiado.' : 'Copie o link acima.'}
          </p>
          <ConfirmForm
            danger
            label="Revogar link público"
            question="Revogar? Quem tiver o link não consegue mais abrir o carnê."
            confirmLabel="Sim, revogar"
            busy={revoke.isPending}
            onConfirm={() => revoke.mutate()}
          />
        </div>
      ) : null}
      {revoke.isSuccess && !share.data ? (
        <output className="status ok">Link revogado: ele não abre mais o carnê.</output>
      ) : null}
    </section>
  );
}
