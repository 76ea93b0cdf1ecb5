import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link } from '../../app/router';
import { RoleNote, useCan } from '../../app/sellers';
import { ENVIRONMENT_LABEL } from '../../components/format';
import { ErrorNote, Field, Loading, PageTitle, SecretOnce } from '../../components/ui';
import { EventPicker } from './event-picker';

export const ENDPOINT_STATUS = { enabled: 'Ativo', disabled: 'Desativado' } as const;

/** The endpoint form: address, description, events (creation and edition share it). */
export function EndpointForm(props: {
  initial?: Schemas['WebhookEndpoint'];
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (body: { url: string; description: string | null; events: string[] }) => void;
}) {
  const [url, setUrl] = useState(props.initial?.url ?? '');
  const [description, setDescription] = useState(props.initial?.description ?? '');
  const [events, setEvents] = useState<string[]>(props.initial?.events ?? ['*']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit({ url, description: description.trim() || null, events });
  };
  return (
    <form onSubmit={submit} className="stack">
      <Field
        label="URL do endpoint"
        type="url"
        inputMode="url"
        placeholder="https://sua-loja.com.br/webhooks"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        required
        hint="Endereço HTTPS do seu servidor que recebe os eventos (POST, assinado com X-Signature)."
      />
      <Field
        label="Descrição (opcional)"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        maxLength={500}
      />
      <EventPicker value={events} onChange={setEvents} />
      <button type="submit" className="primary" disabled={props.busy || events.length === 0}>
        {props.submitLabel}
      </button>
      <ErrorNote error={props.error} />
    </form>
  );
}

export function WebhooksView() {
  const { api, environment } = useApp();
  const client = useQueryClient();
  const endpoints = useQuery({
    queryKey: useKey('webhook-endpoints'),
    queryFn: () => must(api.GET('/api/webhook-endpoints', { params: { query: { limit: 100 } } })),
  });
  const create = useMutation({
    mutationFn: (body: { url: string; description: string | null; events: string[] }) =>
      must(api.POST('/api/webhook-endpoints', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: [environment, 'webhook-endpoints'] }),
  });
  const [adding, setAdding] = useState(false);
  const canManage = useCan('developer');
  const [created, setCreated] = useState<Schemas['WebhookEndpointCreated'] | null>(null);

  return (
    <>
      <PageTitle
        lead={`Endereços que recebem os eventos do ambiente de ${ENVIRONMENT_LABEL[environment].toLowerCase()}.`}
      >
        Webhooks
      </PageTitle>
      {created ? (
        <section className="card" aria-labelledby="created-endpoint">
          <h2 id="created-endpoint">Endpoint cadastrado</h2>
          <p>
            <Link to={`/desenvolvedores/webhooks/${created.id}`}>{created.url}</Link>
          </p>
          <SecretOnce
            label="Segredo de assinatura"
            value={created.secret}
            note="Confira a assinatura X-Signature de cada evento com este segredo. Guarde agora: não será mostrado de novo."
          />
        </section>
      ) : null}
      <RoleNote access="developer" what="endpoints são cadastrados" />
      {!canManage ? null : adding ? (
        <section className="card" aria-labelledby="new-endpoint">
          <h2 id="new-endpoint">Novo endpoint</h2>
          <EndpointForm
            submitLabel="Cadastrar endpoint"
            busy={create.isPending}
            error={create.error}
            onSubmit={(body) =>
              create.mutate(body, {
                onSuccess: (endpoint) => {
                  setCreated(endpoint);
                  setAdding(false);
                },
              })
            }
          />
        </section>
      ) : (
        <button
          type="button"
          className="primary"
          onClick={() => {
            setAdding(true);
            setCreated(null);
          }}
        >
          Adicionar endpoint
        </button>
      )}
      <section aria-labelledby="endpoints-list">
        <h2 id="endpoints-list">Endpoints</h2>
        {endpoints.isPending ? <Loading /> : null}
        <ErrorNote error={endpoints.error} />
        {endpoints.data && endpoints.data.data.length === 0 ? (
          <p className="muted">Nenhum endpoint cadastrado.</p>
        ) : null}
        <ul className="list">
          {endpoints.data?.data.map((endpoint) => (
            <li key={endpoint.id} className="item">
              <div>
                <Link to={`/desenvolvedores/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
                <p className="muted">
                  {endpoint.description ? `${endpoint.description} · ` : ''}
                  {endpoint.events.includes('*') ? 'Todos os eventos' : `${endpoint.events.length} evento(s)`}
                </p>
              </div>
              <span className={`badge ${endpoint.status}`}>{ENDPOINT_STATUS[endpoint.status]}</span>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
