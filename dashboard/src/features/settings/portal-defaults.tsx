import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { useCan } from '../../app/sellers';
import { ErrorNote, Loading, PageTitle } from '../../components/ui';

type Config = Schemas['PortalConfiguration'];
type Flag =
  | 'allowCancelSubscription'
  | 'allowUpdatePaymentMethod'
  | 'allowUpdateBillingInfo'
  | 'allowViewInvoices'
  | 'cancelAtPeriodEndOnly'
  | 'requireCancelReason';

/** The seller-level flags, with the spec's defaults (a product's own configuration overrides them). */
const FLAGS: { name: Flag; label: string; default: boolean }[] = [
  { name: 'allowCancelSubscription', label: 'O cliente pode cancelar a assinatura', default: true },
  { name: 'cancelAtPeriodEndOnly', label: 'Cancelar só ao fim do período pago', default: false },
  { name: 'requireCancelReason', label: 'Pedir o motivo do cancelamento', default: false },
  { name: 'allowUpdatePaymentMethod', label: 'O cliente pode trocar o cartão', default: true },
  { name: 'allowUpdateBillingInfo', label: 'O cliente pode atualizar os dados de cobrança', default: true },
  { name: 'allowViewInvoices', label: 'O cliente vê o histórico de cobranças', default: true },
];

type Flags = Record<Flag, boolean>;
const flagsOf = (config: Config | null): Flags =>
  Object.fromEntries(FLAGS.map((f) => [f.name, config?.[f.name] ?? f.default])) as Flags;

/** Configurações → Portal: what the customer portal allows, for every product without its own configuration. */
export function PortalDefaultsView() {
  const { api } = useApp();
  const client = useQueryClient();
  const key = useKey('portal-defaults');
  const canEdit = useCan('write');
  const config = useQuery({ queryKey: key, queryFn: () => must(api.GET('/api/portal/configuration')) });
  const [flags, setFlags] = useState<Flags>(flagsOf(null));
  const [welcome, setWelcome] = useState('');
  useEffect(() => {
    if (config.isSuccess) {
      setFlags(flagsOf(config.data));
      setWelcome(config.data?.customWelcomeText ?? '');
    }
  }, [config.isSuccess, config.data]);
  const save = useMutation({
    mutationFn: () => {
      // PUT replaces the configuration: what this view does not edit is sent back as it was.
      const { productId: _p, createdAt: _c, updatedAt: _u, ...kept } = config.data ?? ({} as Partial<Config>);
      return must(
        api.PUT('/api/portal/configuration', {
          body: { ...kept, ...flags, customWelcomeText: welcome.trim() || null },
        }),
      );
    },
    onSuccess: (saved) => client.setQueryData(key, saved),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <>
      <PageTitle lead="O que o cliente pode fazer no portal de assinaturas. Um produto com configuração própria usa a dele.">
        Portal
      </PageTitle>
      {config.isPending ? <Loading /> : null}
      <ErrorNote error={config.error} />
      {config.isSuccess ? (
        <section className="card" aria-labelledby="portal-form">
          <h2 id="portal-form">Padrões do portal</h2>
          <form onSubmit={submit} className="stack">
            <fieldset disabled={!canEdit} className="plain stack">
              <legend className="sr-only">Permissões do cliente</legend>
              {FLAGS.map((f) => (
                <label key={f.name} className="check">
                  <input
                    type="checkbox"
                    checked={flags[f.name]}
                    onChange={(e) => setFlags({ ...flags, [f.name]: e.target.checked })}
                  />
                  <span>{f.label}</span>
                </label>
              ))}
              <div className="field">
                <label htmlFor="portal-welcome">Texto de boas-vindas</label>
                <textarea
                  id="portal-welcome"
                  rows={3}
                  maxLength={2000}
                  value={welcome}
                  onChange={(e) => setWelcome(e.target.value)}
                />
              </div>
            </fieldset>
            <p className="muted">O nome, o logo e a cor vêm do Perfil do negócio.</p>
            {canEdit ? (
              <button type="submit" className="primary" disabled={save.isPending}>
                Salvar padrões
              </button>
            ) : null}
            {save.isSuccess ? <output className="status">Padrões salvos.</output> : null}
            <ErrorNote error={save.error} />
          </form>
        </section>
      ) : null}
    </>
  );
}
