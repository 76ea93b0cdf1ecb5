import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { RoleNote, useCan } from '../../app/sellers';
import { formatBrl, formatDateTime } from '../../components/format';
import { MoneyField } from '../../components/money-field';
import { ConfirmAction, ErrorNote, Field, Loading, PageTitle } from '../../components/ui';
import { Select } from './product-form';
import { ProductTabs, useProduct } from './product-tabs';

type Interval = Schemas['SubscriptionPrice']['billingInterval'];
const INTERVALS: Record<Interval, [string, string]> = {
  week: ['semana', 'semanas'],
  month: ['mês', 'meses'],
  year: ['ano', 'anos'],
};

/** "R$ 29,90 por mês", "R$ 80,00 a cada 3 meses". */
export function recurringText(unitAmount: number, interval: Interval, count: number): string {
  const [one, many] = INTERVALS[interval];
  return `${formatBrl(unitAmount)} ${count === 1 ? `por ${one}` : `a cada ${count} ${many}`}`;
}

const PRICE_FIELDS = {
  name: 'Nome do plano',
  unitAmount: 'Valor por período',
  billingInterval: 'Cobrança a cada',
  intervalCount: 'Quantidade de períodos',
  trialDays: 'Dias de teste grátis',
};

/** A product's recurring prices (what subscriptions charge): product and prices, two requests. */
export function PricesView({ id }: { id: string }) {
  const canWrite = useCan('write');
  const { api } = useApp();
  const client = useQueryClient();
  const product = useProduct(id);
  const pricesKey = useKey('products', id, 'prices');
  const prices = useQuery({
    queryKey: pricesKey,
    queryFn: () => must(api.GET('/api/products/{id}/prices', { params: { path: { id } } })),
  });
  const refresh = () => client.invalidateQueries({ queryKey: pricesKey });
  const create = useMutation({
    mutationFn: (body: {
      name: string;
      unitAmount: number;
      billingInterval: Interval;
      intervalCount: number;
      trialDays: number;
    }) => must(api.POST('/api/products/{id}/prices', { params: { path: { id } }, body })),
    onSuccess: refresh,
  });
  const deactivate = useMutation({
    mutationFn: (priceId: number) =>
      must(
        api.DELETE('/api/products/{id}/prices/{priceId}', {
          params: { path: { id, priceId: String(priceId) } },
        }),
      ),
    onSuccess: refresh,
  });
  const [name, setName] = useState('');
  const [amount, setAmount] = useState(0);
  const [interval, setBillingInterval] = useState<Interval>('month');
  const [count, setCount] = useState(1);
  const [trialDays, setTrialDays] = useState('0');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        name,
        unitAmount: amount / 100,
        billingInterval: interval,
        intervalCount: count,
        trialDays: Number(trialDays || '0'),
      },
      {
        onSuccess: () => {
          setName('');
          setAmount(0);
        },
      },
    );
  };

  return (
    <>
      <ProductTabs id={id} />
      <PageTitle lead="Os planos que uma assinatura deste produto cobra a cada período.">
        {product.data ? `Preços de assinatura · ${product.data.name}` : 'Preços de assinatura'}
      </PageTitle>
      <ErrorNote error={product.error} />
      <RoleNote access="write" what="preços são criados e desativados" />
      {product.data?.isActive && canWrite ? (
        <section className="card" aria-labelledby="new-price">
          <h2 id="new-price">Novo preço</h2>
          <form onSubmit={submit} className="stack">
            <Field
              label="Nome do plano"
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={200}
              placeholder="Mensal"
            />
            <MoneyField
              label="Valor por período"
              centavos={amount}
              onChange={setAmount}
              hint="A partir de R$ 5,00."
            />
            <div className="filters">
              <div className="field">
                <label htmlFor="price-interval">Cobrança a cada</label>
                <select
                  id="price-interval"
                  value={interval}
                  onChange={(e) => {
                    setBillingInterval(e.target.value as Interval);
                    setCount(1);
                  }}
                >
                  <option value="week">Semana</option>
                  <option value="month">Mês</option>
                  <option value="year">Ano</option>
                </select>
              </div>
              <Select
                label="Quantidade de períodos"
                value={count}
                options={Array.from(
                  { length: interval === 'week' ? 52 : interval === 'month' ? 12 : 1 },
                  (_, i) => [i + 1, String(i + 1)],
                )}
                onChange={setCount}
              />
              <Field
                label="Dias de teste grátis"
                inputMode="numeric"
                pattern="[0-9]*"
                value={trialDays}
                onChange={(e) => setTrialDays(e.target.value.replace(/\D/g, ''))}
              />
            </div>
            <button type="submit" className="primary" disabled={create.isPending}>
              Criar preço
            </button>
            <ErrorNote error={create.error} fields={PRICE_FIELDS} />
          </form>
        </section>
      ) : null}
      <section aria-labelledby="prices-list">
        <h2 id="prices-list">Preços</h2>
        {prices.isPending ? <Loading /> : null}
        <ErrorNote error={prices.error ?? deactivate.error} />
        {prices.data && prices.data.data.length === 0 ? <p className="muted">Nenhum preço ainda.</p> : null}
        <ul className="list">
          {prices.data?.data.map((price) => (
            <li key={price.id} className="item">
              <div>
                <strong>{price.name}</strong>{' '}
                {price.isActive ? (
                  <span className="badge enabled">Ativo</span>
                ) : (
                  <span className="badge">Desativado</span>
                )}
                <p>{recurringText(price.unitAmount, price.billingInterval, price.intervalCount)}</p>
                <p className="muted">
                  {price.trialDays > 0 ? `${price.trialDays} dias de teste grátis · ` : ''}id {price.id} ·
                  criado em {formatDateTime(price.createdAt)}
                </p>
              </div>
              {price.isActive && canWrite ? (
                <ConfirmAction
                  label={`Desativar ${price.name}`}
                  question="Desativar este preço? Novas assinaturas não podem usá-lo; as atuais continuam."
                  confirmLabel="Sim, desativar"
                  busy={deactivate.isPending}
                  onConfirm={() => deactivate.mutate(price.id)}
                />
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
