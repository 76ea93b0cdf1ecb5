import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { must } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { ConfirmAction, ErrorNote, Loading, PageTitle } from '../../components/ui';
import { PortalForm, type PortalSettings } from '../portal/portal-config';
import { ProductTabs, useProduct } from './product-tabs';

const NOTE = {
  product: 'Configuração própria deste produto.',
  seller: 'Este produto usa a configuração da conta (Portal do cliente). Salvar aqui cria uma só dele.',
  default: 'Este produto usa os valores padrão. Salvar aqui cria uma configuração só dele.',
} as const;

/** The portal a subscriber of this product sees: its own configuration, else the seller's (two requests). */
export function ProductPortalView({ id }: { id: string }) {
  const { api } = useApp();
  const client = useQueryClient();
  const product = useProduct(id);
  const key = useKey('products', id, 'portal');
  const path = { params: { path: { id } } };
  const config = useQuery({
    queryKey: key,
    queryFn: () => must(api.GET('/api/products/{id}/portal-config/effective', path)),
  });
  const refresh = () => client.invalidateQueries({ queryKey: key });
  const save = useMutation({
    mutationFn: (body: PortalSettings) =>
      must(api.POST('/api/products/{id}/portal-config', { ...path, body })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/api/products/{id}/portal-config', path)),
    onSuccess: refresh,
  });

  return (
    <>
      <ProductTabs id={id} />
      <PageTitle lead="O portal em que o assinante deste produto gerencia a assinatura.">
        {product.data ? `Portal · ${product.data.name}` : 'Portal'}
      </PageTitle>
      {config.isPending ? <Loading /> : null}
      <ErrorNote error={config.error ?? product.error} />
      {remove.isSuccess ? (
        <output className="status">Configuração própria removida: vale a da conta.</output>
      ) : null}
      {config.data ? (
        <PortalForm
          key={config.dataUpdatedAt}
          initial={config.data}
          note={NOTE[config.data.source]}
          busy={save.isPending}
          error={save.error ?? remove.error}
          saved={save.isSuccess && !remove.isSuccess}
          onSave={(body) => {
            remove.reset();
            save.mutate(body);
          }}
        >
          {config.data.source === 'product' ? (
            <ConfirmAction
              label="Usar a configuração da conta"
              question="Remover a configuração própria deste produto?"
              confirmLabel="Sim, remover"
              busy={remove.isPending}
              onConfirm={() => {
                save.reset();
                remove.mutate();
              }}
            />
          ) : null}
        </PortalForm>
      ) : null}
    </>
  );
}
