import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { must } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { navigate, useLocation } from '../../app/router';
import { ENVIRONMENT_LABEL, formatDateTime } from '../../components/format';
import { ErrorNote, Loading, LoadMore, PageTitle } from '../../components/ui';

const LOGS_PATH = '/desenvolvedores/registros';
const PAGE_SIZE = 25;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The filters as the address carries them (`?status=404&metodo=POST`). */
function readFilters(query: URLSearchParams) {
  const method = query.get('metodo') ?? '';
  const known = METHODS.find((m) => m === method);
  return { status: query.get('status') ?? '', method: known ?? ('' as const) };
}

/** The delivery badges' colours: 2xx and 3xx as succeeded, 4xx as pending, 5xx as failed. */
const statusClass = (status: number) => (status >= 500 ? 'failed' : status >= 400 ? 'pending' : 'succeeded');

/** Registros de API: the environment's requests of the last 7 days, newest first; one request per page. */
export function RequestLogsView() {
  const { api, environment } = useApp();
  const { query } = useLocation();
  const filters = readFilters(query);
  const status = /^[1-5]\d\d$/.test(filters.status) ? Number(filters.status) : undefined;
  const logs = useInfiniteQuery({
    queryKey: useKey('request-logs', JSON.stringify(filters)),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      must(
        api.GET('/api/request-logs', {
          params: {
            query: { limit: PAGE_SIZE, cursor: pageParam, status, method: filters.method || undefined },
          },
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const rows = logs.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <>
      <PageTitle
        lead={`As requisições à API dos últimos 7 dias no ambiente de ${ENVIRONMENT_LABEL[environment].toLowerCase()}, com chave de API ou pelo painel, da mais nova à mais antiga. Nenhum corpo, cabeçalho ou chave é guardado.`}
      >
        Registros de API
      </PageTitle>
      <LogFilters initial={filters} />
      <ErrorNote error={logs.error} />
      {logs.isPending ? <Loading /> : null}
      {logs.data && rows.length === 0 ? <p className="muted">Nenhuma requisição encontrada.</p> : null}
      <ul className="list" aria-label="Requisições">
        {rows.map((r) => (
          <li key={r.id} className="item">
            <div>
              <p>
                <code>
                  {r.method} {r.path}
                </code>{' '}
                <span className={`badge ${statusClass(r.status)}`}>{r.status}</span>
              </p>
              <dl className="facts">
                <dt>Quando</dt>
                <dd>{formatDateTime(r.timestamp)}</dd>
                <dt>Duração</dt>
                <dd>{r.latencyMs} ms</dd>
                <dt>Origem</dt>
                <dd>{r.authenticatedWith === 'apiKey' ? 'Chave de API' : 'Painel'}</dd>
                {r.idempotencyKey ? (
                  <>
                    <dt>Chave de idempotência</dt>
                    <dd>
                      <code>{r.idempotencyKey}</code>
                    </dd>
                  </>
                ) : null}
              </dl>
            </div>
          </li>
        ))}
      </ul>
      <LoadMore
        hasNextPage={logs.hasNextPage}
        isFetchingNextPage={logs.isFetchingNextPage}
        fetchNextPage={logs.fetchNextPage}
      />
    </>
  );
}

function LogFilters({ initial }: { initial: { status: string; method: string } }) {
  const [filters, setFilters] = useState(initial);
  const statusId = useId();
  const methodId = useId();
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const query = new URLSearchParams();
    if (filters.status.trim()) query.set('status', filters.status.trim());
    if (filters.method) query.set('metodo', filters.method);
    const search = query.toString();
    navigate(search ? `${LOGS_PATH}?${search}` : LOGS_PATH, { replace: true });
  };
  return (
    <form className="card filters" onSubmit={apply} aria-label="Filtrar requisições">
      <div className="field">
        <label htmlFor={statusId}>Status</label>
        <input
          id={statusId}
          inputMode="numeric"
          pattern="[1-5][0-9][0-9]"
          maxLength={3}
          placeholder="ex.: 400"
          value={filters.status}
          onChange={(e) => setFilters({ ...filters, status: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={methodId}>Método</label>
        <select
          id={methodId}
          value={filters.method}
          onChange={(e) => setFilters({ ...filters, method: e.target.value })}
        >
          <option value="">Todos</option>
          {METHODS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </div>
      <div className="row wrap">
        <button type="submit" className="primary">
          Filtrar
        </button>
      </div>
    </form>
  );
}
