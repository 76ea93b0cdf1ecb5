import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { must } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { RoleNote, useCan } from '../../app/sellers';
import { formatDate } from '../../components/format';
import { ConfirmAction, ErrorNote, Field, Loading, PageTitle } from '../../components/ui';
import { ProductTabs, useProduct } from './product-tabs';

const AFFILIATE_FIELDS = { affiliateId: 'Id do vendedor afiliado', commissionPercent: 'Comissão (%)' };

/** "12,5" or "12.5" as the API's percent number; anything else is sent as typed for the API to refuse. */
const percentOf = (text: string) => Number(text.trim().replace(',', '.'));

/** A product's affiliates and their commissions: product and affiliations, two requests. */
export function AffiliatesView({ id }: { id: string }) {
  const canWrite = useCan('write');
  const { api } = useApp();
  const client = useQueryClient();
  const product = useProduct(id);
  const key = useKey('products', id, 'affiliates');
  const affiliates = useQuery({
    queryKey: key,
    queryFn: () => must(api.GET('/api/products/{id}/affiliates', { params: { path: { id } } })),
  });
  const refresh = () => client.invalidateQueries({ queryKey: key });
  const add = useMutation({
    mutationFn: (body: { affiliateId: number; commissionPercent: number }) =>
      must(api.POST('/api/products/{id}/affiliates', { params: { path: { id } }, body })),
    onSuccess: refresh,
  });
  const end = useMutation({
    mutationFn: (affiliateId: number) =>
      must(
        api.DELETE('/api/products/{id}/affiliates/{affiliateId}', {
          params: { path: { id, affiliateId: String(affiliateId) } },
        }),
      ),
    onSuccess: refresh,
  });
  const [affiliateId, setAffiliateId] = useState('');
  const [percent, setPercent] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(
      { affiliateId: Number(affiliateId), commissionPercent: percentOf(percent) },
      {
        onSuccess: () => {
          setAffiliateId('');
          setPercent('');
        },
      },
    );
  };

  return (
    <>
      <ProductTabs id={id} />
      <PageTitle lead="Outros vendedores que divulgam este produto e a comissão de cada um sobre o seu líquido.">
        {product.data ? `Afiliados · ${product.data.name}` : 'Afiliados'}
      </PageTitle>
      <ErrorNote error={product.error} />
      <RoleNote access="write" what="afiliados são adicionados e encerrados" />
      {canWrite ? (
        <section className="card" aria-labelledby="new-affiliate">
          <h2 id="new-affiliate">Novo afiliado</h2>
          <form onSubmit={submit} className="stack">
            <Field
              label="Id do vendedor afiliado"
              inputMode="numeric"
              pattern="[0-9]*"
              value={affiliateId}
              onChange={(e) => setAffiliateId(e.target.value.replace(/\D/g, ''))}
              required
              hint="O id de vendedor da conta do afiliado (ele o informa a você)."
            />
            <Field
              label="Comissão (%)"
              inputMode="decimal"
              placeholder="12,5"
              value={percent}
              onChange={(e) => setPercent(e.target.value)}
              required
              hint="De 0,01% a 90%, com até 2 casas decimais."
            />
            <button type="submit" className="primary" disabled={add.isPending}>
              Adicionar afiliado
            </button>
            <ErrorNote error={add.error} fields={AFFILIATE_FIELDS} />
          </form>
        </section>
      ) : null}
      <section aria-labelledby="affiliates-list">
        <h2 id="affiliates-list">Afiliados</h2>
        {affiliates.isPending ? <Loading /> : null}
        <ErrorNote error={affiliates.error ?? end.error} />
        {affiliates.data && affiliates.data.data.length === 0 ? (
          <p className="muted">Nenhum afiliado ainda.</p>
        ) : null}
        <ul className="list">
          {affiliates.data?.data.map((a) => (
            <li key={a.affiliateId} className="item">
              <div>
                <strong>Vendedor {a.affiliateId}</strong>{' '}
                {a.status === 'active' ? (
                  <span className="badge enabled">Ativo</span>
                ) : (
                  <span className="badge">Encerrado em {formatDate(a.endedAt)}</span>
                )}
                <p>Comissão de {String(a.commissionPercent).replace('.', ',')}%</p>
                <p className="muted">Desde {formatDate(a.createdAt)}</p>
              </div>
              {a.status === 'active' && canWrite ? (
                <ConfirmAction
                  label={`Encerrar afiliado ${a.affiliateId}`}
                  question="Encerrar esta afiliação? Vendas novas deixam de pagar comissão a ele."
                  confirmLabel="Sim, encerrar"
                  busy={end.isPending}
                  onConfirm={() => end.mutate(a.affiliateId)}
                />
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
