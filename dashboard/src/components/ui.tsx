import { type InputHTMLAttributes, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../api/client';
import { portugueseMessage } from './api-messages';

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode };

/** An input with its visible Portuguese label (and a hint read with it). */
export function Field({ label, hint, ...input }: FieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

const PASSWORD_HINT = 'Pelo menos 12 caracteres, com letras minúsculas e maiúsculas, números e símbolos.';

/** A password being chosen (sign-up, reset, change): the policy's length and its hint, in one place. */
export function NewPasswordField(props: Omit<FieldProps, 'type' | 'autoComplete' | 'minLength' | 'hint'>) {
  return (
    <Field
      type="password"
      autoComplete="new-password"
      required
      minLength={12}
      hint={PASSWORD_HINT}
      {...props}
    />
  );
}

/** A 6-digit code typed from an authenticator app or an e-mail (TOTP, sign-up confirmation). */
export function CodeField(props: Omit<FieldProps, 'inputMode' | 'autoComplete' | 'pattern' | 'maxLength'>) {
  return (
    <Field
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{6}"
      maxLength={6}
      required
      {...props}
    />
  );
}

/**
 * A view's or a form's failure, read out by screen readers. `fields` names the form's labels by the
 * API's field names (a message about `value` reads "Preço: value must be at least 5"); `portuguese`
 * shows the API's sentences in Portuguese instead, each with its field's label (api-messages.ts).
 */
export function ErrorNote({
  error,
  fields,
  portuguese,
  only,
  omit,
}: {
  error: unknown;
  fields?: Record<string, string>;
  portuguese?: boolean;
  /** Only the API's messages about these fields (by the message's leading field name): a field's own note. */
  only?: string[];
  /** All but the messages about these fields (the form shows them under the fields). */
  omit?: string[];
}) {
  if (!error) return null;
  const about = (m: string, names: string[]) =>
    names.some((f) =>
      f.endsWith('.')
        ? m.startsWith(f)
        : m.startsWith(`${f} `) || m.startsWith(`${f}.`) || m.startsWith(`${f}[`),
    );
  if (error instanceof ApiError && (only || omit)) {
    const kept = error.messages.filter((m) => (only ? about(m, only) : true) && !(omit && about(m, omit)));
    if (kept.length === 0) return null;
    if (kept.length !== error.messages.length)
      return (
        <ErrorNote
          error={new ApiError(error.status, kept, error.code)}
          fields={fields}
          portuguese={portuguese}
        />
      );
  }
  const labelled = (m: string) => {
    const field = Object.keys(fields ?? {})
      .sort((a, b) => b.length - a.length)
      .find((f) => m.startsWith(`${f} `) || m.startsWith(`${f}.`) || m.startsWith(`${f}:`));
    return field && fields ? `${fields[field]}: ${m}` : m;
  };
  const messages =
    error instanceof ApiError
      ? portuguese || error.code === 'second_factor_required'
        ? error.messages.map((m) => portugueseMessage(m, error.code))
        : error.messages.map((m) => labelled(m))
      : ['Não foi possível falar com o servidor. Verifique a conexão e tente de novo.'];
  return (
    <div role="alert" className="error">
      {messages.map((m) => (
        <p key={m}>{m}</p>
      ))}
    </div>
  );
}

export function Loading() {
  return (
    <p className="muted" aria-live="polite">
      Carregando…
    </p>
  );
}

/** The view's heading: the document title follows it, and focus lands on it after a navigation. */
export function PageTitle({ children, lead }: { children: string; lead?: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${children} · Painel do vendedor`;
  }, [children]);
  return (
    <header className="page-title">
      <h1 ref={ref} tabIndex={-1}>
        {children}
      </h1>
      {lead ? <p className="lead">{lead}</p> : null}
    </header>
  );
}

/** A secret shown once (an API key, a signing secret, a token), with a copy button. */
export function SecretOnce({ label, value, note }: { label: string; value: string; note?: ReactNode }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <div className="secret">
      <p className="secret-label">{label}</p>
      <code className="secret-value">{value}</code>
      <div className="row">
        <button type="button" onClick={copy}>
          Copiar
        </button>
        <span aria-live="polite" className="muted">
          {copied ? 'Copiado.' : ''}
        </span>
      </div>
      <p className="muted">{note ?? 'Guarde agora: não será mostrado de novo.'}</p>
    </div>
  );
}

/**
 * A destructive action asked twice, in the page (no browser dialog): the first press shows the
 * question with the buttons that confirm or give up.
 */
export function ConfirmAction(props: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
  /** An action that is not destructive (pause, resume, reactivate): asked twice, not painted red. */
  plain?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" className={props.plain ? undefined : 'danger'} onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  return (
    <ConfirmStep
      question={props.question}
      confirmLabel={props.confirmLabel}
      danger={!props.plain}
      busy={props.busy}
      onConfirm={props.onConfirm}
      onDone={() => setAsking(false)}
      backLabel="Cancelar"
    />
  );
}

/** The question an action asks before it runs, with the buttons that confirm or give up. */
export function ConfirmStep(props: {
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  /** Called after either button: the asking ends. */
  onDone: () => void;
  busy?: boolean;
  danger?: boolean;
  backLabel: string;
}) {
  return (
    <span className="confirm">
      <span>{props.question}</span>
      <button
        type="button"
        className={props.danger ? 'danger' : 'primary'}
        disabled={props.busy}
        onClick={() => {
          props.onConfirm();
          props.onDone();
        }}
      >
        {props.confirmLabel}
      </button>
      <button type="button" onClick={props.onDone}>
        {props.backLabel}
      </button>
    </span>
  );
}

/**
 * Copies `value` to the clipboard and says so (a payment link, an id). `name`, when a list repeats
 * the button, is its accessible name (it must start with the visible label).
 */
export function CopyButton({
  value,
  label = 'Copiar',
  name,
}: {
  value: string;
  label?: string;
  name?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="row wrap">
      <button
        type="button"
        aria-label={name}
        onClick={async () => {
          await navigator.clipboard.writeText(value);
          setCopied(true);
        }}
      >
        {label}
      </button>
      <span aria-live="polite" className="muted">
        {copied ? 'Copiado.' : ''}
      </span>
    </span>
  );
}

/** "Carregar mais" under a cursor-paged list (a TanStack infinite query): the next page, while there is one. */
export function LoadMore(props: {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}) {
  if (!props.hasNextPage) return null;
  return (
    <p>
      <button type="button" disabled={props.isFetchingNextPage} onClick={() => props.fetchNextPage()}>
        {props.isFetchingNextPage ? 'Carregando…' : 'Carregar mais'}
      </button>
    </p>
  );
}

/** Previous and next page of a numbered list (page 1 is the first). */
export function Pager(props: { page: number; totalPages: number; onPage: (page: number) => void }) {
  if (props.totalPages <= 1) return null;
  return (
    <nav className="row wrap pager" aria-label="Páginas">
      <button type="button" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Anterior
      </button>
      <span>
        Página {props.page} de {props.totalPages}
      </span>
      <button
        type="button"
        disabled={props.page >= props.totalPages}
        onClick={() => props.onPage(props.page + 1)}
      >
        Próxima
      </button>
    </nav>
  );
}
