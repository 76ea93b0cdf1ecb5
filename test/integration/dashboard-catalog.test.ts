import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELLER_CLAIM } from '#shared/auth/authenticate';
import { saoPauloDate } from '#shared/dates';
import { prefill } from '../support/checkout-fixtures';
import { type Dashboard, openDashboard } from '../support/dashboard';
import { customerBody } from '../support/fixtures';

/**
 * The catalog part of the dashboard in Chromium: products and their payment links, subscription
 * prices, affiliates, the customer portal's configuration, checkout sessions and subscriptions.
 * One seller, one page; data a seller's own system would create is seeded with its sandbox key.
 * Every view is checked by axe-core at 390 px and 1280 px.
 */
let d: Dashboard;
let page: Page;
let key: string;

beforeAll(async () => {
  // 400 and 409: the forms show the API's refusals (a price below R$ 5,00, a colour that is not hex).
  d = await openDashboard({ shownStatuses: [400], screenshotPrefix: 'dashboard-catalog-' });
  page = d.page;
  key = d.seller.testKey;
});
afterAll(async () => {
  await d?.close();
});

const seed = async (path: string, body: unknown) => {
  const res = await d.api.post(path, body, { token: key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const read = async (path: string) => {
  const res = await d.api.get(path, { token: key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const status = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text });
const confirm = async (action: string, yes: string) => {
  await page.getByRole('button', { name: action, exact: true }).click();
  await page.getByRole('button', { name: yes, exact: true }).click();
};

describe('products and payment links', () => {
  it('creates a product and its link, copies the link and opens it, edits and deactivates the product', async () => {
    await d.goTo('Produtos');
    await page.getByText('Nenhum produto ainda.').waitFor();
    await d.checkView('products-empty');

    await page.getByRole('button', { name: 'Novo produto' }).click();
    await page.getByLabel('Nome', { exact: true }).fill('Curso de pão');
    await page.getByLabel('Imagem (URL)').fill('https://example.com/pao.png');
    const price = page.getByLabel('Preço');
    await price.fill('300');
    expect(await price.inputValue()).toMatch(/^R\$\s3,00$/);
    await page.getByRole('button', { name: 'Criar produto' }).click();
    // The API's refusal, named by the form's label.
    await page.getByRole('alert').filter({ hasText: 'Preço: value must be at least 5' }).waitFor();

    await price.fill('4990');
    expect(await price.inputValue()).toMatch(/^R\$\s49,90$/);
    await page.getByLabel('Boleto').uncheck();
    await page.getByLabel('Parcelas no cartão (até)').selectOption('6');
    await page.getByLabel('Aceita venda em carnê').check();
    await page.getByLabel('Máximo de parcelas do carnê').selectOption('6');
    await page.getByLabel('Fator em 3x').fill('1,0349');
    await d.checkView('product-new');
    await page.getByRole('button', { name: 'Criar produto' }).click();
    await page.getByRole('heading', { level: 1, name: 'Curso de pão' }).waitFor();
    await status('Produto criado').waitFor();

    const listed = await read('/api/products/seller?tab=all');
    expect(listed.data).toHaveLength(1);
    const created = listed.data[0];
    expect(created).toMatchObject({
      name: 'Curso de pão',
      value: 49.9,
      pix: true,
      creditCard: true,
      boleto: false,
      installments: 6,
      carne: { enabled: true, maxInstallments: 6, interestFactors: { '3': 1.0349 } },
      isActive: true,
    });

    await page.getByRole('button', { name: 'Mostrar QR code' }).click();
    await page.getByRole('img', { name: 'QR code do link de pagamento de Curso de pão' }).waitFor();
    await d.checkView('product-detail');

    await page.getByRole('button', { name: 'Copiar link' }).click();
    await page.getByText('Copiado.').waitFor();
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toBe(created.paymentLink);
    expect(copied).toMatch(/\/pay\/[0-9a-f-]{36}$/);

    const [hosted] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: 'Abrir a página de pagamento (nova aba)' }).click(),
    ]);
    await hosted.waitForLoadState();
    expect(hosted.url()).toBe(copied);
    const hostedText = await hosted.locator('body').innerText();
    expect(hostedText).toContain('Curso de pão');
    expect(hostedText).toMatch(/R\$\s49,90/);
    await hosted.close();

    await page.getByRole('button', { name: 'Editar' }).click();
    await page.getByLabel('Nome', { exact: true }).fill('Curso de pão: turma 2');
    await page.getByLabel('Preço').fill('5990');
    await page.getByRole('button', { name: 'Salvar alterações' }).click();
    await status('Alterações salvas.').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Curso de pão: turma 2' }).waitFor();
    expect(await read(`/api/products/${created.id}`)).toMatchObject({
      name: 'Curso de pão: turma 2',
      value: 59.9,
      boleto: false,
      carne: { enabled: true, maxInstallments: 6, interestFactors: { '3': 1.0349 } },
    });

    await confirm('Desativar produto', 'Sim, desativar');
    await status('Produto desativado').waitFor();
    await page.getByText('Produto desativado: o link não vende mais.').waitFor();
    expect((await read(`/api/products/${created.id}?includeArchived=true`)).isActive).toBe(false);
    expect((await d.api.get(`/api/payment-links/${created.uuid}`)).status).toBe(404);
    await d.checkView('product-deactivated');

    await d.goTo('Produtos');
    await page.getByLabel('Mostrar').selectOption('archived');
    await page.getByRole('link', { name: 'Curso de pão: turma 2' }).waitFor();
  });

  it('adds a subscription price and an affiliate to a product, and ends both', async () => {
    const product = await seed('/api/products', {
      name: 'Clube do pão',
      image: 'https://example.com/clube.png',
      value: 30,
    });
    const affiliate = await d.newSeller('bia@confeitaria.example.com', 'Confeitaria da Bia');
    const affiliateId = Number(
      JSON.parse(Buffer.from(affiliate.idToken.split('.')[1], 'base64url').toString())[SELLER_CLAIM],
    );

    await d.goTo('Produtos');
    await page.getByLabel('Mostrar').selectOption('active');
    await page.getByLabel('Buscar por nome').fill('Clube');
    await page.getByRole('link', { name: 'Clube do pão' }).click();
    await page.getByRole('heading', { level: 1, name: 'Clube do pão' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Seções do produto' })
      .getByRole('link', { name: 'Preços de assinatura' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Preços de assinatura · Clube do pão' }).waitFor();
    await page.getByText('Nenhum preço ainda.').waitFor();
    await page.getByLabel('Nome do plano').fill('Trimestral');
    await page.getByLabel('Valor por período').fill('8000');
    await page.getByLabel('Cobrança a cada').selectOption('month');
    await page.getByLabel('Quantidade de períodos').selectOption('3');
    await page.getByLabel('Dias de teste grátis').fill('7');
    await page.getByRole('button', { name: 'Criar preço' }).click();
    await page.getByText(/R\$\s80,00 a cada 3 meses/).waitFor();
    await page.getByText('7 dias de teste grátis', { exact: false }).waitFor();
    const [price] = (await read(`/api/products/${product.id}/prices`)).data;
    expect(price).toMatchObject({
      name: 'Trimestral',
      unitAmount: 80,
      billingInterval: 'month',
      intervalCount: 3,
      trialDays: 7,
      isActive: true,
    });
    await d.checkView('product-prices');
    await confirm('Desativar Trimestral', 'Sim, desativar');
    await page.getByRole('listitem').filter({ hasText: 'Trimestral' }).getByText('Desativado').waitFor();
    expect((await read(`/api/products/${product.id}/prices`)).data[0].isActive).toBe(false);

    await page
      .getByRole('navigation', { name: 'Seções do produto' })
      .getByRole('link', { name: 'Afiliados' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Afiliados · Clube do pão' }).waitFor();
    await page.getByLabel('Id do vendedor afiliado').fill(String(affiliateId));
    await page.getByLabel('Comissão (%)').fill('95');
    await page.getByRole('button', { name: 'Adicionar afiliado' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Comissão (%): commissionPercent must be between 0.01 and 90' })
      .waitFor();
    await page.getByLabel('Comissão (%)').fill('12,5');
    await page.getByRole('button', { name: 'Adicionar afiliado' }).click();
    await page.getByText('Comissão de 12,5%').waitFor();
    expect((await read(`/api/products/${product.id}/affiliates`)).data).toEqual([
      expect.objectContaining({ affiliateId, commissionPercent: 12.5, status: 'active' }),
    ]);
    await d.checkView('product-affiliates');
    await confirm(`Encerrar afiliado ${affiliateId}`, 'Sim, encerrar');
    await page.getByText(/Encerrado em/).waitFor();
    expect((await read(`/api/products/${product.id}/affiliates`)).data[0].status).toBe('ended');
  });
});

describe('the customer portal', () => {
  it('saves the portal configuration, previewed as the subscriber sees it', async () => {
    await d.goTo('Portal do cliente');
    const preview = page.getByRole('region', { name: 'Pré-visualização' });
    await preview.getByText('Minhas assinaturas').waitFor();
    await preview.getByRole('list', { name: 'Ações no portal' }).getByText('Trocar cartão').waitFor();
    await d.checkView('portal-defaults');

    await page.getByLabel('Nome da empresa').fill('Padaria da Ana');
    await page.getByLabel('Cor principal').fill('verde');
    await page.getByLabel('Trocar o cartão').uncheck();
    await page.getByLabel('Cancelamento só no fim do período já pago').check();
    await page.getByLabel('Texto de boas-vindas (opcional)').fill('Bem-vindo ao clube do pão!');
    // The preview follows the form before anything is saved.
    await preview.getByText('Padaria da Ana').waitFor();
    await preview.getByText('Bem-vindo ao clube do pão!').waitFor();
    await preview.getByText('vale no fim do período já pago', { exact: false }).waitFor();
    expect(await preview.getByRole('list', { name: 'Ações no portal' }).innerText()).not.toContain(
      'Trocar cartão',
    );

    await page.getByRole('button', { name: 'Salvar portal' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Cor principal: primaryColor must be a hex colour' })
      .waitFor();
    expect(await read('/api/portal/configuration')).toBeNull();

    await page.getByLabel('Cor principal').fill('#8a4b00');
    await page.getByRole('button', { name: 'Salvar portal' }).click();
    await status('Portal salvo').waitFor();
    expect(await read('/api/portal/configuration')).toMatchObject({
      businessName: 'Padaria da Ana',
      primaryColor: '#8a4b00',
      allowUpdatePaymentMethod: false,
      allowCancelSubscription: true,
      cancelAtPeriodEndOnly: true,
      customWelcomeText: 'Bem-vindo ao clube do pão!',
    });
    await page.getByText('Configuração salva da sua conta.').waitFor();
    await d.checkView('portal-saved');
  });

  it("gives a product a portal of its own, starting from the seller's, and removes it", async () => {
    const product = await seed('/api/products', {
      name: 'Pão de queijo',
      image: 'https://example.com/queijo.png',
      value: 12,
    });
    await d.goTo('Produtos');
    await page.getByLabel('Buscar por nome').fill('queijo');
    await page.getByRole('link', { name: 'Pão de queijo' }).click();
    await page
      .getByRole('navigation', { name: 'Seções do produto' })
      .getByRole('link', { name: 'Portal' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Portal · Pão de queijo' }).waitFor();
    await page.getByText('Este produto usa a configuração da conta', { exact: false }).waitFor();
    expect(await page.getByLabel('Nome da empresa').inputValue()).toBe('Padaria da Ana');

    await page.getByLabel('Cancelar, pausar e retomar a assinatura').uncheck();
    const preview = page.getByRole('region', { name: 'Pré-visualização' });
    await preview.getByText('Nenhuma ação na assinatura: o assinante só acompanha.').waitFor();
    await page.getByRole('button', { name: 'Salvar portal' }).click();
    await status('Portal salvo').waitFor();
    await page.getByText('Configuração própria deste produto.').waitFor();
    expect(await read(`/api/products/${product.id}/portal-config`)).toMatchObject({
      businessName: 'Padaria da Ana',
      allowCancelSubscription: false,
      allowUpdatePaymentMethod: false,
    });
    await d.checkView('product-portal');

    await confirm('Usar a configuração da conta', 'Sim, remover');
    await status('Configuração própria removida').waitFor();
    expect(await read(`/api/products/${product.id}/portal-config`)).toBeNull();
    await page.getByText('Este produto usa a configuração da conta', { exact: false }).waitFor();
  });
});

describe('checkout sessions', () => {
  it('lists the sessions and expires an open one', async () => {
    const product = await seed('/api/products', {
      name: 'Fornada especial',
      image: 'https://example.com/fornada.png',
      value: 25,
    });
    const session = await seed('/api/checkout/sessions', {
      product_id: product.id,
      customer: prefill,
      success_url: 'https://padaria.example.com/ok?session={SESSION_ID}',
      metadata: { pedido: 'P-7' },
      client_reference_id: 'pedido-7',
    });

    await d.goTo('Sessões de checkout');
    await page.getByRole('link', { name: session.id }).waitFor();
    await page.getByLabel('Situação').selectOption('expired');
    await page.getByText('Nenhuma sessão com estes filtros.').waitFor();
    await page.getByLabel('Situação').selectOption('open');
    await page.getByRole('link', { name: session.id }).waitFor();
    await d.checkView('checkout-sessions');

    await page.getByRole('link', { name: session.id }).click();
    await page.getByRole('heading', { level: 1, name: 'Sessão de checkout' }).waitFor();
    await page.getByText(session.id).waitFor();
    await page.getByRole('link', { name: 'Fornada especial' }).waitFor();
    await page.getByText('pedido-7').waitFor();
    await d.checkView('checkout-session-open');
    await confirm('Expirar sessão', 'Sim, expirar');
    await status('Sessão expirada').waitFor();
    await page.getByRole('button', { name: 'Expirar sessão' }).waitFor({ state: 'detached' });
    expect((await read(`/api/checkout/sessions/${session.id}`)).data.status).toBe('expired');
    await d.checkView('checkout-session-expired');
  });
});

describe('subscriptions', () => {
  /** A customer subscribed with a card saved the way a buyer saves it (a paid sale with saveCard). */
  async function subscription() {
    const product = await seed('/api/products', {
      name: 'Assinatura de pães',
      image: 'https://example.com/assinatura.png',
      value: 39.9,
    });
    const customer = await seed('/api/v1/customers', customerBody);
    const price = await seed(`/api/products/${product.id}/prices`, {
      name: 'Mensal',
      unitAmount: 39.9,
      billingInterval: 'month',
    });
    const [y, m] = saoPauloDate(d.runtime.clock.now()).split('-').map(Number);
    const sale = await d.api.post('/api/transactions', {
      productId: product.uuid,
      paymentMethod: 'creditcard',
      customer: customerBody,
      card: {
        number: '4111111111111111',
        holderName: 'MARIA SOUZA',
        expiryMonth: m,
        expiryYear: y + 2,
        cvv: '123',
      },
      saveCard: true,
    });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    const [card] = (await read(`/api/v1/customers/${customer.uuid}/payment-methods`)).data;
    return seed('/api/subscriptions', {
      customerId: customer.id,
      priceId: price.id,
      paymentMethodId: card.id,
    });
  }

  it('pauses and resumes a subscription, cancels it at the period end and reactivates it', async () => {
    const sub = await subscription();
    expect(sub.status).toBe('active');

    await d.goTo('Assinaturas');
    const link = page.getByRole('link', { name: 'Maria Souza · Assinatura de pães' });
    await link.waitFor();
    await page.getByLabel('Situação').selectOption('canceled');
    await page.getByText('Nenhuma assinatura com estes filtros.').waitFor();
    await page.getByLabel('Situação').selectOption('active');
    await link.waitFor();
    await d.checkView('subscriptions');

    await link.click();
    await page.getByRole('heading', { level: 1, name: `Assinatura ${sub.id} · Maria Souza` }).waitFor();
    await page.getByText('Pagamento aprovado').waitFor();
    await d.checkView('subscription-active');

    await confirm('Pausar cobranças', 'Sim, pausar');
    await status('Cobranças pausadas').waitFor();
    await page.getByText('Pausada', { exact: true }).waitFor();
    await page.getByRole('listitem').filter({ hasText: 'Cobranças pausadas' }).waitFor();
    expect((await read(`/api/subscriptions/${sub.id}`)).pauseCollection).not.toBeNull();
    await d.checkView('subscription-paused');

    await confirm('Retomar cobranças', 'Sim, retomar');
    await status('Cobranças retomadas').waitFor();
    await page.getByRole('listitem').filter({ hasText: 'Cobranças retomadas' }).waitFor();
    expect((await read(`/api/subscriptions/${sub.id}`)).pauseCollection).toBeNull();

    await page.getByLabel('Motivo do cancelamento (opcional)').fill('Mudou de cidade');
    await confirm('Cancelar no fim do período', 'Sim, cancelar no fim do período');
    await status('Cancelamento agendado').waitFor();
    expect(await read(`/api/subscriptions/${sub.id}`)).toMatchObject({
      status: 'pending_cancellation',
      cancelAtPeriodEnd: true,
      cancelReason: 'Mudou de cidade',
    });
    await page.getByText('motivo: Mudou de cidade', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Pausar cobranças' }).waitFor({ state: 'detached' });
    await d.checkView('subscription-pending-cancellation');

    await confirm('Reativar assinatura', 'Sim, reativar');
    await status('Assinatura reativada.').waitFor();
    expect(await read(`/api/subscriptions/${sub.id}`)).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: false,
    });
    expect(d.watched.problems).toEqual([]);
  });
});
