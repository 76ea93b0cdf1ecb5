import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp } from '../../app/context';
import { Link } from '../../app/router';
import { useCan } from '../../app/sellers';
import { ErrorNote, Loading, PageTitle, SecretOnce } from '../../components/ui';
import { useApiKeys, useCreateApiKey } from '../developers/api-keys';
import { SalesOverview } from './sales';

const EXAMPLE_PRODUCT = {
  name: 'Curso de Violão',
  image: 'https://example.com/violao.png',
  value: 49.9,
};

/** The curl that creates a product with the new key: pasted as is, it works against this service. */
export function productCurl(origin: string, key: string): string {
  return [
    `curl -s -X POST ${origin}/api/products \\`,
    `  -H "authorization: Bearer ${key}" -H "content-type: application/json" \\`,
    `  -d '${JSON.stringify(EXAMPLE_PRODUCT)}'`,
  ].join('\n');
}

/**
 * Início: the first steps, then the business. In test mode with no key yet it offers the first
 * sandbox key (shown once, with a curl that uses it) and a first sale through the hosted payment
 * page; then the period's sales, a receber and recent activity (sales.tsx). Two requests.
 */
export function HomeView() {
  const { environment } = useApp();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const [created, setCreated] = useState<Schemas['ApiKeyCreated'] | null>(null);
  const canDevelop = useCan('developer');
  const canWrite = useCan('write');
  const firstVisit = environment === 'test' && canDevelop && keys.data?.data.length === 0;

  return (
    <>
      <PageTitle lead="Venda por pix, boleto e cartão com links de pagamento, checkout e assinaturas.">
        Início
      </PageTitle>
      {keys.isPending ? <Loading /> : null}
      <ErrorNote error={keys.error} />
      {firstVisit || created ? (
        <section className="card" aria-labelledby="first-key">
          <h2 id="first-key">1. Sua primeira chave de teste</h2>
          <p>
            No modo de teste nada é cobrado de verdade: use os cartões de teste e as ferramentas do sandbox.
          </p>
          {created ? (
            <>
              <SecretOnce label="Chave de teste" value={created.key} />
              <SecretOnce
                label="Crie um produto com ela (cole no terminal)"
                value={productCurl(location.origin, created.key)}
                note="A resposta traz o paymentLink do produto: a página em que o comprador paga."
              />
            </>
          ) : (
            <button
              type="button"
              className="primary"
              disabled={create.isPending}
              onClick={() =>
                create.mutate(
                  { name: 'Primeira chave', environment: 'test', permissions: 'write' },
                  { onSuccess: setCreated },
                )
              }
            >
              Criar minha chave de teste
            </button>
          )}
          <ErrorNote error={create.error} />
        </section>
      ) : null}
      <SalesOverview />
      {environment === 'test' && canWrite ? <FirstSale /> : null}
      <section className="card" aria-labelledby="next">
        <h2 id="next">Para desenvolvedores</h2>
        <ul className="links">
          <li>
            <Link to="/desenvolvedores/chaves">Chaves de API</Link>
          </li>
          <li>
            <Link to="/desenvolvedores/webhooks">Webhooks</Link>
          </li>
          <li>
            <Link to="/desenvolvedores/eventos">Eventos</Link>
          </li>
          <li>
            <a href="/docs">Referência da API</a>
          </li>
        </ul>
      </section>
    </>
  );
}

/** A first sale with no code: an example product, then its payment page paid with a test card. */
function FirstSale() {
  const { api } = useApp();
  const product = useMutation({
    mutationFn: () => must(api.POST('/api/products', { body: EXAMPLE_PRODUCT })),
  });
  return (
    <section className="card" aria-labelledby="first-sale">
      <h2 id="first-sale">2. Uma venda de teste, sem código</h2>
      {product.data ? (
        <>
          <p>
            Produto “{product.data.name}” criado. Abra a página de pagamento e pague com o cartão de teste{' '}
            <code>4111 1111 1111 1111</code> (qualquer nome, validade futura e CVV).
          </p>
          <p>
            <a href={product.data.paymentLink} target="_blank" rel="noreferrer">
              Abrir a página de pagamento
            </a>
          </p>
          <p className="muted">
            O pagamento aparece em <Link to="/desenvolvedores/eventos">Eventos</Link> como
            transaction.payment.succeeded, e seus <Link to="/desenvolvedores/webhooks">webhooks</Link> o
            recebem.
          </p>
        </>
      ) : (
        <button type="button" disabled={product.isPending} onClick={() => product.mutate()}>
          Criar um produto de exemplo
        </button>
      )}
      <ErrorNote error={product.error} />
    </section>
  );
}
