import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link, useLocation } from '../../app/router';
import { RoleNote, useCan } from '../../app/sellers';
import { formatBrl, formatDateTime, formatDay, formatPhone } from '../../components/format';
import { ConfirmAction, ErrorNote, Field, Loading, PageTitle } from '../../components/ui';
import { maskDocument } from '../auth/document-mask';
import { REMINDERS_PATH, stepWhen } from '../billing/reminder-labels';
import { METHOD_LABELS, STATUS_LABELS, statusTone } from '../sales/labels';
import { SALES_PATH } from '../sales/transactions';
import { CUSTOMERS_PATH } from './customers';

type Customer = Schemas['Customer'];

const TABS = [
  { id: 'perfil', label: 'Perfil' },
  { id: 'vendas', label: 'Vendas' },
  { id: 'assinaturas', label: 'Assinaturas' },
  { id: 'cobrancas', label: 'Cobranças agendadas' },
  { id: 'carnes', label: 'Carnês' },
  { id: 'cartoes', label: 'Cartões salvos' },
  { id: 'lembretes', label: 'Lembretes' },
] as const;
type Tab = (typeof TABS)[number]['id'];

const SUBSCRIPTION_STATUS: Record<Schemas['Subscription']['status'], string> = {
  pending: 'Pendente',
  active: 'Ativa',
  pending_cancellation: 'Cancela no fim do período',
  canceled: 'Cancelada',
  failed: 'Falhou',
};
const CHARGE_STATUS: Record<Schemas['ScheduledCharge']['status'], string> = {
  scheduled: 'Agendada',
  due_today: 'Vence hoje',
  overdue: 'Vencida',
  paid: 'Paga',
  paused: 'Pausada',
  canceled: 'Cancelada',
  trial: 'Em teste',
  pending_tokenization: 'Aguardando cartão',
  recurrence_canceled: 'Recorrência encerrada',
};
const PLAN_STATUS: Record<Schemas['InstallmentPlan']['status'], string> = {
  pending_activation: 'Aguardando ativação',
  active: 'Ativo',
  completed: 'Quitado',
  canceled: 'Cancelado',
};

/**
 * A customer: the profile (edit, billing e-mail) and, one tab at a time, their sales, subscriptions,
 * scheduled charges, carnês and saved cards. Two requests per tab: the customer and the tab's list.
 */
export function CustomerDetailView({ uuid }: { uuid: string }) {
  const { api } = useApp();
  const { query } = useLocation();
  const tab = (TABS.find((t) => t.id === query.get('aba'))?.id ?? 'perfil') as Tab;
  const customer = useQuery({
    queryKey: useKey('customer', uuid),
    queryFn: () => must(api.GET('/api/v1/customers/{uuid}', { params: { path: { uuid } } })),
  });
  const c = customer.data;
  return (
    <>
      <PageTitle lead={c ? `${c.email} · ${maskDocument(c.document)}` : undefined}>
        {c?.name ?? 'Cliente'}
      </PageTitle>
      <p>
        <Link to={CUSTOMERS_PATH}>Voltar para os clientes</Link>
      </p>
      <ErrorNote error={customer.error} portuguese />
      {customer.isPending ? <Loading /> : null}
      {c ? (
        <>
          <nav aria-label="Seções do cliente" className="tabs">
            <ul>
              {TABS.map((t) => (
                <li key={t.id}>
                  <Link
                    to={`${CUSTOMERS_PATH}/${uuid}${t.id === 'perfil' ? '' : `?aba=${t.id}`}`}
                    aria-current={tab === t.id ? 'page' : undefined}
                  >
                    {t.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          {tab === 'perfil' ? <Profile c={c} /> : null}
          {tab === 'vendas' ? <Sales c={c} /> : null}
          {tab === 'assinaturas' ? <Subscriptions c={c} /> : null}
          {tab === 'cobrancas' ? <ScheduledCharges c={c} /> : null}
          {tab === 'carnes' ? <Plans c={c} /> : null}
          {tab === 'cartoes' ? <Cards c={c} /> : null}
          {tab === 'lembretes' ? <Reminders c={c} /> : null}
        </>
      ) : null}
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function useSaveCustomer(uuid: string) {
  const queryClient = useQueryClient();
  const key = useKey('customer', uuid);
  const list = useKey('customers');
  return (saved: Customer) => {
    queryClient.setQueryData(key, saved);
    void queryClient.invalidateQueries({ queryKey: list });
  };
}

function Profile({ c }: { c: Customer }) {
  const canWrite = useCan('write');
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const address = [c.street, c.number, c.complement, c.neighborhood, c.city, c.state]
    .filter(Boolean)
    .join(', ');
  return (
    <>
      <Section title="Perfil">
        <dl className="facts">
          <dt>Nome</dt>
          <dd>{c.name}</dd>
          <dt>E-mail</dt>
          <dd>{c.email}</dd>
          <dt>CPF/CNPJ</dt>
          <dd>{maskDocument(c.document)}</dd>
          <dt>Tipo</dt>
          <dd>{c.personType === 'fisica' ? 'Pessoa física' : 'Pessoa jurídica'}</dd>
          <dt>Telefone</dt>
          <dd>{formatPhone(c.phone)}</dd>
          <dt>Endereço</dt>
          <dd>{address ? `${address}${c.zipCode ? ` · CEP ${c.zipCode}` : ''}` : '—'}</dd>
          <dt>Cliente desde</dt>
          <dd>{formatDateTime(c.createdAt)}</dd>
        </dl>
        <p className="muted" aria-live="polite">
          {saved && !editing ? 'Alterações salvas.' : ''}
        </p>
        {editing ? (
          <EditForm
            c={c}
            onDone={(ok) => {
              setEditing(false);
              setSaved(ok);
            }}
          />
        ) : canWrite ? (
          <p>
            <button type="button" onClick={() => setEditing(true)}>
              Editar cliente
            </button>
          </p>
        ) : (
          <RoleNote access="write" what="clientes são editados" />
        )}
      </Section>
      <BillingEmail c={c} />
    </>
  );
}

const EDITABLE = [
  ['name', 'Nome', 'name'],
  ['email', 'E-mail', 'email'],
  ['phone', 'Telefone', 'tel'],
  ['document', 'CPF/CNPJ', 'off'],
  ['zipCode', 'CEP', 'postal-code'],
  ['street', 'Endereço', 'address-line1'],
  ['number', 'Número', 'off'],
  ['complement', 'Complemento', 'address-line2'],
  ['neighborhood', 'Bairro', 'off'],
  ['city', 'Cidade', 'address-level2'],
  ['state', 'UF', 'address-level1'],
] as const;
type Editable = (typeof EDITABLE)[number][0];

function EditForm({ c, onDone }: { c: Customer; onDone: (saved: boolean) => void }) {
  const { api } = useApp();
  const save = useSaveCustomer(c.uuid);
  const initial = Object.fromEntries(
    EDITABLE.map(([name]) => [
      name,
      name === 'document'
        ? maskDocument(c.document)
        : name === 'phone'
          ? formatPhone(c.phone)
          : (c[name] ?? ''),
    ]),
  ) as Record<Editable, string>;
  const [values, setValues] = useState(initial);
  const update = useMutation({
    mutationFn: () => {
      // Only what changed is sent; a cleared optional field is sent as null.
      const body: Record<string, string | null> = {};
      for (const [name] of EDITABLE) {
        if (values[name] === initial[name]) continue;
        const value = values[name].trim();
        body[name] = value === '' && !['name', 'email', 'phone', 'document'].includes(name) ? null : value;
      }
      return must(api.PATCH('/api/v1/customers/{uuid}', { params: { path: { uuid: c.uuid } }, body }));
    },
    onSuccess: (saved) => {
      save(saved);
      onDone(true);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Editar cliente" className="stack">
      <div className="filters">
        {EDITABLE.map(([name, label, autoComplete]) => (
          <Field
            key={name}
            label={label}
            autoComplete={autoComplete}
            value={values[name]}
            onChange={(e) =>
              setValues({
                ...values,
                [name]: name === 'document' ? maskDocument(e.target.value) : e.target.value,
              })
            }
          />
        ))}
      </div>
      <ErrorNote error={update.error} portuguese />
      <p className="row wrap">
        <button type="submit" className="primary" disabled={update.isPending}>
          Salvar alterações
        </button>
        <button type="button" onClick={() => onDone(false)}>
          Descartar
        </button>
      </p>
    </form>
  );
}

/** The billing e-mail override: set, changed or removed (then the customer's own e-mail is used). */
function BillingEmail({ c }: { c: Customer }) {
  const { api } = useApp();
  const save = useSaveCustomer(c.uuid);
  const [email, setEmail] = useState(c.hasBillingEmailOverride ? c.billingEmail : '');
  const [note, setNote] = useState('');
  const canWrite = useCan('write');
  const set = useMutation({
    mutationFn: (value: string | null) =>
      must(
        api.PATCH('/api/v1/customers/{uuid}/billing-email-override', {
          params: { path: { uuid: c.uuid } },
          body: { billingEmailOverride: value },
        }),
      ),
    onSuccess: (saved, value) => {
      save(saved);
      setNote(value === null ? 'E-mail de cobrança removido.' : 'E-mail de cobrança salvo.');
      if (value === null) setEmail('');
    },
  });
  return (
    <Section title="E-mail de cobrança">
      <p className="muted">
        As cobranças vão para <strong>{c.billingEmail}</strong>
        {c.hasBillingEmailOverride ? ' (definido por você).' : ' (o e-mail do cliente).'} Um e-mail de
        cobrança definido aqui não muda quando o cliente troca o e-mail dele.
      </p>
      {canWrite ? (
        <form
          className="stack"
          aria-label="E-mail de cobrança"
          onSubmit={(e) => {
            e.preventDefault();
            setNote('');
            set.mutate(email.trim());
          }}
        >
          <Field
            label="E-mail de cobrança"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <ErrorNote error={set.error} portuguese />
          <p className="row wrap">
            <button type="submit" className="primary" disabled={set.isPending}>
              Salvar e-mail de cobrança
            </button>
            {c.hasBillingEmailOverride ? (
              <button
                type="button"
                disabled={set.isPending}
                onClick={() => {
                  setNote('');
                  set.mutate(null);
                }}
              >
                Usar o e-mail do cliente
              </button>
            ) : null}
          </p>
          <p className="muted" aria-live="polite">
            {note}
          </p>
        </form>
      ) : null}
    </Section>
  );
}

function Empty({ children }: { children: string }) {
  return <p className="muted">{children}</p>;
}

function Sales({ c }: { c: Customer }) {
  const { api } = useApp();
  const list = useQuery({
    queryKey: useKey('transactions', 'customer', c.id),
    queryFn: () => must(api.GET('/api/transactions', { params: { query: { customerId: c.id, limit: 20 } } })),
  });
  return (
    <Section title="Vendas">
      <ErrorNote error={list.error} portuguese />
      {list.isPending ? <Loading /> : null}
      {list.data?.data.length === 0 ? <Empty>Nenhuma venda para este cliente.</Empty> : null}
      <ul className="list" aria-label="Vendas do cliente">
        {list.data?.data.map((t) => (
          <li key={t.id} className="item">
            <div>
              <p className="row spread wrap">
                <Link to={`${SALES_PATH}/${t.id}`}>
                  Venda {t.id} · {t.product.name}
                </Link>
                <span className={statusTone(t.status)}>{STATUS_LABELS[t.status]}</span>
              </p>
              <p className="muted">
                {formatBrl(t.value)} · {METHOD_LABELS[t.paymentMethod]} · {formatDateTime(t.createdAt)}
              </p>
            </div>
          </li>
        ))}
      </ul>
      {list.data?.nextCursor ? (
        <p>
          <Link to={`${SALES_PATH}?cliente=${c.id}`}>Ver todas as vendas deste cliente</Link>
        </p>
      ) : null}
    </Section>
  );
}

function Subscriptions({ c }: { c: Customer }) {
  const { api } = useApp();
  const list = useQuery({
    queryKey: useKey('subscriptions', 'customer', c.id),
    queryFn: () =>
      must(api.GET('/api/subscriptions', { params: { query: { customerId: c.id, limit: 50 } } })),
  });
  return (
    <Section title="Assinaturas">
      <ErrorNote error={list.error} portuguese />
      {list.isPending ? <Loading /> : null}
      {list.data?.data.length === 0 ? <Empty>Nenhuma assinatura.</Empty> : null}
      <ul className="list" aria-label="Assinaturas do cliente">
        {list.data?.data.map((s) => (
          <li key={s.uuid} className="item">
            <div>
              <p>
                <strong>{s.subscriptionPrice.product.name}</strong> · {s.subscriptionPrice.name} ·{' '}
                {SUBSCRIPTION_STATUS[s.status]}
              </p>
              <p className="muted">
                {formatBrl(s.subscriptionPrice.unitAmount)} · próxima cobrança{' '}
                {formatDateTime(s.nextPaymentAt)}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function ScheduledCharges({ c }: { c: Customer }) {
  const { api } = useApp();
  const list = useQuery({
    queryKey: useKey('scheduled-charges', 'customer', c.id),
    queryFn: () =>
      must(api.GET('/api/v1/scheduled-charges', { params: { query: { customerId: c.id, limit: 50 } } })),
  });
  return (
    <Section title="Cobranças agendadas">
      <ErrorNote error={list.error} portuguese />
      {list.isPending ? <Loading /> : null}
      {list.data?.data.length === 0 ? <Empty>Nenhuma cobrança agendada.</Empty> : null}
      <ul className="list" aria-label="Cobranças agendadas do cliente">
        {list.data?.data.map((s) => (
          <li key={s.id} className="item">
            <div>
              <p>
                <strong>
                  {s.description ?? (s.type === 'recurring' ? 'Cobrança recorrente' : 'Cobrança avulsa')}
                </strong>{' '}
                · {CHARGE_STATUS[s.status]}
              </p>
              <p className="muted">
                {formatBrl(s.amount)} · vence em {formatDay(s.dueDate)}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function Plans({ c }: { c: Customer }) {
  const { api } = useApp();
  const list = useQuery({
    queryKey: useKey('installment-plans', 'customer', c.id),
    queryFn: () =>
      must(api.GET('/api/v1/installment-plans', { params: { query: { customerId: c.id, limit: 50 } } })),
  });
  return (
    <Section title="Carnês">
      <ErrorNote error={list.error} portuguese />
      {list.isPending ? <Loading /> : null}
      {list.data?.data.length === 0 ? <Empty>Nenhum carnê.</Empty> : null}
      <ul className="list" aria-label="Carnês do cliente">
        {list.data?.data.map((p) => (
          <li key={p.uuid} className="item">
            <div>
              <p>
                <strong>{p.product.name}</strong> · {PLAN_STATUS[p.status]}
              </p>
              <p className="muted">
                {p.installmentsPaid} de {p.installments} parcelas de {formatBrl(p.installmentAmount)} pagas ·
                primeira em {formatDay(p.firstDueDate)}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function Cards({ c }: { c: Customer }) {
  const { api } = useApp();
  const list = useQuery({
    queryKey: useKey('payment-methods', c.uuid),
    queryFn: () =>
      must(api.GET('/api/v1/customers/{uuid}/payment-methods', { params: { path: { uuid: c.uuid } } })),
  });
  return (
    <Section title="Cartões salvos">
      <ErrorNote error={list.error} portuguese />
      {list.isPending ? <Loading /> : null}
      {list.data?.data.length === 0 ? <Empty>Nenhum cartão salvo.</Empty> : null}
      <ul className="list" aria-label="Cartões do cliente">
        {list.data?.data.map((card) => (
          <li key={card.uuid} className="item">
            <div>
              <p>
                <strong>{card.brand}</strong> final {card.last4}
              </p>
              <p className="muted">
                Validade {String(card.expiryMonth).padStart(2, '0')}/{card.expiryYear} ·{' '}
                {card.status === 'active' ? 'Ativo' : 'Vencido'}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}

const CHANNEL_NAME = { email: 'e-mail', whatsapp: 'WhatsApp', sms: 'SMS' } as const;
const SOURCE_TEXT = {
  default: 'a régua padrão',
  seller: 'a régua da sua conta',
  customer: 'uma régua só deste cliente (definida pela API)',
} as const;

/** The reminder schedule this customer's charges follow, and the channels they opted out of. One request. */
function Reminders({ c }: { c: Customer }) {
  const { api } = useApp();
  const queryClient = useQueryClient();
  const canWrite = useCan('write');
  const key = useKey('customer', c.uuid, 'reminder-schedule');
  const path = { params: { path: { uuid: c.uuid } } };
  const schedule = useQuery({
    queryKey: key,
    queryFn: () => must(api.GET('/api/v1/customers/{uuid}/reminder-schedule', path)),
  });
  const reset = useMutation({
    mutationFn: () => must(api.DELETE('/api/v1/customers/{uuid}/reminder-schedule', path)),
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  });
  const s = schedule.data;
  return (
    <Section title="Lembretes">
      {schedule.isPending ? <Loading /> : null}
      <ErrorNote error={schedule.error ?? reset.error} />
      {s ? (
        <>
          <p>
            Segue {SOURCE_TEXT[s.source]}
            {s.source === 'customer' ? (
              ''
            ) : (
              <>
                {' '}
                (<Link to={REMINDERS_PATH}>Régua de cobrança</Link>)
              </>
            )}
            .
          </p>
          {s.steps.length === 0 ? <Empty>Nenhum lembrete é enviado.</Empty> : null}
          <ul className="list">
            {s.steps.map((step) => (
              <li key={step.offsetDays} className="item">
                <div>
                  <strong>{stepWhen(step.offsetDays)}</strong>
                  <p className="muted">por {step.channels.map((ch) => CHANNEL_NAME[ch]).join(', ')}</p>
                </div>
              </li>
            ))}
          </ul>
          <p>
            {s.optedOut.length === 0
              ? 'O cliente não pediu para deixar de receber lembretes.'
              : `O cliente pediu para não receber por ${s.optedOut.map((ch) => CHANNEL_NAME[ch]).join(' e ')}: ${s.optedOut.length > 1 ? 'esses canais ficam' : 'esse canal fica'} de fora.`}
          </p>
          {s.source === 'customer' && canWrite ? (
            <ConfirmAction
              label="Usar a régua da conta"
              question="Trocar a régua deste cliente pela da sua conta? Os pedidos para não receber continuam valendo."
              confirmLabel="Sim, usar a da conta"
              busy={reset.isPending}
              onConfirm={() => reset.mutate()}
              plain
            />
          ) : null}
        </>
      ) : null}
    </Section>
  );
}
