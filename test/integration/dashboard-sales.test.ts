import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, openDashboard } from '../support/dashboard';

/**
 * Vendas and Clientes in Chromium, as a seller runs them: the list with its filters, a sale's
 * timeline, a partial refund and a cancel (each confirmed), a customer's detail and edit, and the
 * CSV exports of the current filter. Every view is checked by axe-core at 390 px and 1280 px.
 */
let d: Dashboard;
const sales: Record<string, any> = {};
let customer: any;

const maria = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '11987654321',
};
const joao = {
  name: 'João Pereira',
  email: 'joao@example.com',
  document: '111.444.777-35',
  phone: '21987654321',
};

beforeAll(async () => {
  // 400: a refund above what remains is answered and shown.
  d = await openDashboard({ shownStatuses: [400], screenshotPrefix: 'dashboard-sales-' });
  const key = { token: d.seller.testKey };
  const product = await d.api.post(
    '/api/products',
    { name: 'Curso de pão', image: 'https://cdn.example.com/pao.png', value: 120 },
    key,
  );
  expect(product.status).toBe(201);
  const sell = async (customer: typeof maria, paymentMethod: string) => {
    const res = await d.api.post('/api/transactions', {
      productId: product.body.uuid,
      paymentMethod,
      customer,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  sales.paid = await sell(maria, 'pix');
  sales.pending = await sell(maria, 'boleto');
  sales.other = await sell(joao, 'pix');
  expect((await d.api.post(`/api/test-helpers/transactions/${sales.paid.id}/pay`, {}, key)).status).toBe(200);
  const customers = await d.api.get('/api/v1/customers?search=maria', key);
  customer = customers.body.data[0];
}, 120_000);
afterAll(() => d?.close());

describe('Vendas', () => {
  it('lists the sales and filters them by status, method, search and date', async () => {
    const { page } = d;
    await d.goTo('Vendas');
    const list = page.getByRole('list', { name: 'Vendas' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(3);
    await d.checkView('vendas');

    await page.getByLabel('Status').selectOption({ label: 'Paga (pix)' });
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await expect.poll(() => list.textContent()).toContain(`Venda ${sales.paid.id}`);

    await page.getByRole('button', { name: 'Limpar filtros' }).click();
    await page.getByLabel('Forma de pagamento').selectOption({ label: 'Boleto' });
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await expect.poll(() => list.textContent()).toContain(`Venda ${sales.pending.id}`);

    await page.getByRole('button', { name: 'Limpar filtros' }).click();
    await page.getByLabel('Busca').fill('joão');
    await page.getByLabel('Até').fill('2020-01-01');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.getByText('Nenhuma venda encontrada.').waitFor();
    await page.getByLabel('Até').fill('');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await expect.poll(() => list.textContent()).toContain('João Pereira');
    expect(new URL(page.url()).searchParams.get('busca')).toBe('joão');
  });

  it("downloads the current filter's CSV", async () => {
    const { page } = d;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^transacoes-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await readFile((await download.path()) as string);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"João Pereira"');
    expect(lines[1].split(';')[6]).toBe('120,00');
    await page.getByText('Arquivo CSV baixado.').waitFor();
  });

  it("shows a sale's timeline and provider ids, and refunds part of it after a confirmation", async () => {
    const { page } = d;
    await page.goto(`${d.runtime.baseUrl}/dashboard/vendas/${sales.paid.id}`);
    await page.getByRole('heading', { level: 1, name: `Venda ${sales.paid.id}` }).waitFor();
    const steps = page.getByRole('list', { name: 'Mudanças de status' });
    await expect.poll(() => steps.textContent()).toContain('Pagamento confirmado');
    expect(await steps.textContent()).toContain('Venda criada');
    await expect
      .poll(() => page.getByRole('list', { name: 'Eventos' }).textContent())
      .toContain('transaction.');
    expect(await page.getByText(String(sales.paid.gatewayPayId), { exact: true }).count()).toBe(1);
    await d.checkView('venda');

    await page.getByLabel('Parcial').check();
    await page.getByLabel('Valor do reembolso').pressSequentially('50000');
    expect(await page.getByLabel('Valor do reembolso').inputValue()).toBe('R$\u00a0500,00');
    await page.getByRole('button', { name: 'Reembolsar', exact: true }).click();
    await page.getByText('Reembolsar R$\u00a0500,00 ao cliente?').waitFor();
    await page.getByRole('button', { name: 'Confirmar reembolso' }).click();
    const alert = page.getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toContain('Valor: maior do que o que ainda pode ser reembolsado');

    await page.getByLabel('Valor do reembolso').fill('');
    await page.getByLabel('Valor do reembolso').pressSequentially('2050');
    await page.getByRole('button', { name: 'Reembolsar', exact: true }).click();
    await d.checkView('venda-confirmar-reembolso');
    await page.getByRole('button', { name: 'Confirmar reembolso' }).click();
    await page.getByText('Reembolso de R$\u00a020,50 registrado.').waitFor();
    await expect.poll(() => steps.textContent()).toContain('Reembolso · R$\u00a020,50');
    const stored = await d.api.get(`/api/transactions/${sales.paid.id}`, { token: d.seller.testKey });
    expect(stored.body.refundedAmount).toBe(20.5);
    expect(stored.body.status).toBe('payedPix');
  });

  it('cancels a pending boleto after a confirmation', async () => {
    const { page } = d;
    await page.goto(`${d.runtime.baseUrl}/dashboard/vendas/${sales.pending.id}`);
    await page.getByRole('button', { name: 'Cancelar cobrança' }).click();
    await page.getByText('Cancelar esta cobrança de R$\u00a0120,00?').waitFor();
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await page.getByText('Cobrança cancelada.').waitFor();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Resumo' }).textContent())
      .toContain('Cancelada');
    const stored = await d.api.get(`/api/transactions/${sales.pending.id}`, { token: d.seller.testKey });
    expect(stored.body.status).toBe('cancel');
  });
});

describe('Clientes', () => {
  it('searches the customers and exports the search', async () => {
    const { page } = d;
    await d.goTo('Clientes');
    const list = page.getByRole('list', { name: 'Clientes' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await d.checkView('clientes');
    await page.getByLabel('Busca').fill('maria');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^clientes-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = (await readFile((await download.path()) as string)).toString('utf8');
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"529.982.247-25"');
  });

  it("shows a customer's sales, subscriptions, charges, carnês and cards", async () => {
    const { page } = d;
    await page.getByRole('link', { name: 'Maria Souza' }).click();
    await page.getByRole('heading', { level: 1, name: 'Maria Souza' }).waitFor();
    await d.checkView('cliente');
    const sections = page.getByRole('navigation', { name: 'Seções do cliente' });
    await sections.getByRole('link', { name: 'Vendas' }).click();
    const customerSales = page.getByRole('list', { name: 'Vendas do cliente' });
    await expect.poll(() => customerSales.getByRole('listitem').count()).toBe(2);
    await d.checkView('cliente-vendas');
    for (const [tab, empty] of [
      ['Assinaturas', 'Nenhuma assinatura.'],
      ['Cobranças agendadas', 'Nenhuma cobrança agendada.'],
      ['Carnês', 'Nenhum carnê.'],
      ['Cartões salvos', 'Nenhum cartão salvo.'],
    ]) {
      await sections.getByRole('link', { name: tab }).click();
      await page.getByText(empty).waitFor();
    }
    await d.checkView('cliente-cartoes');
  });

  it('edits the customer and sets the billing e-mail, with errors in Portuguese by field', async () => {
    const { page } = d;
    await page.goto(`${d.runtime.baseUrl}/dashboard/clientes/${customer.uuid}`);
    await page.getByRole('button', { name: 'Editar cliente' }).click();
    const form = page.getByRole('form', { name: 'Editar cliente' });
    await form.getByLabel('Telefone').fill('123');
    await form.getByLabel('Cidade').fill('Campinas');
    await page.getByRole('button', { name: 'Salvar alterações' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('Telefone: deve ter 10 ou 11 dígitos');
    await d.checkView('cliente-editar');
    await form.getByLabel('Telefone').fill('(11) 91234-5678');
    await page.getByRole('button', { name: 'Salvar alterações' }).click();
    await page.getByText('Alterações salvas.').waitFor();
    expect(await page.getByText('(11) 91234-5678').count()).toBe(1);

    const billing = page.getByRole('form', { name: 'E-mail de cobrança' });
    await billing.getByLabel('E-mail de cobrança').fill('financeiro@example.com');
    await page.getByRole('button', { name: 'Salvar e-mail de cobrança' }).click();
    await page.getByText('E-mail de cobrança salvo.').waitFor();
    const stored = await d.api.get(`/api/v1/customers/${customer.uuid}`, { token: d.seller.testKey });
    expect(stored.body).toMatchObject({
      phone: '11912345678',
      city: 'Campinas',
      billingEmail: 'financeiro@example.com',
      hasBillingEmailOverride: true,
    });
    await page.getByRole('button', { name: 'Usar o e-mail do cliente' }).click();
    await page.getByText('E-mail de cobrança removido.').waitFor();
    expect(d.watched.problems).toEqual([]);
  });
});
