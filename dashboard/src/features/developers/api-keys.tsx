import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { useCan } from '../../app/sellers';
import { ENVIRONMENT_LABEL, formatDateTime } from '../../components/format';
import { ConfirmAction, ErrorNote, Field, Loading, PageTitle, SecretOnce } from '../../components/ui';

/** The seller's keys of the environment the switch shows (one request). */
export function useApiKeys() {
  const { api, environment } = useApp();
  return useQuery({
    queryKey: useKey('api-keys'),
    queryFn: () => must(api.GET('/api/api-keys', { params: { query: { environment } } })),
  });
}

export function useCreateApiKey() {
  const { api } = useApp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; environment: 'test' | 'live'; permissions: 'write' | 'read' }) =>
      must(
        api.POST('/api/api-keys', {
          body,
          params: { header: { 'X-Environment': body.environment } },
        }),
      ),
    onSuccess: (_, body) => client.invalidateQueries({ queryKey: [body.environment, 'api-keys'] }),
  });
}

export function ApiKeysView() {
  const { api, environment } = useApp();
  const client = useQueryClient();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useMutation({
    mutationFn: (id: string) => must(api.DELETE('/api/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: [environment, 'api-keys'] }),
  });
  const canManage = useCan('developer');
  const [name, setName] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [created, setCreated] = useState<Schemas['ApiKeyCreated'] | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, environment, permissions: readOnly ? 'read' : 'write' },
      {
        onSuccess: (key) => {
          setCreated(key);
          setName('');
        },
      },
    );
  };

  return (
    <>
      <PageTitle
        lead={`Chaves do ambiente de ${ENVIRONMENT_LABEL[environment].toLowerCase()}: o seu servidor envia uma delas em cada chamada (Authorization: Bearer).`}
      >
        Chaves de API
      </PageTitle>
      {canManage ? (
        <section className="card" aria-labelledby="new-key">
          <h2 id="new-key">Nova chave</h2>
          <form onSubmit={submit} className="stack">
            <Field
              label="Nome"
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={100}
            />
            <p className="muted">
              Ambiente: <strong>{ENVIRONMENT_LABEL[environment]}</strong> (troque no seletor “Modo de teste”).
            </p>
            <label className="check">
              <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} />
              Somente leitura (só consultas GET)
            </label>
            <button type="submit" className="primary" disabled={create.isPending}>
              Criar chave
            </button>
            <ErrorNote error={create.error} />
          </form>
          {created ? <SecretOnce label={`Chave “${created.name}”`} value={created.key} /> : null}
        </section>
      ) : null}
      <section aria-labelledby="keys-list">
        <h2 id="keys-list">Suas chaves</h2>
        {keys.isPending ? <Loading /> : null}
        <ErrorNote error={keys.error ?? revoke.error} />
        {keys.data && keys.data.data.length === 0 ? <p className="muted">Nenhuma chave ainda.</p> : null}
        <ul className="list">
          {keys.data?.data.map((key) => (
            <li key={key.id} className="item">
              <div>
                <strong>{key.name}</strong> <code>{key.keyPreview}</code>
                <p className="muted">
                  {key.permissions === 'read' ? 'Somente leitura' : 'Leitura e escrita'} · criada em{' '}
                  {formatDateTime(key.createdAt)} · último uso {formatDateTime(key.lastUsedAt)}
                </p>
              </div>
              {key.revokedAt ? (
                <span className="badge">Revogada em {formatDateTime(key.revokedAt)}</span>
              ) : !canManage ? null : (
                <ConfirmAction
                  label={`Revogar ${key.name}`}
                  question="Revogar esta chave? Chamadas com ela passam a ser recusadas."
                  confirmLabel="Sim, revogar"
                  busy={revoke.isPending}
                  onConfirm={() => revoke.mutate(key.id)}
                />
              )}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
