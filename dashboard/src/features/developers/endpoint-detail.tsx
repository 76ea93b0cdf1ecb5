import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link, navigate } from '../../app/router';
import { RoleNote, useCan } from '../../app/sellers';
import { formatDateTime } from '../../components/format';
import { ConfirmAction, ErrorNote, Loading, PageTitle, SecretOnce } from '../../components/ui';
import { eventSentence } from './event-sentences';
import { ENDPOINT_STATUS, EndpointForm } from './webhooks';

export const DELIVERY_STATUS = { pending: 'Pendente', succeeded: 'Entregue', failed: 'Falhou' } as const;

/** The event a test sends: harmless, and received by an endpoint that takes every event. */
const TEST_EVENT = 'product.updated';

/** One endpoint and its delivery log: two requests. */
export function EndpointDetailView({ id }: { id: string }) {
  const { api, environment } = useApp();
  const client = useQueryClient();
  const endpointKey = useKey('webhook-endpoints', id);
  const deliveriesKey = useKey('webhook-endpoints', id, 'deliveries');
  const endpoint = useQuery({
    queryKey: endpointKey,
    queryFn: () => must(api.GET('/api/webhook-endpoints/{id}', { params: { path: { id } } })),
  });
  const deliveries = useQuery({
    queryKey: deliveriesKey,
    queryFn: () =>
      must(
        api.GET('/api/webhook-endpoints/{id}/deliveries', { params: { path: { id }, query: { limit: 50 } } }),
      ),
  });
  const refresh = () => client.invalidateQueries({ queryKey: [environment, 'webhook-endpoints'] });
  const update = useMutation({
    mutationFn: (body: {
      url?: string;
      description?: string | null;
      events?: string[];
      status?: 'enabled' | 'disabled';
    }) => must(api.PATCH('/api/webhook-endpoints/{id}', { params: { path: { id } }, body })),
    onSuccess: refresh,
  });
  const rotate = useMutation({
    mutationFn: () =>
      must(api.POST('/api/webhook-endpoints/{id}/rotate-secret', { params: { path: { id } } })),
  });
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/api/webhook-endpoints/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      await refresh();
      navigate('/desenvolvedores/webhooks');
    },
  });
  const resend = useMutation({
    mutationFn: (deliveryId: string) =>
      must(api.POST('/api/webhook-deliveries/{id}/resend', { params: { path: { id: deliveryId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: deliveriesKey }),
  });
  const sendTest = useMutation({
    mutationFn: () => must(api.POST('/api/test-helpers/events', { body: { event: TEST_EVENT } })),
    onSuccess: () => client.invalidateQueries({ queryKey: deliveriesKey }),
  });
  const [editing, setEditing] = useState(false);
  const canManage = useCan('developer');
  const canWrite = useCan('write');

  if (endpoint.isPending) return <Loading />;
  if (!endpoint.data)
    return (
      <>
        <PageTitle>Endpoint</PageTitle>
        <ErrorNote error={endpoint.error} />
        <Link to="/desenvolvedores/webhooks">Voltar aos webhooks</Link>
      </>
    );
  const data = endpoint.data;
  const enabled = data.status === 'enabled';
  return (
    <>
      <p>
        <Link to="/desenvolvedores/webhooks">Voltar para Webhooks</Link>
      </p>
      <PageTitle lead={data.description ?? undefined}>{data.url}</PageTitle>
      <section className="card" aria-labelledby="endpoint-settings">
        <h2 id="endpoint-settings">Configuração</h2>
        <p>
          Situação: <span className={`badge ${data.status}`}>{ENDPOINT_STATUS[data.status]}</span>
        </p>
        {editing ? (
          <EndpointForm
            initial={data}
            submitLabel="Salvar alterações"
            busy={update.isPending}
            error={update.error}
            onSubmit={(body) => update.mutate(body, { onSuccess: () => setEditing(false) })}
          />
        ) : (
          <ul className="events-list" aria-label="Eventos enviados">
            {data.events.map((name) => (
              <li key={name}>
                <code>{name}</code> <span className="muted">{eventSentence(name)}</span>
              </li>
            ))}
          </ul>
        )}
        <RoleNote access="developer" what="endpoints são alterados e excluídos" />
        {canManage ? (
          <div className="row wrap">
            {editing ? null : (
              <button type="button" onClick={() => setEditing(true)}>
                Editar
              </button>
            )}
            <button
              type="button"
              disabled={update.isPending}
              onClick={() => update.mutate({ status: enabled ? 'disabled' : 'enabled' })}
            >
              {enabled ? 'Desativar' : 'Reativar'}
            </button>
            <ConfirmAction
              label="Gerar novo segredo"
              question="Gerar um novo segredo? O atual deixa de valer."
              confirmLabel="Sim, gerar"
              busy={rotate.isPending}
              onConfirm={() => rotate.mutate()}
            />
            <ConfirmAction
              label="Excluir endpoint"
              question="Excluir este endpoint? Ele deixa de receber eventos."
              confirmLabel="Sim, excluir"
              busy={remove.isPending}
              onConfirm={() => remove.mutate()}
            />
          </div>
        ) : null}
        <ErrorNote error={rotate.error ?? remove.error ?? (editing ? null : update.error)} />
        {rotate.data ? <SecretOnce label="Novo segredo de assinatura" value={rotate.data.secret} /> : null}
      </section>
      <section aria-labelledby="deliveries">
        <div className="row wrap spread">
          <h2 id="deliveries">Entregas</h2>
          <div className="row wrap">
            {environment === 'test' && canWrite ? (
              <button type="button" disabled={sendTest.isPending} onClick={() => sendTest.mutate()}>
                Enviar evento de teste
              </button>
            ) : null}
            <button type="button" onClick={() => deliveries.refetch()}>
              Atualizar
            </button>
          </div>
        </div>
        {sendTest.data ? (
          <output className="status">
            Evento de teste {sendTest.data.event} enviado ({sendTest.data.id}).
          </output>
        ) : null}
        <ErrorNote error={deliveries.error ?? sendTest.error ?? resend.error} />
        {deliveries.isPending ? <Loading /> : null}
        {deliveries.data && deliveries.data.data.length === 0 ? (
          <p className="muted">Nenhuma entrega ainda.</p>
        ) : null}
        <ul className="list" aria-label="Entregas deste endpoint">
          {deliveries.data?.data.map((delivery) => (
            <DeliveryItem
              key={delivery.id}
              delivery={delivery}
              link="event"
              onResend={canManage ? () => resend.mutate(delivery.id) : undefined}
              busy={resend.isPending}
            />
          ))}
        </ul>
      </section>
    </>
  );
}

/** A delivery; `link` names what it points to: its event (in an endpoint's log) or its endpoint (in an event). */
export function DeliveryItem(props: {
  delivery: Schemas['WebhookDelivery'];
  link: 'event' | 'endpoint';
  onResend?: () => void;
  busy?: boolean;
}) {
  const d = props.delivery;
  return (
    <li className="item delivery">
      <div>
        <p>
          <span className={`badge ${d.status}`}>{DELIVERY_STATUS[d.status]}</span> <code>{d.event}</code>{' '}
          {props.link === 'event' ? (
            <Link to={`/desenvolvedores/eventos/${d.eventId}`} className="muted">
              {d.eventId}
            </Link>
          ) : (
            <Link to={`/desenvolvedores/webhooks/${d.endpointId}`} className="muted">
              Endpoint {d.endpointId}
            </Link>
          )}
        </p>
        <dl className="facts">
          <dt>Tentativas</dt>
          <dd>{d.attemptCount}</dd>
          <dt>Resposta</dt>
          <dd>{d.lastStatusCode ?? 'sem resposta'}</dd>
          <dt>Última tentativa</dt>
          <dd>{formatDateTime(d.lastAttemptAt)}</dd>
          <dt>Próxima tentativa</dt>
          <dd>{formatDateTime(d.nextAttemptAt)}</dd>
        </dl>
        {d.lastError ? <pre className="excerpt">{d.lastError}</pre> : null}
        {d.lastResponseExcerpt ? (
          <>
            <p className="muted">Início da resposta</p>
            {/* The endpoint's own words, as text: React escapes them. */}
            <pre className="excerpt">
              <code>{d.lastResponseExcerpt}</code>
            </pre>
          </>
        ) : null}
      </div>
      {props.onResend ? (
        <button type="button" onClick={props.onResend} disabled={props.busy}>
          Reenviar
        </button>
      ) : null}
    </li>
  );
}
