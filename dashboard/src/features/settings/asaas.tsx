import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, must, type Schemas } from '../../api/client';
import { useApp } from '../../app/context';
import { RoleNote, useCan } from '../../app/sellers';
import { formatDateTime } from '../../components/format';
import { ConfirmAction, ErrorNote, Field, Loading, PageTitle, SecretOnce } from '../../components/ui';

const ASAAS_ENVIRONMENT = { sandbox: 'Sandbox do Asaas', production: 'Produção do Asaas' } as const;
const KEY = ['asaas-connection'];

/**
 * "Conectar Asaas": the provider of the live mode. One request (the connection, or its 404);
 * the connection belongs to the seller, not to a mode.
 */
export function AsaasView() {
  const { api, environment, setEnvironment } = useApp();
  const client = useQueryClient();
  const canManage = useCan('admin');
  const connection = useQuery({
    queryKey: KEY,
    queryFn: async () => {
      try {
        return await must(api.GET('/api/provider-connections/asaas'));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
  const connect = useMutation({
    mutationFn: (body: { apiKey: string; environment: 'sandbox' | 'production' }) =>
      must(api.PUT('/api/provider-connections/asaas', { body })),
    onSuccess: (connected) => client.setQueryData(KEY, connected),
  });
  const disconnect = useMutation({
    mutationFn: () => must(api.DELETE('/api/provider-connections/asaas')),
    onSuccess: () => {
      connect.reset();
      client.setQueryData(KEY, null);
    },
  });

  return (
    <>
      <PageTitle lead="No modo de produção, as vendas são cobradas pela sua conta Asaas. A chave fica guardada cifrada e nunca é mostrada de novo.">
        Conectar Asaas
      </PageTitle>
      {environment === 'test' ? (
        <p className="note">
          Você está no modo de teste, em que o sandbox do serviço faz as cobranças.{' '}
          <button type="button" onClick={() => setEnvironment('live')}>
            Ir para o modo de produção
          </button>
        </p>
      ) : null}
      {connection.isPending ? <Loading /> : null}
      <ErrorNote error={connection.error} />
      {connection.data ? (
        <section className="card" aria-labelledby="connected">
          <h2 id="connected">Conta conectada</h2>
          <dl className="facts">
            <dt>Conta</dt>
            <dd>{connection.data.accountName}</dd>
            <dt>Ambiente</dt>
            <dd>{ASAAS_ENVIRONMENT[connection.data.environment]}</dd>
            <dt>Chave</dt>
            <dd>…{connection.data.apiKeyLast4}</dd>
            <dt>Conectada em</dt>
            <dd>{formatDateTime(connection.data.connectedAt)}</dd>
          </dl>
          {connect.data ? <WebhookInstructions webhook={connect.data.webhook} /> : null}
          {canManage ? (
            <ConfirmAction
              label="Desconectar"
              question="Desconectar o Asaas? Novas vendas em produção ficam sem meio de cobrança."
              confirmLabel="Sim, desconectar"
              busy={disconnect.isPending}
              onConfirm={() => disconnect.mutate()}
            />
          ) : null}
          <ErrorNote error={disconnect.error} />
        </section>
      ) : null}
      <RoleNote access="admin" what="a conta Asaas é conectada e desconectada" />
      {connection.data === null && canManage ? (
        <ConnectForm
          busy={connect.isPending}
          error={connect.error}
          onSubmit={(body) => connect.mutate(body)}
        />
      ) : null}
    </>
  );
}

function ConnectForm(props: {
  busy: boolean;
  error: unknown;
  onSubmit: (body: { apiKey: string; environment: 'sandbox' | 'production' }) => void;
}) {
  const [apiKey, setApiKey] = useState('');
  const [asaasEnvironment, setAsaasEnvironment] = useState<'sandbox' | 'production'>('production');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit({ apiKey: apiKey.trim(), environment: asaasEnvironment });
  };
  return (
    <section className="card" aria-labelledby="connect">
      <h2 id="connect">Conectar sua conta</h2>
      <form onSubmit={submit} className="stack">
        <Field
          label="Chave de API do Asaas"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          required
          autoComplete="off"
          spellCheck={false}
          placeholder="$aact_…"
          hint="No Asaas: Integrações > Chave de API."
        />
        <fieldset>
          <legend>Ambiente da chave</legend>
          {(['production', 'sandbox'] as const).map((value) => (
            <label key={value} className="check">
              <input
                type="radio"
                name="asaas-environment"
                value={value}
                checked={asaasEnvironment === value}
                onChange={() => setAsaasEnvironment(value)}
              />
              {ASAAS_ENVIRONMENT[value]}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="primary" disabled={props.busy}>
          Conectar Asaas
        </button>
        <ErrorNote error={props.error} />
      </form>
    </section>
  );
}

function WebhookInstructions({ webhook }: { webhook: Schemas['ProviderConnected']['webhook'] }) {
  return (
    <div className="stack">
      <h3>Configure o webhook no Asaas</h3>
      <p>
        No Asaas, em Integrações {'>'} Webhooks (API v3), cole o endereço e o token abaixo. O Asaas envia o
        token no cabeçalho <code>{webhook.header}</code>.
      </p>
      <SecretOnce label="URL do webhook" value={webhook.url} note="Este endereço não muda." />
      <SecretOnce label="Token de autenticação" value={webhook.authToken} />
    </div>
  );
}
