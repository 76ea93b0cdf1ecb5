import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link, useLocation } from '../../app/router';
import { RoleNote, useCan } from '../../app/sellers';
import { formatBrl, formatDateTime } from '../../components/format';
import { QrCode } from '../../components/qr-code';
import { ConfirmAction, CopyButton, ErrorNote, Loading, PageTitle } from '../../components/ui';
import { DefaultsForm } from '../billing/late-charge-settings';
import { LATE_CHARGES_PATH } from '../billing/reminder-labels';
import { type ProductBody, ProductForm } from './product-form';
import { ProductTabs, useProduct } from './product-tabs';
import { methodsText, ProductStatus } from './products';

/** One product: its payment link (copy, QR code, the hosted page), its data to edit, deactivation (one request). */
export function ProductDetailView({ id }: { id: string }) {
  const { api, environment } = useApp();
  const client = useQueryClient();
  const { query } = useLocation();
  const product = useProduct(id);
  const refresh = () => client.invalidateQueries({ queryKey: [environment, 'products'] });
  const update = useMutation({
    mutationFn: (body: ProductBody) =>
      must(api.PATCH('/api/products/{id}', { params: { path: { id } }, body })),
    onSuccess: refresh,
  });
  const deactivate = useMutation({
    mutationFn: () => must(api.DELETE('/api/products/{id}', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  const [editing, setEditing] = useState(false);
  const canWrite = useCan('write');
  const [showQr, setShowQr] = useState(false);

  if (product.isPending) return <Loading />;
  if (!product.data)
    return (
      <>
        <ProductTabs id={id} />
        <PageTitle>Produto</PageTitle>
        <ErrorNote error={product.error} />
      </>
    );
  const p = product.data;
  const sells = p.isActive && p.value > 0;
  // The latest outcome only: a deactivation after an edit after the creation says just the last.
  const done = deactivate.isSuccess
    ? 'Produto desativado: o link de pagamento não vende mais.'
    : update.isSuccess
      ? 'Alterações salvas.'
      : query.get('criado')
        ? 'Produto criado. O link já pode ser compartilhado.'
        : null;
  return (
    <>
      <ProductTabs id={id} />
      <PageTitle lead={<ProductStatus product={p} />}>{p.name}</PageTitle>
      {done ? <output className="status">{done}</output> : null}
      <section className="card" aria-labelledby="payment-link">
        <h2 id="payment-link">Link de pagamento</h2>
        {!p.isActive ? (
          <p className="note">Produto desativado: o link não vende mais.</p>
        ) : p.value === 0 ? (
          <p className="note">Sem preço: o link não vende até o produto ter um preço.</p>
        ) : null}
        <code className="secret-value">{p.paymentLink}</code>
        {p.isActive ? (
          <div className="row wrap">
            <CopyButton value={p.paymentLink} label="Copiar link" />
            {sells ? (
              <a className="button" href={p.paymentLink} target="_blank" rel="noopener noreferrer">
                Abrir a página de pagamento (nova aba)
              </a>
            ) : null}
            <button type="button" aria-expanded={showQr} onClick={() => setShowQr(!showQr)}>
              {showQr ? 'Esconder QR code' : 'Mostrar QR code'}
            </button>
          </div>
        ) : null}
        {showQr && p.isActive ? (
          <QrCode text={p.paymentLink} label={`QR code do link de pagamento de ${p.name}`} />
        ) : null}
      </section>
      <section className="card" aria-labelledby="product-data">
        <h2 id="product-data">Dados do produto</h2>
        {editing ? (
          <ProductForm
            initial={p}
            submitLabel="Salvar alterações"
            busy={update.isPending}
            error={update.error}
            onSubmit={(body) => update.mutate(body, { onSuccess: () => setEditing(false) })}
          />
        ) : (
          <>
            <dl className="facts">
              <dt>Preço</dt>
              <dd>{p.value === 0 ? 'Sem preço' : formatBrl(p.value)}</dd>
              <dt>Pagamento</dt>
              <dd>{methodsText(p) || '—'}</dd>
              <dt>Carnê</dt>
              <dd>{p.carne.enabled ? `Sim, até ${p.carne.maxInstallments} boletos` : 'Não'}</dd>
              <dt>Descrição</dt>
              <dd>{p.description ?? '—'}</dd>
              <dt>Atualizado em</dt>
              <dd>{formatDateTime(p.updatedAt)}</dd>
            </dl>
            {p.carne.enabled && Object.keys(p.carne.interestFactors).length > 0 ? (
              <p className="muted">
                Juros do carnê:{' '}
                {Object.entries(p.carne.interestFactors)
                  .map(([n, f]) => `${n}x fator ${String(f).replace('.', ',')}`)
                  .join(' · ')}
              </p>
            ) : null}
          </>
        )}
        <RoleNote access="write" what="produtos são alterados e desativados" />
        <div className="row wrap">
          {p.isActive && canWrite ? (
            <button type="button" onClick={() => setEditing(!editing)}>
              {editing ? 'Fechar sem salvar' : 'Editar'}
            </button>
          ) : null}
          {p.isActive && canWrite ? (
            <ConfirmAction
              label="Desativar produto"
              question="Desativar este produto? O link deixa de vender e não há como reativar."
              confirmLabel="Sim, desativar"
              busy={deactivate.isPending}
              onConfirm={() => deactivate.mutate()}
            />
          ) : null}
        </div>
        <ErrorNote error={deactivate.error ?? (editing ? null : update.error)} />
      </section>
      <ProductLateCharges id={id} />
    </>
  );
}

/**
 * The product's own fine and interest (its portal configuration's `lateCharges`): its new charges
 * and carnês take them unless the charge sets its own; empty, the seller's apply. A product without
 * a configuration of its own gets one with the portal settings it already shows (the seller's), so
 * that setting a fine does not change its portal.
 */
function ProductLateCharges({ id }: { id: string }) {
  const { api } = useApp();
  const client = useQueryClient();
  const key = useKey('products', id, 'portal-config');
  const path = { params: { path: { id } } };
  const config = useQuery({
    queryKey: key,
    queryFn: () => must(api.GET('/api/products/{id}/portal-config/effective', path)),
  });
  const save = useMutation({
    mutationFn: async (lateCharges: Schemas['EffectivePortalConfiguration']['lateCharges']) => {
      if (!config.data) return;
      const { source, ...rest } = config.data;
      if (source === 'product')
        await must(api.PATCH('/api/products/{id}/portal-config', { ...path, body: { lateCharges } }));
      else
        await must(api.POST('/api/products/{id}/portal-config', { ...path, body: { ...rest, lateCharges } }));
    },
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
  return (
    <section className="card" aria-labelledby="product-late-charges">
      <h2 id="product-late-charges">Multa e juros deste produto</h2>
      <p className="muted">
        Valem para as novas cobranças e carnês deste produto. Campo vazio: valem os da sua conta, em{' '}
        <Link to={LATE_CHARGES_PATH}>Multa e juros</Link>.
      </p>
      {config.isPending ? <Loading /> : null}
      <ErrorNote error={config.error} />
      {config.data ? (
        <DefaultsForm
          key={config.dataUpdatedAt}
          initial={config.data.source === 'product' ? config.data.lateCharges : null}
          busy={save.isPending}
          error={save.error}
          saved={save.isSuccess}
          emptyMeans="Vazio: a multa e os juros da sua conta."
          submitLabel="Salvar multa e juros do produto"
          className="stack"
          onSave={(lateCharges) => save.mutate(lateCharges)}
        />
      ) : null}
    </section>
  );
}
