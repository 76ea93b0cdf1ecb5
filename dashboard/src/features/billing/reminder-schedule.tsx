import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { RoleNote, useCan } from '../../app/sellers';
import { ConfirmAction, ErrorNote, Field, Loading, PageTitle } from '../../components/ui';
import { stepWhen } from './reminder-labels';

type Step = Schemas['ReminderSchedule']['steps'][number];
type Channel = Step['channels'][number];
type Channels = Schemas['ReminderChannels'];

const CHANNEL_LABEL: Record<Channel, string> = { email: 'E-mail', whatsapp: 'WhatsApp', sms: 'SMS' };
const LIMITS = { min: -30, max: 60, steps: 10, subject: 150, body: 1000 };

/** What a template may say (shared/domain/reminders/schedule.ts PLACEHOLDERS), with a sample for the preview. */
const PLACEHOLDERS: [string, string, string][] = [
  ['empresa', 'o nome do seu negócio', 'Sua Loja'],
  ['cliente', 'o nome do cliente', 'Maria Souza'],
  ['referente', 'o que está sendo cobrado', 'Mensalidade de dezembro'],
  ['valor', 'o valor devido no dia do envio (com multa, juros ou desconto)', 'R$ 120,50'],
  ['vencimento', 'o vencimento', '10/12/2026'],
  ['link', 'o link de pagamento', 'https://pagamentos.exemplo/cobranca/…'],
  [
    'linha_digitavel',
    'a linha digitável do boleto',
    '34191.79001 01043.510047 91020.150008 1 92810000012050',
  ],
  ['pix_copia_e_cola', 'o pix copia e cola', '00020101021226…6304ABCD'],
  [
    'descadastro',
    'o link para o cliente deixar de receber por este canal',
    'https://pagamentos.exemplo/descadastro/…',
  ],
];
const KNOWN = new Set(PLACEHOLDERS.map(([name]) => name));
const SAMPLE = Object.fromEntries(PLACEHOLDERS.map(([name, , sample]) => [name, sample]));
const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

const placeholdersOf = (text: string) => [...text.matchAll(PLACEHOLDER)].map((m) => m[1]);
const fill = (text: string) => text.replace(PLACEHOLDER, (_, name: string) => SAMPLE[name] ?? '');

/** A step's problems before it is sent, in Portuguese (the API checks the same and more). */
function checkStep(step: Step, all: Step[], index: number): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(step.offsetDays) || step.offsetDays < LIMITS.min || step.offsetDays > LIMITS.max)
    problems.push('Dias: de 30 antes a 60 depois do vencimento.');
  if (all.some((other, j) => j < index && other.offsetDays === step.offsetDays))
    problems.push('Já existe outra etapa neste dia.');
  if (step.channels.length === 0) problems.push('Canais: escolha pelo menos um.');
  if (!step.subject.trim()) problems.push('Assunto: não pode ficar vazio.');
  if (!step.body.trim()) problems.push('Mensagem: não pode ficar vazia.');
  const unknown = [...placeholdersOf(step.subject), ...placeholdersOf(step.body)].filter(
    (p) => !KNOWN.has(p),
  );
  if (unknown.length > 0)
    problems.push(`Marcadores desconhecidos: ${[...new Set(unknown)].map((p) => `{{${p}}}`).join(', ')}.`);
  if (step.channels.includes('whatsapp')) {
    if (!step.whatsappTemplate) problems.push('Modelo do WhatsApp: obrigatório com WhatsApp.');
    else if (!/^[a-z0-9_]{1,512}$/.test(step.whatsappTemplate))
      problems.push('Modelo do WhatsApp: o nome do modelo aprovado (letras minúsculas, números e _).');
    if (!placeholdersOf(step.body).includes('descadastro'))
      problems.push('Mensagem: com WhatsApp, inclua {{descadastro}} (o link para o cliente sair).');
  }
  return problems;
}

/**
 * The reminder schedule ("régua de cobrança"): the steps before and after the due date, each on its
 * channels with its message, and the WhatsApp and SMS channels' credentials. Two requests.
 */
export function ReminderScheduleView() {
  const { api } = useApp();
  const scheduleKey = useKey('reminder-schedule');
  const channelsKey = useKey('reminder-channels');
  const schedule = useQuery({
    queryKey: scheduleKey,
    queryFn: () => must(api.GET('/api/reminder-schedule')),
  });
  const channels = useQuery({
    queryKey: channelsKey,
    queryFn: () => must(api.GET('/api/reminder-channels')),
  });
  return (
    <>
      <PageTitle lead="Os lembretes que o cliente recebe antes e depois do vencimento de cada cobrança agendada e parcela de carnê.">
        Régua de cobrança
      </PageTitle>
      {schedule.isPending || channels.isPending ? <Loading /> : null}
      <ErrorNote error={schedule.error ?? channels.error} />
      {channels.data ? <ChannelsSection channels={channels.data} /> : null}
      {schedule.data ? <StepsEditor schedule={schedule.data} channels={channels.data} /> : null}
    </>
  );
}

function StepsEditor({ schedule, channels }: { schedule: Schemas['ReminderSchedule']; channels?: Channels }) {
  const { api } = useApp();
  const client = useQueryClient();
  const key = useKey('reminder-schedule');
  const canWrite = useCan('write');
  const [steps, setSteps] = useState<Step[]>(schedule.steps);
  const [checked, setChecked] = useState(false);
  const save = useMutation({
    mutationFn: (body: { steps: Step[] }) => must(api.PUT('/api/reminder-schedule', { body })),
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      // The API keeps the steps in order of their day.
      setSteps(saved.steps);
    },
  });
  const problems = steps.map((s, i) => (checked ? checkStep(s, steps, i) : []));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (steps.some((s, i) => checkStep(s, steps, i).length > 0)) return;
    save.mutate({
      steps: steps.map((s) => ({
        ...s,
        subject: s.subject.trim(),
        body: s.body.trim(),
        whatsappTemplate: s.channels.includes('whatsapp') ? s.whatsappTemplate : null,
      })),
    });
  };
  const set = (i: number, next: Step) => setSteps(steps.map((s, j) => (j === i ? next : s)));
  const nextOffset = () => {
    const used = new Set(steps.map((s) => s.offsetDays));
    let day = 1;
    while (used.has(day) && day < LIMITS.max) day++;
    return day;
  };
  return (
    <form className="stack" onSubmit={submit} aria-label="Etapas da régua" noValidate>
      <section className="card stack" aria-labelledby="steps">
        <h2 id="steps">Etapas</h2>
        <p className="muted">
          {schedule.source === 'default'
            ? 'Você usa a régua padrão: e-mail 3 dias antes, no dia, e 1, 3 e 7 dias depois do vencimento.'
            : 'Régua salva da sua conta.'}{' '}
          Pagamento, baixa manual e adiamento interrompem ou recomeçam os lembretes pendentes. Até{' '}
          {LIMITS.steps} etapas, de 30 dias antes a 60 dias depois do vencimento.
        </p>
        {steps.length === 0 ? <p className="note">Sem etapas: nenhum lembrete é enviado.</p> : null}
        <ol className="list steps">
          {steps.map((step, i) => (
            <StepItem
              // biome-ignore lint/suspicious/noArrayIndexKey: a step is its position while it is edited
              key={i}
              index={i}
              step={step}
              channels={channels}
              problems={problems[i]}
              apiError={save.error}
              disabled={!canWrite}
              onChange={(next) => set(i, next)}
              onRemove={() => setSteps(steps.filter((_, j) => j !== i))}
            />
          ))}
        </ol>
        <RoleNote access="write" what="a régua é alterada" />
        {canWrite ? (
          <div className="row wrap">
            {steps.length < LIMITS.steps ? (
              <button
                type="button"
                onClick={() =>
                  setSteps([
                    ...steps,
                    {
                      offsetDays: nextOffset(),
                      channels: ['email'],
                      subject: 'Lembrete: {{referente}}',
                      body: 'Olá, {{cliente}}!\n\nA cobrança de {{empresa}} de {{valor}} vence em {{vencimento}}.\nPagar agora: {{link}}',
                      whatsappTemplate: null,
                    },
                  ])
                }
              >
                Adicionar etapa
              </button>
            ) : null}
            <button type="submit" className="primary" disabled={save.isPending}>
              Salvar régua
            </button>
          </div>
        ) : null}
        {save.isSuccess ? (
          <output className="status">Régua salva: vale para os próximos lembretes.</output>
        ) : null}
        <ErrorNote error={save.error} portuguese omit={['steps.']} />
      </section>
      <details className="card placeholders">
        <summary>O que a mensagem pode dizer</summary>
        <ul className="placeholder-list">
          {PLACEHOLDERS.map(([name, meaning]) => (
            <li key={name}>
              <code>{`{{${name}}}`}</code> {meaning}
            </li>
          ))}
        </ul>
      </details>
    </form>
  );
}

function StepItem(props: {
  index: number;
  step: Step;
  channels?: Channels;
  problems: string[];
  apiError: unknown;
  disabled: boolean;
  onChange: (step: Step) => void;
  onRemove: () => void;
}) {
  const { step, index } = props;
  const n = index + 1;
  const whenId = useId();
  const [showPreview, setShowPreview] = useState(false);
  const direction = step.offsetDays < 0 ? 'before' : step.offsetDays > 0 ? 'after' : 'on';
  const days = Math.abs(step.offsetDays);
  const set = (patch: Partial<Step>) => props.onChange({ ...step, ...patch });
  const setWhen = (dir: string, count: number) =>
    set({ offsetDays: dir === 'on' ? 0 : dir === 'before' ? -Math.max(1, count) : Math.max(1, count) });
  const toggle = (c: Channel) =>
    set({
      channels: step.channels.includes(c) ? step.channels.filter((x) => x !== c) : [...step.channels, c],
    });
  const off = (['whatsapp', 'sms'] as const).filter(
    (c) => step.channels.includes(c) && props.channels && !props.channels[c].enabled,
  );
  return (
    <li className="item step">
      <fieldset className="plain stack" disabled={props.disabled}>
        <legend>
          Etapa {n}: {stepWhen(step.offsetDays)}
        </legend>
        <div className="filters">
          <div className="field">
            <label htmlFor={whenId}>{`Etapa ${n}: quando`}</label>
            <select id={whenId} value={direction} onChange={(e) => setWhen(e.target.value, days || 1)}>
              <option value="before">Antes do vencimento</option>
              <option value="on">No dia do vencimento</option>
              <option value="after">Depois do vencimento</option>
            </select>
          </div>
          {direction !== 'on' ? (
            <Field
              label={`Etapa ${n}: dias`}
              type="number"
              inputMode="numeric"
              min={1}
              max={direction === 'before' ? -LIMITS.min : LIMITS.max}
              value={days}
              onChange={(e) => setWhen(direction, Number(e.target.value) || 1)}
            />
          ) : null}
        </div>
        <fieldset>
          <legend>{`Etapa ${n}: canais`}</legend>
          {(['email', 'whatsapp', 'sms'] as const).map((c) => (
            <label key={c} className="check">
              <input type="checkbox" checked={step.channels.includes(c)} onChange={() => toggle(c)} />
              {CHANNEL_LABEL[c]}
            </label>
          ))}
        </fieldset>
        {off.length > 0 ? (
          <p className="note">
            {off.map((c) => CHANNEL_LABEL[c]).join(' e ')} ainda não{' '}
            {off.length > 1 ? 'estão ativados' : 'está ativado'} em Canais, abaixo: até lá, esta etapa não sai
            por {off.length > 1 ? 'eles' : 'ele'}.
          </p>
        ) : null}
        <Field
          label={`Etapa ${n}: assunto do e-mail`}
          value={step.subject}
          maxLength={LIMITS.subject}
          onChange={(e) => set({ subject: e.target.value })}
        />
        <TextArea
          label={`Etapa ${n}: mensagem`}
          value={step.body}
          maxLength={LIMITS.body}
          onChange={(body) => set({ body })}
          hint="Use os marcadores entre chaves duplas, como {{valor}} e {{link}} (lista abaixo)."
        />
        {step.channels.includes('whatsapp') ? (
          <Field
            label={`Etapa ${n}: modelo aprovado do WhatsApp`}
            value={step.whatsappTemplate ?? ''}
            placeholder="cobranca_vence_hoje"
            onChange={(e) => set({ whatsappTemplate: e.target.value.trim() || null })}
            hint="O nome do modelo aprovado na sua conta do WhatsApp Business, com os mesmos marcadores da mensagem."
          />
        ) : null}
      </fieldset>
      {props.problems.length > 0 ? (
        <div role="alert" className="error">
          {props.problems.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </div>
      ) : null}
      <ErrorNote error={props.apiError} portuguese only={[`steps.${index}`]} />
      <div className="row wrap">
        <button type="button" aria-expanded={showPreview} onClick={() => setShowPreview(!showPreview)}>
          {showPreview ? `Esconder a mensagem da etapa ${n}` : `Ver a mensagem da etapa ${n}`}
        </button>
        {props.disabled ? null : (
          <button type="button" className="link" onClick={props.onRemove}>
            Remover etapa {n}
          </button>
        )}
      </div>
      {showPreview ? (
        <section className="preview-message" aria-label={`Mensagem da etapa ${n}, com dados de exemplo`}>
          <p className="muted">Com dados de exemplo:</p>
          {step.channels.includes('email') ? (
            <p>
              <strong>Assunto:</strong> {fill(step.subject)}
            </p>
          ) : null}
          <p className="message-text">{fill(step.body)}</p>
        </section>
      ) : null}
    </li>
  );
}

function TextArea(props: {
  label: string;
  value: string;
  maxLength: number;
  hint: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <textarea
        id={id}
        rows={6}
        maxLength={props.maxLength}
        value={props.value}
        aria-describedby={`${id}-hint`}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <small id={`${id}-hint`} className="hint">
        {props.hint}
      </small>
    </div>
  );
}

/** E-mail is always on; WhatsApp and SMS are switched on with their credentials (the token never comes back). */
function ChannelsSection({ channels }: { channels: Channels }) {
  const canWrite = useCan('write');
  return (
    <section className="card stack" aria-labelledby="channels">
      <h2 id="channels">Canais</h2>
      <p>
        <strong>E-mail</strong> <span className="badge enabled">Ativo</span>{' '}
        <span className="muted">sempre ligado, enviado pelo serviço.</span>
      </p>
      <WhatsappChannel current={channels.whatsapp} canWrite={canWrite} />
      <SmsChannel current={channels.sms} canWrite={canWrite} />
      <RoleNote access="write" what="os canais são ativados" />
    </section>
  );
}

function useChannel(channel: 'whatsapp' | 'sms') {
  const { api } = useApp();
  const client = useQueryClient();
  const key = useKey('reminder-channels');
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/api/reminder-channels/{channel}', { params: { path: { channel } } })),
    onSuccess: (saved) => client.setQueryData(key, saved),
  });
  // What each channel's card edits: whether its form is open, the enabled box, the page's problems.
  const [editing, setEditing] = useState(false);
  const [enabled, setEnabled] = useState(true);
  const [problems, setProblems] = useState<string[]>([]);
  return { key, client, remove, editing, setEditing, enabled, setEnabled, problems, setProblems };
}

function StatusBadge({ enabled }: { enabled: boolean }) {
  return enabled ? <span className="badge enabled">Ativo</span> : <span className="badge">Desativado</span>;
}

/** A reminder channel: its state, its form while edited (fields and the page's problems), its change and remove buttons. */
function ChannelCard(props: {
  name: string;
  current: { enabled: boolean };
  description: ReactNode;
  configured: boolean;
  canWrite: boolean;
  form: ReturnType<typeof useChannel>;
  save: { isSuccess: boolean; isPending: boolean; error: unknown };
  removeQuestion: string;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  const { name, configured, save } = props;
  const { editing, setEditing, enabled, setEnabled, problems, remove } = props.form;
  return (
    <div className="channel stack">
      <h3>
        {name} <StatusBadge enabled={props.current.enabled} />
      </h3>
      {props.description}
      {remove.isSuccess && !configured ? <output className="status">{name} desativado.</output> : null}
      {save.isSuccess && !editing ? <output className="status">{name} salvo.</output> : null}
      {props.canWrite && editing ? (
        <form className="stack" onSubmit={props.onSubmit} aria-label={`Configurar ${name}`} noValidate>
          <label className="check">
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
            Enviar lembretes por {name}
          </label>
          {props.children}
          {problems.length > 0 ? (
            <div role="alert" className="error">
              {problems.map((p) => (
                <p key={p}>{p}</p>
              ))}
            </div>
          ) : null}
          <ErrorNote error={save.error} portuguese />
          <div className="row wrap">
            <button type="submit" className="primary" disabled={save.isPending}>
              Salvar {name}
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Fechar sem salvar
            </button>
          </div>
        </form>
      ) : props.canWrite ? (
        <div className="row wrap">
          <button type="button" onClick={() => setEditing(true)}>
            {configured ? `Alterar ${name}` : `Configurar ${name}`}
          </button>
          {configured ? (
            <ConfirmAction
              label={`Remover ${name}`}
              question={props.removeQuestion}
              confirmLabel="Sim, remover"
              busy={remove.isPending}
              onConfirm={() => remove.mutate()}
            />
          ) : null}
        </div>
      ) : null}
      <ErrorNote error={remove.error} />
    </div>
  );
}

function WhatsappChannel({ current, canWrite }: { current: Channels['whatsapp']; canWrite: boolean }) {
  const { api } = useApp();
  const form = useChannel('whatsapp');
  const { key, client, enabled, setEditing, setProblems } = form;
  const [phoneNumberId, setPhoneNumberId] = useState(current.phoneNumberId ?? '');
  const [accessToken, setAccessToken] = useState('');
  const [language, setLanguage] = useState(current.language ?? 'pt_BR');
  const save = useMutation({
    mutationFn: () =>
      must(
        api.PUT('/api/reminder-channels/whatsapp', {
          body: { enabled, phoneNumberId: phoneNumberId.trim(), accessToken: accessToken.trim(), language },
        }),
      ),
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      setAccessToken('');
      setEditing(false);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: string[] = [];
    if (!/^[0-9]{5,30}$/.test(phoneNumberId.trim()))
      found.push('Id do número do WhatsApp: só dígitos, como aparece no painel da Meta.');
    if (!/^[A-Za-z0-9_-]{20,1000}$/.test(accessToken.trim()))
      found.push('Token de acesso: cole o token do usuário do sistema da sua conta do WhatsApp Business.');
    setProblems(found);
    if (found.length === 0) save.mutate();
  };
  const configured = current.phoneNumberId !== undefined;
  return (
    <ChannelCard
      name="WhatsApp"
      current={current}
      description={
        configured ? (
          <p className="muted">
            Número {current.phoneNumberId} · token terminado em {current.accessTokenLast4} · modelos em{' '}
            {current.language}
          </p>
        ) : (
          <p className="muted">
            Envia pelos modelos aprovados da sua conta do WhatsApp Business (API de nuvem da Meta).
          </p>
        )
      }
      configured={configured}
      canWrite={canWrite}
      form={form}
      save={save}
      removeQuestion="Remover o WhatsApp? Os lembretes deixam de sair por ele e o token é apagado."
      onSubmit={submit}
    >
      <Field
        label="Id do número do WhatsApp"
        inputMode="numeric"
        autoComplete="off"
        value={phoneNumberId}
        onChange={(e) => setPhoneNumberId(e.target.value)}
      />
      <Field
        label="Token de acesso"
        type="password"
        autoComplete="off"
        value={accessToken}
        onChange={(e) => setAccessToken(e.target.value)}
        hint={
          configured
            ? 'Por segurança o token salvo nunca é mostrado: cole-o de novo para salvar.'
            : 'Guardado cifrado e nunca mostrado de novo.'
        }
      />
      <Field
        label="Idioma dos modelos"
        value={language}
        onChange={(e) => setLanguage(e.target.value.trim())}
        hint="Como no modelo aprovado, por exemplo pt_BR."
      />
    </ChannelCard>
  );
}

function SmsChannel({ current, canWrite }: { current: Channels['sms']; canWrite: boolean }) {
  const { api } = useApp();
  const form = useChannel('sms');
  const { key, client, enabled, setEditing, setProblems } = form;
  const [origin, setOrigin] = useState(current.originationIdentity ?? '');
  const save = useMutation({
    mutationFn: () =>
      must(api.PUT('/api/reminder-channels/sms', { body: { enabled, originationIdentity: origin.trim() } })),
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      setEditing(false);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const ok = /^(\+[1-9][0-9]{7,14}|[A-Za-z0-9_:/.-]{3,256})$/.test(origin.trim());
    setProblems(
      ok ? [] : ['Remetente do SMS: um número em formato internacional (+55…), um sender id ou um pool.'],
    );
    if (ok) save.mutate();
  };
  const configured = current.originationIdentity !== undefined;
  return (
    <ChannelCard
      name="SMS"
      current={current}
      description={
        <p className="muted">
          {configured
            ? `Remetente ${current.originationIdentity}.`
            : 'Envia pelo AWS End User Messaging SMS, a partir do seu número ou sender id.'}
        </p>
      }
      configured={configured}
      canWrite={canWrite}
      form={form}
      save={save}
      removeQuestion="Remover o SMS? Os lembretes deixam de sair por ele."
      onSubmit={submit}
    >
      <Field
        label="Remetente do SMS"
        autoComplete="off"
        value={origin}
        placeholder="+5511900001111"
        onChange={(e) => setOrigin(e.target.value)}
      />
    </ChannelCard>
  );
}
