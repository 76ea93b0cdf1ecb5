import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { must } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { ConfirmStep } from '../../components/ui';
import { maskDocument } from '../auth/document-mask';

/** Labels of the statuses of a scheduled charge, its cycles, a carnê and its installments. */
export const CHARGE_STATUS: Record<string, string> = {
  scheduled: 'Agendada',
  due_today: 'Vence hoje',
  overdue: 'Vencida',
  paid: 'Paga',
  paused: 'Pausada',
  canceled: 'Cancelada',
  trial: 'Em período de teste',
  pending_tokenization: 'Aguardando cartão',
  recurrence_canceled: 'Recorrência cancelada',
  failed: 'Falhou',
};
export const PLAN_STATUS: Record<string, string> = {
  pending_activation: 'Aguardando a 1ª parcela',
  active: 'Ativo',
  completed: 'Quitado',
  canceled: 'Cancelado',
};
export const METHOD_LABEL: Record<string, string> = { pix: 'Pix', boleto: 'Boleto', card: 'Cartão' };

const TONE: Record<string, string> = {
  paid: 'succeeded',
  completed: 'succeeded',
  active: 'succeeded',
  overdue: 'failed',
  failed: 'failed',
  canceled: 'failed',
  recurrence_canceled: 'failed',
};

/** A status as a coloured badge (the colour repeats the words, never replaces them). */
export function StatusBadge({ status, labels }: { status: string; labels: Record<string, string> }) {
  return <span className={`badge ${TONE[status] ?? 'pending'}`}>{labels[status] ?? status}</span>;
}

/**
 * The customer a charge or carnê is for: a search by name, e-mail or document, then a choice among
 * the first matches (one request per search).
 */
export function CustomerPicker({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const { api } = useApp();
  const searchId = useId();
  const selectId = useId();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const customers = useQuery({
    queryKey: useKey('customers', 'picker', search),
    queryFn: () =>
      must(api.GET('/api/v1/customers', { params: { query: { limit: 20, search: search || undefined } } })),
  });
  const rows = customers.data?.data ?? [];
  const first = customers.data?.data[0]?.id ?? null;
  // The first match is the choice until the seller picks another.
  useEffect(() => {
    if (value === null && first !== null) onChange(first);
  }, [value, first, onChange]);
  const chosen = value ?? first;
  const find = (event: FormEvent | { preventDefault(): void }) => {
    event.preventDefault();
    setSearch(typed.trim());
    onChange(null);
  };
  return (
    <fieldset>
      <legend>Cliente</legend>
      <div className="row wrap picker">
        <div className="field">
          <label htmlFor={searchId}>Buscar cliente</label>
          <input
            id={searchId}
            type="search"
            value={typed}
            maxLength={200}
            placeholder="Nome, e-mail ou CPF/CNPJ"
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') find(e);
            }}
          />
        </div>
        <button type="button" onClick={find}>
          Buscar
        </button>
      </div>
      <div className="field">
        <label htmlFor={selectId}>Cliente escolhido</label>
        <select
          id={selectId}
          value={chosen ?? ''}
          required
          onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
        >
          {rows.length === 0 ? (
            <option value="">{customers.isPending ? 'Carregando…' : 'Nenhum cliente encontrado'}</option>
          ) : null}
          {rows.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} · {c.document ? maskDocument(c.document) : c.email}
            </option>
          ))}
        </select>
      </div>
    </fieldset>
  );
}

/**
 * An action that needs a few answers and then a confirmation in the page: the form's submit shows
 * the question, "Confirmar" runs it, "Voltar" gives up.
 */
export function ConfirmForm(props: {
  label: string;
  question: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  children?: ReactNode;
  danger?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAsking(true);
  };
  return (
    <form className="action-form" onSubmit={submit} aria-label={props.label}>
      {props.children}
      {asking ? (
        <ConfirmStep
          question={props.question}
          confirmLabel={props.confirmLabel}
          danger={props.danger}
          busy={props.busy}
          onConfirm={props.onConfirm}
          onDone={() => setAsking(false)}
          backLabel="Voltar"
        />
      ) : (
        <div>
          <button type="submit" className={props.danger ? 'danger' : undefined}>
            {props.label}
          </button>
        </div>
      )}
    </form>
  );
}
