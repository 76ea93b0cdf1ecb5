import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { RoleNote, useCan } from '../../app/sellers';
import { ErrorNote, Field, Loading, PageTitle } from '../../components/ui';

export type PortalSettings = Omit<Schemas['EffectivePortalConfiguration'], 'source'>;
type Flag = {
  [K in keyof PortalSettings]: PortalSettings[K] extends boolean ? K : never;
}[keyof PortalSettings];
type Text = 'customWelcomeText' | 'customSuccessMessage' | 'customCancellationMessage';

const PORTAL_FIELDS: Record<string, string> = {
  businessName: 'Nome da empresa',
  logoUrl: 'Logo (URL)',
  primaryColor: 'Cor principal',
  customWelcomeText: 'Texto de boas-vindas',
  customSuccessMessage: 'Mensagem de sucesso',
  customCancellationMessage: 'Mensagem de cancelamento',
};

const ACTIONS: [Flag, string][] = [
  ['allowCancelSubscription', 'Cancelar, pausar e retomar a assinatura'],
  ['allowUpdatePaymentMethod', 'Trocar o cartão'],
  ['allowUpdateBillingInfo', 'Alterar nome, e-mail e telefone'],
  ['allowViewInvoices', 'Ver o histórico de pagamentos'],
];
const CANCEL_RULES: [Flag, string][] = [
  ['cancelAtPeriodEndOnly', 'Cancelamento só no fim do período já pago'],
  ['requireCancelReason', 'Pedir o motivo do cancelamento'],
];
const EMAILS: [Flag, string][] = [
  ['sendCancellationEmail', 'E-mail confirmando o cancelamento'],
  ['sendPaymentMethodUpdatedEmail', 'E-mail confirmando a troca de cartão'],
];
const TEXTS: [Text, string, string][] = [
  ['customWelcomeText', 'Texto de boas-vindas', 'Aqui você acompanha e gerencia suas assinaturas.'],
  [
    'customSuccessMessage',
    'Mensagem depois de uma alteração',
    'Sem texto: uma frase para cada ação (ex.: Cartão atualizado.)',
  ],
  ['customCancellationMessage', 'Mensagem depois de um cancelamento', 'Sua assinatura foi cancelada.'],
];

const isHex = (colour: string) => /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(colour);

/**
 * The seller's customer portal (the page a subscriber manages a subscription on): the brand, the
 * actions it allows, the e-mails and the texts, with a preview of what the subscriber sees
 * (one request: the configuration in effect, defaults filled in).
 */
export function PortalConfigView() {
  const { api } = useApp();
  const client = useQueryClient();
  const key = useKey('portal-configuration');
  const config = useQuery({
    queryKey: key,
    queryFn: () => must(api.GET('/api/portal/configuration/effective')),
  });
  const save = useMutation({
    mutationFn: (body: PortalSettings) => must(api.PUT('/api/portal/configuration', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });

  return (
    <>
      <PageTitle lead="A página em que o assinante gerencia a assinatura. Produtos sem configuração própria usam esta.">
        Portal do cliente
      </PageTitle>
      {config.isPending ? <Loading /> : null}
      <ErrorNote error={config.error} />
      {config.data ? (
        <PortalForm
          key={config.dataUpdatedAt}
          initial={config.data}
          note={
            config.data.source === 'default'
              ? 'Ainda sem configuração salva: o portal usa os valores padrão abaixo.'
              : 'Configuração salva da sua conta.'
          }
          busy={save.isPending}
          error={save.error}
          saved={save.isSuccess}
          onSave={(body) => save.mutate(body)}
        />
      ) : null}
    </>
  );
}

/** The portal's settings and the preview beside them (the seller's portal and a product's own share it). */
export function PortalForm(props: {
  initial: Schemas['EffectivePortalConfiguration'];
  note: string;
  busy: boolean;
  error: unknown;
  saved: boolean;
  onSave: (body: PortalSettings) => void;
  /** More actions under the save button (a product's: back to the seller's configuration). */
  children?: ReactNode;
}) {
  const canWrite = useCan('write');
  const { source: _source, ...initial } = props.initial;
  const [s, setS] = useState<PortalSettings>(initial);
  const set = <K extends keyof PortalSettings>(field: K, value: PortalSettings[K]) =>
    setS({ ...s, [field]: value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSave(s);
  };
  const flags = (legend: string, list: [Flag, string][]) => (
    <fieldset>
      <legend>{legend}</legend>
      {list.map(([field, label]) => (
        <label key={field} className="check">
          <input type="checkbox" checked={s[field]} onChange={(e) => set(field, e.target.checked)} />
          {label}
        </label>
      ))}
    </fieldset>
  );
  return (
    <div className="portal-editor">
      <form onSubmit={submit} className="stack card" aria-label="Configuração do portal">
        <p className="muted">{props.note}</p>
        <fieldset disabled={!canWrite} className="plain stack">
          <Field
            label="Nome da empresa"
            value={s.businessName ?? ''}
            onChange={(e) => set('businessName', e.target.value || null)}
            maxLength={200}
          />
          <Field
            label="Logo (URL)"
            type="url"
            inputMode="url"
            placeholder="https://sua-loja.com.br/logo.png"
            value={s.logoUrl ?? ''}
            onChange={(e) => set('logoUrl', e.target.value || null)}
            hint="Endereço https de uma imagem quadrada."
          />
          <ColourField value={s.primaryColor} onChange={(v) => set('primaryColor', v)} />
          {flags('O que o assinante pode fazer', ACTIONS)}
          {flags('Regras do cancelamento', CANCEL_RULES)}
          {flags('E-mails ao assinante', EMAILS)}
          {TEXTS.map(([field, label, placeholder]) => (
            <TextArea
              key={field}
              label={`${label} (opcional)`}
              placeholder={placeholder}
              value={s[field] ?? ''}
              onChange={(v) => set(field, v || null)}
            />
          ))}
        </fieldset>
        <RoleNote access="write" what="o portal é configurado" />
        {canWrite ? (
          <button type="submit" className="primary" disabled={props.busy}>
            Salvar portal
          </button>
        ) : null}
        {props.saved ? <output className="status">Portal salvo. Os assinantes já veem assim.</output> : null}
        {canWrite ? props.children : null}
        <ErrorNote error={props.error} fields={PORTAL_FIELDS} />
      </form>
      <PortalPreview settings={s} />
    </div>
  );
}

function ColourField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Cor principal</label>
      <div className="row">
        <input
          id={id}
          value={value}
          maxLength={7}
          onChange={(e) => onChange(e.target.value.trim())}
          aria-describedby={`${id}-hint`}
        />
        <svg width="44" height="44" aria-hidden="true" className="swatch">
          <rect width="44" height="44" rx="6" fill={isHex(value) ? value : '#ffffff'} stroke="#8a90a2" />
        </svg>
      </div>
      <small id={`${id}-hint`} className="hint">
        Hexadecimal, como #257264.
      </small>
    </div>
  );
}

function TextArea(props: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <textarea
        id={id}
        rows={2}
        maxLength={2000}
        placeholder={props.placeholder}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

/** What a subscriber sees, drawn from the form as it is (before saving), with a sample subscription. */
function PortalPreview({ settings: s }: { settings: PortalSettings }) {
  const colour = isHex(s.primaryColor) ? s.primaryColor : '#257264';
  const buttons = [
    s.allowUpdatePaymentMethod ? 'Trocar cartão' : null,
    s.allowCancelSubscription ? 'Pausar' : null,
    s.allowCancelSubscription ? 'Cancelar' : null,
  ].filter((b): b is string => b !== null);
  // The portal's own sentence after an action, when the seller wrote none (the pages' ACTION_DONE).
  const doneExample = s.allowCancelSubscription
    ? 'Cobranças pausadas. Você pode retomá-las quando quiser.'
    : s.allowUpdatePaymentMethod
      ? 'Cartão atualizado. As próximas cobranças usarão este cartão.'
      : s.allowUpdateBillingInfo
        ? 'Seus dados foram atualizados.'
        : null;
  return (
    <section className="card portal-preview" aria-labelledby="portal-preview">
      <h2 id="portal-preview">Pré-visualização</h2>
      <p className="muted">O que o assinante vê (exemplo com uma assinatura).</p>
      <div className="preview-frame">
        <svg className="preview-band" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true">
          <rect width="100" height="4" fill={colour} />
        </svg>
        <p className="preview-business">
          {s.logoUrl ? '[logo] ' : ''}
          {s.businessName || 'Minhas assinaturas'}
        </p>
        <p className="preview-greeting">Olá, Maria!</p>
        <p>{s.customWelcomeText || 'Aqui você acompanha e gerencia suas assinaturas.'}</p>
        <div className="preview-subscription">
          <p>
            <strong>Plano mensal</strong> · R$ 29,90 por mês
          </p>
          {buttons.length > 0 ? (
            <ul className="row wrap preview-actions" aria-label="Ações no portal">
              {buttons.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          ) : (
            <p className="muted">Nenhuma ação na assinatura: o assinante só acompanha.</p>
          )}
          {s.allowCancelSubscription ? (
            <p className="muted">
              Ao cancelar:{' '}
              {s.cancelAtPeriodEndOnly ? 'vale no fim do período já pago' : 'agora ou no fim do período'}
              {s.requireCancelReason ? ', com o motivo obrigatório' : ''}.
            </p>
          ) : null}
          {s.allowViewInvoices ? <p className="muted">Ver histórico de pagamentos</p> : null}
        </div>
        <p className="muted">
          Seus dados: {s.allowUpdateBillingInfo ? 'o assinante pode alterar' : 'só leitura'}.
        </p>
        {doneExample ? <p>Depois de uma alteração: “{s.customSuccessMessage || doneExample}”</p> : null}
        {s.allowCancelSubscription ? (
          <p>Depois de um cancelamento: “{s.customCancellationMessage || 'Sua assinatura foi cancelada.'}”</p>
        ) : null}
      </div>
    </section>
  );
}
