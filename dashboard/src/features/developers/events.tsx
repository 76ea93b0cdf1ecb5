import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { must } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link, navigate, useLocation } from '../../app/router';
import { useCan } from '../../app/sellers';
import { ENVIRONMENT_LABEL, formatDateTime } from '../../components/format';
import { ErrorNote, Field, Loading, LoadMore, PageTitle } from '../../components/ui';
import { DeliveryItem } from './endpoint-detail';
import { DEPRECATED_EVENTS, EVENT_GROUPS, eventSentence } from './event-sentences';

const EVENTS_PATH = '/desenvolvedores/eventos';
const PAGE_SIZE = 25;

/** The filters as the address carries them (so the back button and a shared link keep them). */
interface Filters {
  type: string;
  resourceId: string;
  /** Calendar days (yyyy-mm-dd) in America/Sao_Paulo. */
  from: string;
  to: string;
}

const QUERY_NAMES: Record<keyof Filters, string> = {
  type: 'tipo',
  resourceId: 'recurso',
  from: 'de',
  to: 'ate',
};

function readFilters(query: URLSearchParams): Filters {
  return {
    type: query.get(QUERY_NAMES.type) ?? '',
    resourceId: query.get(QUERY_NAMES.resourceId) ?? '',
    from: query.get(QUERY_NAMES.from) ?? '',
    to: query.get(QUERY_NAMES.to) ?? '',
  };
}

/**
 * A São Paulo calendar day's first or last instant, as the API's UTC instant. Brazil keeps -03:00
 * all year since 2019, so the offset is fixed.
 */
export function saoPauloDayBound(day: string, edge: 'start' | 'end'): string {
  const time = edge === 'start' ? '00:00:00.000' : '23:59:59.999';
  return new Date(`${day}T${time}-03:00`).toISOString();
}

/** Eventos: the last 30 days, newest first, filtered; one request per page ("Carregar mais"). */
export function EventsView() {
  const { api, environment } = useApp();
  const { query } = useLocation();
  const filters = readFilters(query);
  const events = useInfiniteQuery({
    queryKey: useKey('events', JSON.stringify(filters)),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      must(
        api.GET('/api/events', {
          params: {
            query: {
              limit: PAGE_SIZE,
              cursor: pageParam,
              type: filters.type || undefined,
              resourceId: filters.resourceId.trim() || undefined,
              from: filters.from ? saoPauloDayBound(filters.from, 'start') : undefined,
              to: filters.to ? saoPauloDayBound(filters.to, 'end') : undefined,
            },
          },
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const rows = events.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <>
      <PageTitle
        lead={`Os eventos dos últimos 30 dias no ambiente de ${ENVIRONMENT_LABEL[environment].toLowerCase()}, do mais novo ao mais antigo. Abra um evento para ver suas entregas e reenviá-las.`}
      >
        Eventos
      </PageTitle>
      <EventFilters initial={filters} />
      <ErrorNote error={events.error} />
      {events.isPending ? <Loading /> : null}
      {events.data && rows.length === 0 ? <p className="muted">Nenhum evento encontrado.</p> : null}
      <ul className="list" aria-label="Eventos">
        {rows.map((event) => (
          <li key={event.id} className="item">
            <div>
              <p>
                <Link to={`${EVENTS_PATH}/${event.id}`}>
                  <code>{event.event}</code>
                </Link>{' '}
                <span className="muted">{eventSentence(event.event)}</span>
              </p>
              <dl className="facts">
                <dt>Quando</dt>
                <dd>{formatDateTime(event.timestamp)}</dd>
                <dt>Recurso</dt>
                <dd>{resourceIdOf(event.data) ?? '—'}</dd>
                <dt>Evento</dt>
                <dd>
                  <code>{event.id}</code>
                </dd>
              </dl>
            </div>
          </li>
        ))}
      </ul>
      <LoadMore
        hasNextPage={events.hasNextPage}
        isFetchingNextPage={events.isFetchingNextPage}
        fetchNextPage={events.fetchNextPage}
      />
    </>
  );
}

function EventFilters({ initial }: { initial: Filters }) {
  const [filters, setFilters] = useState(initial);
  const typeId = useId();
  const set = (name: keyof Filters) => (e: { target: { value: string } }) =>
    setFilters({ ...filters, [name]: e.target.value });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const query = new URLSearchParams();
    for (const name of Object.keys(QUERY_NAMES) as (keyof Filters)[]) {
      const value = filters[name].trim();
      if (value) query.set(QUERY_NAMES[name], value);
    }
    const search = query.toString();
    navigate(search ? `${EVENTS_PATH}?${search}` : EVENTS_PATH, { replace: true });
  };
  return (
    <form className="card filters" onSubmit={apply} aria-label="Filtrar eventos">
      <div className="field">
        <label htmlFor={typeId}>Tipo</label>
        <select id={typeId} value={filters.type} onChange={set('type')}>
          <option value="">Todos os tipos</option>
          {EVENT_GROUPS.map((group) => (
            <optgroup key={group.title} label={group.title}>
              {Object.keys(group.events).map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </optgroup>
          ))}
          {Object.keys(DEPRECATED_EVENTS).map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <Field
        label="ID do recurso"
        value={filters.resourceId}
        onChange={set('resourceId')}
        maxLength={100}
        hint="O id no payload: uma venda, uma sessão de checkout, um produto…"
      />
      <Field label="De" type="date" value={filters.from} onChange={set('from')} />
      <Field label="Até" type="date" value={filters.to} onChange={set('to')} />
      <div className="row wrap">
        <button type="submit" className="primary">
          Filtrar
        </button>
      </div>
    </form>
  );
}

/** The payload's `id`, the resource the event is about (what the resource filter matches). */
function resourceIdOf(data: unknown): string | null {
  if (data && typeof data === 'object' && 'id' in data) {
    const id = (data as { id: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  }
  return null;
}

/** One event: its payload and each delivery of it, which can be resent. One request. */
export function EventDetailView({ id }: { id: string }) {
  const { api } = useApp();
  const client = useQueryClient();
  const key = useKey('events', 'detail', id);
  const event = useQuery({
    queryKey: key,
    queryFn: () => must(api.GET('/api/events/{id}', { params: { path: { id } } })),
  });
  const resend = useMutation({
    mutationFn: (deliveryId: string) =>
      must(api.POST('/api/webhook-deliveries/{id}/resend', { params: { path: { id: deliveryId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
  const canManage = useCan('developer');
  const back = (
    <p>
      <Link to={EVENTS_PATH}>Voltar para Eventos</Link>
    </p>
  );
  if (event.isPending) return <Loading />;
  if (!event.data)
    return (
      <>
        <PageTitle>Evento</PageTitle>
        <ErrorNote error={event.error} />
        {back}
      </>
    );
  const data = event.data;
  return (
    <>
      {back}
      <PageTitle lead={eventSentence(data.event)}>{data.event}</PageTitle>
      <section className="card" aria-labelledby="event-facts">
        <h2 id="event-facts">Evento</h2>
        <dl className="facts">
          <dt>ID</dt>
          <dd>
            <code>{data.id}</code>
          </dd>
          <dt>Quando</dt>
          <dd>{formatDateTime(data.timestamp)}</dd>
          <dt>Recurso</dt>
          <dd>{resourceIdOf(data.data) ?? '—'}</dd>
        </dl>
        <h3>Payload</h3>
        <pre className="excerpt payload">{JSON.stringify(data.data, null, 2)}</pre>
      </section>
      <section aria-labelledby="event-deliveries">
        <div className="row wrap spread">
          <h2 id="event-deliveries">Entregas</h2>
          <button type="button" onClick={() => event.refetch()}>
            Atualizar
          </button>
        </div>
        <ErrorNote error={resend.error} />
        {data.deliveries.length === 0 ? <p className="muted">Nenhum endpoint recebe este evento.</p> : null}
        <ul className="list" aria-label="Entregas deste evento">
          {data.deliveries.map((delivery) => (
            <DeliveryItem
              key={delivery.id}
              delivery={delivery}
              link="endpoint"
              onResend={canManage ? () => resend.mutate(delivery.id) : undefined}
              busy={resend.isPending}
            />
          ))}
        </ul>
      </section>
    </>
  );
}
