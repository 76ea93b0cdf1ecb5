import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { must } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link, navigate, useLocation } from '../../app/router';
import { RoleNote, useCan } from '../../app/sellers';
import { formatBrl, formatDay, todayInSaoPaulo } from '../../components/format';
import { ErrorNote, Field, Loading, Pager, PageTitle } from '../../components/ui';
import { CustomerPicker, PLAN_STATUS, StatusBadge } from './common';
import {
  chargeBody,
  checkDraft,
  EMPTY_DRAFT,
  LATE_CHARGE_FIELDS,
  type LateChargeDraft,
  LateChargeInputs,
} from './late-charges';

export const CARNES_PATH = '/carnes';
const PAGE_SIZE = 20;

/** Carnês: newest first, by status, numbered pages; one request. */
export function CarnesView() {
  const { api } = useApp();
  const canWrite = useCan('write');
  const { query } = useLocation();
  const status = query.get('situacao') ?? '';
  const page = Number(query.get('pagina')) || 1;
  const statusId = useId();
  const plans = useQuery({
    queryKey: useKey('installment-plans', status, page),
    queryFn: () =>
      must(
        api.GET('/api/v1/installment-plans', {
          params: { query: { page, limit: PAGE_SIZE, status: status || undefined } },
        }),
      ),
  });
  const go = (next: { status?: string; page?: number }) => {
    const q = new URLSearchParams();
    const s = next.status ?? status;
    if (s) q.set('situacao', s);
    if (next.page && next.page > 1) q.set('pagina', String(next.page));
    const search = q.toString();
    navigate(search ? `${CARNES_PATH}?${search}` : CARNES_PATH, { replace: true });
  };
  const rows = plans.data?.data ?? [];
  return (
    <>
      <PageTitle lead="Vendas parceladas em boletos mensais: o 1º boleto é emitido na criação, os outros 10 dias antes de cada vencimento.">
        Carnês
      </PageTitle>
      {canWrite ? (
        <p>
          <Link to={`${CARNES_PATH}/novo`} className="button primary">
            Novo carnê
          </Link>
        </p>
      ) : (
        <RoleNote access="write" what="carnês são criados" />
      )}
      <div className="card filters">
        <div className="field">
          <label htmlFor={statusId}>Situação</label>
          <select id={statusId} value={status} onChange={(e) => go({ status: e.target.value, page: 1 })}>
            <option value="">Todas</option>
            {Object.entries(PLAN_STATUS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorNote error={plans.error} />
      {plans.isPending ? <Loading /> : null}
      <ul className="list" aria-label="Carnês">
        {rows.map((p) => (
          <li key={p.uuid} className="item">
            <div>
              <p>
                <Link to={`${CARNES_PATH}/${p.uuid}`}>{p.customer.name}</Link>{' '}
                <StatusBadge status={p.status} labels={PLAN_STATUS} />
              </p>
              <dl className="facts">
                <dt>Produto</dt>
                <dd>{p.product.name}</dd>
                <dt>Parcelas</dt>
                <dd>
                  {p.installmentsPaid} de {p.installments} pagas · {p.installments}x de{' '}
                  {formatBrl(p.installmentAmount)}
                </dd>
                <dt>1º vencimento</dt>
                <dd>{formatDay(p.firstDueDate)}</dd>
              </dl>
            </div>
          </li>
        ))}
      </ul>
      {plans.data && rows.length === 0 ? <p className="muted">Nenhum carnê encontrado.</p> : null}
      <Pager page={page} totalPages={plans.data?.totalPages ?? 0} onPage={(p) => go({ page: p })} />
    </>
  );
}

/** Novo carnê: a customer, a product that accepts carnê, the count and the first due date. */
export function NewCarneView() {
  const { api, environment } = useApp();
  const client = useQueryClient();
  const productId = useId();
  const countId = useId();
  const products = useQuery({
    queryKey: useKey('products', 'carne'),
    queryFn: () => must(api.GET('/api/products/seller', { params: { query: { limit: 100 } } })),
  });
  const eligible = (products.data?.data ?? []).filter((p) => p.carne.enabled && p.isActive);
  const [customerId, setCustomerId] = useState<number | null>(null);
  const [productUuid, setProductUuid] = useState('');
  const [installments, setInstallments] = useState(3);
  const [firstDueDate, setFirstDueDate] = useState(todayInSaoPaulo());
  const product = eligible.find((p) => p.uuid === productUuid) ?? eligible[0];
  const max = product?.carne.maxInstallments ?? 12;
  const count = Math.min(installments, max);
  const factor = product?.carne.interestFactors[String(count)] ?? 1;
  // The API rounds the same way (half up, in centavos); this is only a preview.
  const each = product ? Math.round((product.value * 100 * factor) / count) / 100 : null;
  // One key per form: a retried click returns the carnê already made instead of registering a second boleto.
  const [retryKey, setRetryKey] = useState(() => crypto.randomUUID());
  const [late, setLate] = useState<LateChargeDraft>(EMPTY_DRAFT);
  const [inherit, setInherit] = useState(true);
  const [checked, setChecked] = useState(false);
  const lateDraft = inherit ? { ...late, fine: '', interest: '' } : late;
  // Each installment is checked (a fixed fine against one installment, the tiers against the 1st due date).
  const installment = { amount: each === null ? 0 : Math.round(each * 100), dueDate: firstDueDate };
  const lateErrors = checked ? checkDraft(lateDraft, installment) : {};
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/api/v1/installment-plans', {
          params: { header: { 'X-Idempotency-Key': retryKey } },
          body: {
            productId: product?.uuid ?? '',
            customerId: customerId ?? 0,
            installments: count,
            firstDueDate,
            ...chargeBody(late, inherit),
          },
        }),
      ),
    onSuccess: async (plan) => {
      await client.invalidateQueries({ queryKey: [environment, 'installment-plans'] });
      navigate(`${CARNES_PATH}/${plan.uuid}?criado=1`);
    },
    // A refused form is changed before it is sent again: the new body needs a key of its own.
    onError: () => setRetryKey(crypto.randomUUID()),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(checkDraft(lateDraft, installment)).length === 0) create.mutate();
  };
  const canWrite = useCan('write');
  return (
    <>
      <p>
        <Link to={CARNES_PATH}>Voltar para Carnês</Link>
      </p>
      <PageTitle lead="O 1º boleto é registrado agora; os seguintes, depois que ele for pago.">
        Novo carnê
      </PageTitle>
      <RoleNote access="write" what="carnês são criados" />
      {canWrite ? (
        <form className="card stack" onSubmit={submit} aria-label="Novo carnê">
          <CustomerPicker value={customerId} onChange={setCustomerId} />
          <div className="field">
            <label htmlFor={productId}>Produto</label>
            <select
              id={productId}
              value={product?.uuid ?? ''}
              required
              onChange={(e) => setProductUuid(e.target.value)}
            >
              {eligible.length === 0 ? (
                <option value="">{products.isPending ? 'Carregando…' : 'Nenhum produto aceita carnê'}</option>
              ) : null}
              {eligible.map((p) => (
                <option key={p.uuid} value={p.uuid}>
                  {p.name} ({formatBrl(p.value)})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={countId}>Parcelas</label>
            <select id={countId} value={count} onChange={(e) => setInstallments(Number(e.target.value))}>
              {Array.from({ length: Math.max(0, max - 1) }, (_, k) => k + 2).map((n) => (
                <option key={n} value={n}>
                  {n} parcelas
                </option>
              ))}
            </select>
          </div>
          <Field
            label="1º vencimento"
            type="date"
            required
            value={firstDueDate}
            min={todayInSaoPaulo()}
            onChange={(e) => setFirstDueDate(e.target.value)}
            hint="Até 90 dias a partir de hoje; as outras parcelas vencem no mesmo dia dos meses seguintes."
          />
          {each !== null ? (
            <p aria-live="polite">
              {count}x de {formatBrl(each)} (total {formatBrl(Math.round(each * 100 * count) / 100)})
            </p>
          ) : null}
          <LateChargeInputs
            kind="charge"
            draft={late}
            onChange={setLate}
            errors={lateErrors}
            apiError={create.error}
            dueDate={firstDueDate}
            inherit={{ value: inherit, onChange: setInherit }}
            emptyMeans="Campo vazio: sem multa ou sem juros nas parcelas. Os descontos valem para a 1ª parcela e seguem, nas outras, a mesma distância do vencimento."
          />
          <ErrorNote error={products.error ?? create.error} omit={LATE_CHARGE_FIELDS} />
          <div>
            <button
              type="submit"
              className="primary"
              disabled={create.isPending || !product || customerId === null}
            >
              Criar carnê
            </button>
          </div>
        </form>
      ) : null}
    </>
  );
}
