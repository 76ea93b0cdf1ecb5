import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { must } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link, navigate, useLocation } from '../../app/router';
import { RoleNote, useCan } from '../../app/sellers';
import { centavosToReais, formatBrl, formatDay, todayInSaoPaulo } from '../../components/format';
import { MoneyField } from '../../components/money-field';
import { ErrorNote, Field, Loading, Pager, PageTitle } from '../../components/ui';
import { CHARGE_STATUS, CustomerPicker, METHOD_LABEL, StatusBadge } from './common';
import {
  chargeBody,
  checkDraft,
  EMPTY_DRAFT,
  LATE_CHARGE_FIELDS,
  type LateChargeDraft,
  LateChargeInputs,
} from './late-charges';

export const CHARGES_PATH = '/cobrancas';
const PAGE_SIZE = 20;
const TYPE_LABEL = { one_time: 'Única', recurring: 'Recorrente' } as const;
const INTERVAL_LABEL = { week: 'Semanal', month: 'Mensal', year: 'Anual' } as const;

/** The list's filters as the address carries them (the back button and a shared link keep them). */
const FILTERS = {
  status: 'situacao',
  type: 'tipo',
  dueDateFrom: 'de',
  dueDateTo: 'ate',
  search: 'busca',
  page: 'pagina',
} as const;
type Filters = Record<keyof typeof FILTERS, string>;

const readFilters = (query: URLSearchParams): Filters =>
  Object.fromEntries(
    Object.entries(FILTERS).map(([name, param]) => [name, query.get(param) ?? '']),
  ) as Filters;

function go(filters: Filters) {
  const query = new URLSearchParams();
  for (const [name, param] of Object.entries(FILTERS)) {
    const value = filters[name as keyof Filters].trim();
    if (value) query.set(param, value);
  }
  const search = query.toString();
  navigate(search ? `${CHARGES_PATH}?${search}` : CHARGES_PATH, { replace: true });
}

/** Cobranças agendadas: the API's filters, newest first, numbered pages; one request. */
export function ScheduledChargesView() {
  const { api } = useApp();
  const canWrite = useCan('write');
  const filters = readFilters(useLocation().query);
  const page = Number(filters.page) || 1;
  const charges = useQuery({
    queryKey: useKey('scheduled-charges', JSON.stringify(filters)),
    queryFn: () =>
      must(
        api.GET('/api/v1/scheduled-charges', {
          params: {
            query: {
              page,
              limit: PAGE_SIZE,
              status: filters.status || undefined,
              type: (filters.type || undefined) as 'one_time' | 'recurring' | undefined,
              dueDateFrom: filters.dueDateFrom || undefined,
              dueDateTo: filters.dueDateTo || undefined,
              search: filters.search.trim() || undefined,
            },
          },
        }),
      ),
  });
  const rows = charges.data?.data ?? [];
  return (
    <>
      <PageTitle lead="Cobranças únicas e recorrentes com vencimento futuro, por pix, boleto ou cartão.">
        Cobranças agendadas
      </PageTitle>
      {canWrite ? (
        <p>
          <Link to={`${CHARGES_PATH}/nova`} className="button primary">
            Nova cobrança
          </Link>
        </p>
      ) : (
        <RoleNote access="write" what="cobranças são criadas" />
      )}
      <ChargeFilters initial={filters} />
      <ErrorNote error={charges.error} />
      {charges.isPending ? <Loading /> : null}
      {charges.data ? (
        <p className="muted" aria-live="polite">
          {charges.data.totalCount === 1 ? '1 cobrança' : `${charges.data.totalCount} cobranças`}
        </p>
      ) : null}
      <ul className="list" aria-label="Cobranças agendadas">
        {rows.map((c) => (
          <li key={c.id} className="item">
            <div>
              <p>
                <Link to={`${CHARGES_PATH}/${c.id}`}>{c.customer.name}</Link>{' '}
                <StatusBadge status={c.status} labels={CHARGE_STATUS} />
              </p>
              <dl className="facts">
                <dt>Valor</dt>
                <dd>{formatBrl(c.amount)}</dd>
                <dt>Vencimento</dt>
                <dd>{formatDay(c.dueDate)}</dd>
                <dt>Tipo</dt>
                <dd>
                  {TYPE_LABEL[c.type]}
                  {c.recurrence ? ` (${INTERVAL_LABEL[c.recurrence.interval].toLowerCase()})` : ''}
                </dd>
                <dt>Meios</dt>
                <dd>{c.methods.map((m) => METHOD_LABEL[m]).join(', ')}</dd>
              </dl>
            </div>
          </li>
        ))}
      </ul>
      {charges.data && rows.length === 0 ? <p className="muted">Nenhuma cobrança encontrada.</p> : null}
      <Pager
        page={page}
        totalPages={charges.data?.totalPages ?? 0}
        onPage={(p) => go({ ...filters, page: String(p) })}
      />
    </>
  );
}

function ChargeFilters({ initial }: { initial: Filters }) {
  const [filters, setFilters] = useState(initial);
  const statusId = useId();
  const typeId = useId();
  const set = (name: keyof Filters) => (e: { target: { value: string } }) =>
    setFilters({ ...filters, [name]: e.target.value });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    go({ ...filters, page: '' });
  };
  return (
    <form className="card filters" onSubmit={apply} aria-label="Filtrar cobranças">
      <div className="field">
        <label htmlFor={statusId}>Situação</label>
        <select id={statusId} value={filters.status} onChange={set('status')}>
          <option value="">Todas</option>
          {Object.entries(CHARGE_STATUS)
            .filter(([value]) => value !== 'failed')
            .map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={typeId}>Tipo</label>
        <select id={typeId} value={filters.type} onChange={set('type')}>
          <option value="">Todos</option>
          <option value="one_time">Única</option>
          <option value="recurring">Recorrente</option>
        </select>
      </div>
      <Field label="Vencimento de" type="date" value={filters.dueDateFrom} onChange={set('dueDateFrom')} />
      <Field label="Vencimento até" type="date" value={filters.dueDateTo} onChange={set('dueDateTo')} />
      <Field
        label="Buscar"
        type="search"
        value={filters.search}
        onChange={set('search')}
        maxLength={200}
        placeholder="Nome, e-mail ou CPF/CNPJ"
      />
      <div className="row wrap">
        <button type="submit" className="primary">
          Filtrar
        </button>
      </div>
    </form>
  );
}

type Method = 'pix' | 'boleto' | 'card';

/** Nova cobrança: one-time or recurring, for a customer; dates are São Paulo days. */
export function NewScheduledChargeView() {
  const { api, environment } = useApp();
  const client = useQueryClient();
  const [customerId, setCustomerId] = useState<number | null>(null);
  const [amount, setAmount] = useState(0);
  const [type, setType] = useState<'one_time' | 'recurring'>('one_time');
  const [methods, setMethods] = useState<Method[]>(['pix', 'boleto']);
  const [dueDate, setDueDate] = useState(todayInSaoPaulo());
  const [description, setDescription] = useState('');
  const [interval, setRecurrenceInterval] = useState<'week' | 'month' | 'year'>('month');
  const [endAfterCycles, setEndAfterCycles] = useState('');
  const intervalId = useId();
  const [late, setLate] = useState<LateChargeDraft>(EMPTY_DRAFT);
  const [inherit, setInherit] = useState(true);
  const [checked, setChecked] = useState(false);
  const lateDraft = inherit ? { ...late, fine: '', interest: '' } : late;
  const lateErrors = checked ? checkDraft(lateDraft, { amount, dueDate }) : {};
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/api/v1/scheduled-charges', {
          body: {
            customerId: customerId ?? 0,
            amount: centavosToReais(amount),
            dueDate,
            methods,
            type,
            description: description.trim() || undefined,
            ...chargeBody(late, inherit),
            recurrence:
              type === 'recurring'
                ? {
                    interval,
                    intervalCount: 1,
                    endAfterCycles: endAfterCycles ? Number(endAfterCycles) : undefined,
                  }
                : undefined,
          },
        }),
      ),
    onSuccess: async (charge) => {
      await client.invalidateQueries({ queryKey: [environment, 'scheduled-charges'] });
      navigate(`${CHARGES_PATH}/${charge.id}?criada=1`);
    },
  });
  const toggle = (m: Method) =>
    setMethods(methods.includes(m) ? methods.filter((x) => x !== m) : [...methods, m]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(checkDraft(lateDraft, { amount, dueDate })).length === 0) create.mutate();
  };
  const canWrite = useCan('write');
  return (
    <>
      <p>
        <Link to={CHARGES_PATH}>Voltar para Cobranças agendadas</Link>
      </p>
      <PageTitle lead="O cliente recebe o link de pagamento e os lembretes da régua de cobrança.">
        Nova cobrança
      </PageTitle>
      <RoleNote access="write" what="cobranças são criadas" />
      {canWrite ? (
        <form className="card stack" onSubmit={submit} aria-label="Nova cobrança">
          <CustomerPicker value={customerId} onChange={setCustomerId} />
          <fieldset>
            <legend>Tipo</legend>
            <label className="check">
              <input
                type="radio"
                name="type"
                checked={type === 'one_time'}
                onChange={() => setType('one_time')}
              />
              Única
            </label>
            <label className="check">
              <input
                type="radio"
                name="type"
                checked={type === 'recurring'}
                onChange={() => setType('recurring')}
              />
              Recorrente
            </label>
          </fieldset>
          <MoneyField
            label="Valor"
            centavos={amount}
            onChange={setAmount}
            hint="Mínimo de R$ 5,00."
            required
          />
          <fieldset>
            <legend>Meios de pagamento</legend>
            {(['pix', 'boleto', 'card'] as const).map((m) => (
              <label key={m} className="check">
                <input type="checkbox" checked={methods.includes(m)} onChange={() => toggle(m)} />
                {METHOD_LABEL[m]}
              </label>
            ))}
          </fieldset>
          <Field
            label={type === 'recurring' ? 'Primeiro vencimento' : 'Vencimento'}
            type="date"
            required
            value={dueDate}
            min={todayInSaoPaulo()}
            onChange={(e) => setDueDate(e.target.value)}
            hint="Dia no horário de Brasília; hoje ou depois."
          />
          {type === 'recurring' ? (
            <>
              <div className="field">
                <label htmlFor={intervalId}>Frequência</label>
                <select
                  id={intervalId}
                  value={interval}
                  onChange={(e) => setRecurrenceInterval(e.target.value as typeof interval)}
                >
                  {Object.entries(INTERVAL_LABEL).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </div>
              <Field
                label="Número de cobranças (opcional)"
                type="number"
                inputMode="numeric"
                min={2}
                max={360}
                value={endAfterCycles}
                onChange={(e) => setEndAfterCycles(e.target.value)}
                hint="Vazio: continua até você cancelar."
              />
            </>
          ) : null}
          <Field
            label="Descrição (opcional)"
            value={description}
            maxLength={500}
            onChange={(e) => setDescription(e.target.value)}
          />
          <LateChargeInputs
            kind="charge"
            draft={late}
            onChange={setLate}
            errors={lateErrors}
            apiError={create.error}
            dueDate={dueDate}
            inherit={{ value: inherit, onChange: setInherit }}
            emptyMeans="Campo vazio: sem multa ou sem juros nesta cobrança."
          />
          <div>
            <button
              type="submit"
              className="primary"
              disabled={create.isPending || customerId === null || methods.length === 0}
            >
              {type === 'recurring' ? 'Criar cobrança recorrente' : 'Criar cobrança'}
            </button>
          </div>
          <ErrorNote error={create.error} omit={LATE_CHARGE_FIELDS} />
        </form>
      ) : null}
    </>
  );
}
