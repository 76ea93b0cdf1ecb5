import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, saoPauloDate } from '#shared/dates';
import { buyer, card } from '../support/checkout-fixtures';
import { type Dashboard, openDashboard } from '../support/dashboard';

/**
 * Início in Chromium: a seller with sales sees the period's figures as the API sums them, the
 * chart by day with its table, the split by method, a receber and recent activity, and switches
 * between today, 7 days, 30 days and a chosen range. axe-core at 390 px and 1280 px.
 */
let d: Dashboard;

beforeAll(async () => {
  d = await openDashboard({ email: 'bia@home.example.com', screenshotPrefix: 'dashboard-home-' });
}, 300_000);
afterAll(async () => {
  await d?.close();
});

const brl = (reais: number) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(reais);

async function seedSales() {
  const key = d.seller.testKey;
  const product = await d.api.post(
    '/api/products',
    { name: 'Pão de fermentação natural', value: 80, installments: 3, image: 'https://example.com/pao.png' },
    { token: key },
  );
  expect(product.status, JSON.stringify(product.body)).toBe(201);
  const sell = async (paymentMethod: string, withCard = false) => {
    const res = await d.api.post('/api/transactions', {
      productId: product.body.uuid,
      paymentMethod,
      customer: buyer,
      ...(withCard ? { card: card('4111111111111111') } : {}),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number };
  };
  const pix = await sell('pix');
  expect((await d.api.post(`/api/test-helpers/transactions/${pix.id}/pay`, {}, { token: key })).status).toBe(
    200,
  );
  const refunded = await sell('creditcard', true);
  expect(
    (await d.api.post(`/api/transactions/${refunded.id}/refund`, { amount: 20 }, { token: key })).status,
  ).toBe(200);
  await sell('creditcard', true);
  await sell('boleto');
}

const figure = (term: string) =>
  d.page
    .locator('dl.figures > div')
    .filter({ has: d.page.getByText(term, { exact: true }) })
    .locator('dd');

describe('Início', () => {
  it('shows the figures the API sums, the chart with its table, a receber and recent activity', async () => {
    await seedSales();
    const today = saoPauloDate(d.runtime.clock.now());
    const api = await d.api.get(`/api/dashboard/summary?from=${addDays(today, -29)}&to=${today}`, {
      token: d.seller.testKey,
    });
    expect(api.status).toBe(200);
    expect(api.body.count).toBe(3);

    await d.page.reload();
    await d.page.getByRole('heading', { level: 1, name: 'Início' }).waitFor();
    await d.page.getByRole('heading', { name: 'Vendas', exact: true }).waitFor();
    await expect.poll(() => figure('Vendas brutas').textContent()).toBe(brl(api.body.gross));
    expect(await figure('Líquido').textContent()).toBe(brl(api.body.net));
    expect(await figure('Vendas pagas').textContent()).toBe('3');
    expect(await figure('Ticket médio').textContent()).toBe(brl(api.body.averageTicket));
    expect(await figure('Aprovação').textContent()).toBe('100,0%');
    const methods = d.page.getByRole('table', { name: 'Por forma de pagamento' });
    expect(await methods.getByRole('row', { name: /Cartão/ }).textContent()).toContain(
      brl(api.body.byMethod.card.gross),
    );

    const chart = d.page.getByRole('img', { name: /Gráfico de vendas brutas por dia/ });
    expect(await chart.getAttribute('aria-label')).toContain(brl(api.body.gross));
    await d.page.getByText('Ver os números do gráfico').click();
    await d.page.getByRole('heading', { name: 'A receber' }).waitFor();
    expect(await d.page.getByText(/até \d\d\/\d\d\/\d{4}, já descontadas/).textContent()).toContain(
      brl(api.body.receivables.total),
    );
    await d.page.getByRole('heading', { name: 'Atividade recente' }).waitFor();
    expect(await d.page.getByText('transaction.refunded', { exact: true }).count()).toBeGreaterThan(0);
    await d.checkView('home-30-days');
  });

  it('switches to today, 7 days and a chosen range, and says why a range is refused', async () => {
    const today = saoPauloDate(d.runtime.clock.now());
    await d.page.getByRole('radio', { name: 'Hoje' }).check();
    await d.page.getByText(`Em ${today.split('-').reverse().join('/')}`).waitFor();
    expect(await figure('Vendas pagas').textContent()).toBe('3');
    await d.page.getByRole('radio', { name: '7 dias' }).check();
    await d.page.getByText(/^De \d\d\/\d\d\/\d{4} a \d\d\/\d\d\/\d{4}$/).waitFor();

    await d.page.getByRole('radio', { name: 'Período' }).check();
    await d.page.getByLabel('De', { exact: true }).fill(addDays(today, -120));
    await d.page.getByRole('alert').filter({ hasText: 'Escolha no máximo 92 dias.' }).waitFor();
    await d.page.getByLabel('De', { exact: true }).fill(addDays(today, -40));
    await d.page.getByLabel('Até', { exact: true }).fill(addDays(today, -35));
    await expect.poll(() => figure('Vendas pagas').textContent()).toBe('0');
    expect(await figure('Aprovação').textContent()).toBe('—');
    await d.checkView('home-range');
  });
});
