import { useQuery } from '@tanstack/react-query';
import { must } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link, useLocation } from '../../app/router';

/** A product's pages: its data and link, its subscription prices, its affiliates, its portal. */
export function ProductTabs({ id }: { id: string }) {
  const { path } = useLocation();
  const tabs: [string, string][] = [
    [`/produtos/${id}`, 'Produto e link'],
    [`/produtos/${id}/precos`, 'Preços de assinatura'],
    [`/produtos/${id}/afiliados`, 'Afiliados'],
    [`/produtos/${id}/portal`, 'Portal'],
  ];
  return (
    <nav aria-label="Seções do produto" className="tabs">
      <p>
        <Link to="/produtos">Voltar para Produtos</Link>
      </p>
      <ul className="row wrap">
        {tabs.map(([to, label]) => (
          <li key={to}>
            <Link to={to} aria-current={path === to ? 'page' : undefined}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The product a product page is about (archived ones too: their pages still open). */
export function useProduct(id: string) {
  const { api } = useApp();
  return useQuery({
    queryKey: useKey('products', id),
    queryFn: () =>
      must(api.GET('/api/products/{id}', { params: { path: { id }, query: { includeArchived: 'true' } } })),
  });
}
