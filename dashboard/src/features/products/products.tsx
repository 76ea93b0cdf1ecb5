import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link, navigate } from '../../app/router';
import { RoleNote, useCan } from '../../app/sellers';
import { formatBrl } from '../../components/format';
import { CopyButton, ErrorNote, Field, Loading, Pager, PageTitle } from '../../components/ui';
import { type ProductBody, ProductForm } from './product-form';

type Tab = 'active' | 'archived' | 'all';
const TABS: [Tab, string][] = [
  ['active', 'Ativos'],
  ['archived', 'Desativados'],
  ['all', 'Todos'],
];

/** The methods a product sells by, as a seller reads them. */
export function methodsText(p: Pick<Schemas['Product'], 'pix' | 'creditCard' | 'boleto' | 'installments'>) {
  const methods = [
    p.pix ? 'Pix' : null,
    p.creditCard ? (p.installments > 1 ? `Cartão em até ${p.installments}x` : 'Cartão') : null,
    p.boleto ? 'Boleto' : null,
  ];
  return methods.filter(Boolean).join(' · ');
}

export function ProductStatus({ product }: { product: Schemas['Product'] }) {
  return product.isActive ? (
    <span className="badge enabled">Ativo</span>
  ) : (
    <span className="badge">Desativado</span>
  );
}

/** The seller's products, a page at a time, and the creation form (one request). */
export function ProductsView() {
  const { api, environment } = useApp();
  const client = useQueryClient();
  const [tab, setTab] = useState<Tab>('active');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const canWrite = useCan('write');
  const query = { tab, page, limit: 20, ...(search.trim() ? { search: search.trim() } : {}) };
  const products = useQuery({
    queryKey: useKey('products', JSON.stringify(query)),
    queryFn: () => must(api.GET('/api/products/seller', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const create = useMutation({
    mutationFn: (body: ProductBody) =>
      must(
        api.POST('/api/products', {
          body: body as Required<Pick<ProductBody, 'name' | 'image' | 'value'>> & ProductBody,
        }),
      ),
    onSuccess: async (product) => {
      await client.invalidateQueries({ queryKey: [environment, 'products'] });
      navigate(`/produtos/${product.id}?criado=1`);
    },
  });

  return (
    <>
      <PageTitle lead="O que você vende: cada produto tem um link de pagamento para compartilhar.">
        Produtos
      </PageTitle>
      <RoleNote access="write" what="produtos são criados e alterados" />
      {!canWrite ? null : adding ? (
        <section className="card" aria-labelledby="new-product">
          <h2 id="new-product">Novo produto</h2>
          <ProductForm
            submitLabel="Criar produto"
            busy={create.isPending}
            error={create.error}
            onSubmit={(body) => create.mutate(body)}
          />
          <button type="button" className="link" onClick={() => setAdding(false)}>
            Fechar sem criar
          </button>
        </section>
      ) : (
        <button type="button" className="primary" onClick={() => setAdding(true)}>
          Novo produto
        </button>
      )}
      <section aria-labelledby="products-list">
        <h2 id="products-list">Seus produtos</h2>
        <div className="filters list-filters">
          <div className="field">
            <label htmlFor="products-tab">Mostrar</label>
            <select
              id="products-tab"
              value={tab}
              onChange={(e) => {
                setTab(e.target.value as Tab);
                setPage(1);
              }}
            >
              {TABS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <Field
            label="Buscar por nome"
            type="search"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
            maxLength={100}
          />
        </div>
        {products.isPending ? <Loading /> : null}
        <ErrorNote error={products.error} />
        {products.data && products.data.data.length === 0 ? (
          <p className="muted">Nenhum produto {tab === 'archived' ? 'desativado' : 'ainda'}.</p>
        ) : null}
        <ul className="list">
          {products.data?.data.map((product) => (
            <li key={product.id} className="item">
              <div>
                <Link to={`/produtos/${product.id}`}>{product.name}</Link> <ProductStatus product={product} />
                <p className="muted">
                  {product.value === 0 ? 'Sem preço' : formatBrl(product.value)} · {methodsText(product)}
                  {product.carne.enabled ? ' · Carnê' : ''}
                </p>
              </div>
              {product.isActive ? (
                <CopyButton
                  value={product.paymentLink}
                  label="Copiar link"
                  name={`Copiar link de ${product.name}`}
                />
              ) : null}
            </li>
          ))}
        </ul>
        {products.data ? <Pager page={page} totalPages={products.data.totalPages} onPage={setPage} /> : null}
      </section>
    </>
  );
}
