import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, saoPauloDate } from '#shared/dates';
import { screenshots, type Watched, watchPage } from '../support/browser';
import { checkView, type Dashboard, DESKTOP, openDashboard, SELLER_PASSWORD } from '../support/dashboard';
import { Receiver } from '../support/receiver';

/** Settings: the business profile on a hosted page, the team (invite, accept, switch seller) and the roles in the views. */

const LOGO = 'https://cdn.loja.example/logo.png';
/** A 1×1 PNG: the logo's bytes, served by the test instead of the network. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function serveImages(page: Page) {
  await page.route('https://cdn.loja.example/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: PNG }),
  );
}

let d: Dashboard;

/** What a button or link that writes is called, in any view (read actions such as Copiar link, Buscar, Atualizar are not). */
const WRITE =
  /^(Novo produto|Editar|Desativar|Reativar|Salvar|Criar|Expirar|Cancelar|Pausar|Retomar|Marcar|Segunda via|Adiar|Adicionar|Remover|Revogar|Gerar novo segredo|Excluir|Reenviar|Enviar|Configurar|Alterar|Desconectar|Conectar|Copiar link público|Reembolsar|Nova cobrança|Novo carnê|Usar a configuração da conta|Encerrar)/;

/**
 * Every signed-in view of the seller, reached from the menu (and a list's first detail link, and a
 * product's tabs): the names of the write actions each one offers.
 */
const WALK: { menu: string; detail?: RegExp; tabs?: string[] }[] = [
  { menu: 'Início' },
  { menu: 'Vendas', detail: /^\/dashboard\/vendas\/\d+$/ },
  { menu: 'Clientes', detail: /^\/dashboard\/clientes\/[^/]+$/ },
  {
    menu: 'Produtos',
    detail: /^\/dashboard\/produtos\/\d+$/,
    tabs: ['Preços de assinatura', 'Afiliados', 'Portal'],
  },
  { menu: 'Assinaturas', detail: /^\/dashboard\/assinaturas\/[^/]+$/ },
  { menu: 'Cobranças agendadas', detail: /^\/dashboard\/cobrancas\/sch_[^/]+$/ },
  { menu: 'Carnês', detail: /^\/dashboard\/carnes\/[0-9a-f-]{36}$/ },
  { menu: 'Multa e juros' },
  { menu: 'Régua de cobrança' },
  { menu: 'Sessões de checkout', detail: /^\/dashboard\/sessoes\/[^/]+$/ },
  { menu: 'Portal do cliente' },
  { menu: 'Chaves de API' },
  { menu: 'Webhooks', detail: /^\/dashboard\/desenvolvedores\/webhooks\/[^/]+$/ },
  { menu: 'Eventos', detail: /^\/dashboard\/desenvolvedores\/eventos\/[^/]+$/ },
  { menu: 'Conectar Asaas' },
  { menu: 'Perfil do negócio' },
  { menu: 'Equipe' },
];

async function settled(page: Page) {
  await page.locator('main h1').waitFor();
  await expect.poll(() => page.getByText('Carregando…').count()).toBe(0);
}

async function writeActions(page: Page): Promise<string[]> {
  const names = await page
    .locator('main')
    .getByRole('button')
    .or(page.locator('main').getByRole('link'))
    .evaluateAll((nodes) =>
      nodes.map((n) => (n.getAttribute('aria-label') ?? n.textContent ?? '').replace(/\s+/g, ' ').trim()),
    );
  return names.filter((n) => WRITE.test(n));
}

/** Walks every view as the signed-in member: view (or view › detail) → the write actions found. */
async function walk(page: Page): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  const menu = page.getByRole('navigation', { name: 'Menu principal' });
  for (const view of WALK) {
    await menu.getByRole('link', { name: view.menu, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: view.menu }).waitFor();
    await settled(page);
    found[view.menu] = await writeActions(page);
    if (!view.detail) continue;
    const pattern = view.detail;
    const paths = () =>
      page.locator('main a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    await expect.poll(async () => (await paths()).some((p) => pattern.test(p))).toBe(true);
    const href = (await paths()).find((p) => pattern.test(p)) as string;
    await page.locator(`main a[href="${href}"]`).first().click();
    await page.waitForURL((url) => url.pathname === href);
    await settled(page);
    found[`${view.menu} › detalhe`] = await writeActions(page);
    for (const tab of view.tabs ?? []) {
      await page.getByRole('link', { name: tab, exact: true }).click();
      await settled(page);
      found[`${view.menu} › ${tab}`] = await writeActions(page);
    }
  }
  return found;
}

/** A member signed in through the login page in a context of their own, acting on Loja da Dona. */
async function signInAs(
  email: string,
  role: string,
  shownStatuses: number[] = [],
): Promise<{ context: BrowserContext; member: Watched }> {
  const context = await d.browser.newContext({ viewport: DESKTOP });
  // 404: Conectar Asaas reads the connection, missing until one is made.
  const member = await watchPage(context, { shownStatuses: [401, 404, ...shownStatuses] });
  const p = member.page;
  await p.goto(`${d.runtime.baseUrl}/dashboard`);
  await p.getByLabel('E-mail').fill(email);
  await p.getByLabel('Senha').fill(SELLER_PASSWORD);
  await p.getByRole('button', { name: 'Entrar' }).click();
  await p.getByRole('heading', { level: 1, name: 'Início' }).waitFor();
  await p.getByLabel('Vendedor').selectOption({ label: `Loja da Dona (${role})` });
  await p.getByRole('heading', { level: 1, name: 'Início' }).waitFor();
  return { context, member };
}
beforeAll(async () => {
  // 400: the https rule of the logo, shown on the form.
  d = await openDashboard({
    email: 'dona@loja.example.com',
    businessName: 'Loja Antiga',
    shownStatuses: [400],
  });
  await serveImages(d.page);
}, 120_000);
afterAll(async () => {
  await d?.close();
});

describe('Settings in the dashboard', () => {
  it('edits the business profile and the hosted payment page shows its name, logo and colour', async () => {
    const { page } = d;
    await d.goTo('Perfil do negócio');
    await page.getByLabel('Nome do negócio').fill('Loja da Dona');
    await page.getByLabel('Endereço do logo').fill('http://cdn.loja.example/logo.png');
    await page.getByLabel('Cor da marca').fill('#7c3aed');
    await page.getByRole('button', { name: 'Salvar perfil' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('logoUrl must be an https URL');
    await page.getByLabel('Endereço do logo').fill(LOGO);
    await page.getByRole('button', { name: 'Salvar perfil' }).click();
    await page.getByText('Perfil salvo.').waitFor();
    await d.checkView('settings-profile');

    const product = await d.api.post(
      '/api/products',
      { name: 'Aula de <b>canto</b>', image: LOGO, value: 80 },
      { token: d.seller.testKey },
    );
    expect(product.status).toBe(201);
    const pay = await d.browser.newPage({ viewport: DESKTOP });
    const violations: string[] = [];
    pay.on('console', (m) => {
      if (m.type() === 'error') violations.push(m.text());
    });
    await serveImages(pay);
    const res = await pay.goto(`${d.runtime.baseUrl}/pay/${product.body.uuid}`);
    expect(res?.headers()['content-security-policy']).toContain("style-src 'self'");
    expect(await pay.locator('#seller-name').textContent()).toBe('Loja da Dona');
    expect(await pay.locator('#seller-logo').getAttribute('src')).toBe(LOGO);
    expect(await pay.locator('#product-name').textContent()).toBe('Aula de <b>canto</b>');
    const background = await pay
      .locator('button.primary')
      .first()
      .evaluate((b) => {
        const view = globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } };
        return view.getComputedStyle(b).backgroundColor;
      });
    expect(background).toBe('rgb(124, 58, 237)');
    expect(violations).toEqual([]);
    await screenshots('dashboard-')(pay, 'hosted-page-branded-1280');
    await pay.close();
  });

  it('invites a viewer, who accepts, switches seller and finds no action their role lacks', async () => {
    const { page, runtime } = d;
    await d.goTo('Equipe');
    await page.getByLabel('E-mail da pessoa').fill('leitor@contabil.example.com');
    await page.getByLabel('Papel').selectOption('viewer');
    await page.getByRole('button', { name: 'Enviar convite' }).click();
    await page.getByText('Convite enviado para leitor@contabil.example.com.').waitFor();
    await page.getByRole('heading', { name: 'Convites pendentes' }).waitFor();
    await d.checkView('settings-team');

    const mail = runtime.mailbox
      .all()
      .find(
        (m) =>
          m.to === 'leitor@contabil.example.com' && /Convite para a equipe de Loja da Dona/.test(m.subject),
      );
    const link = mail?.text.match(/https?:\/\/\S+\/dashboard\/convite#inv_\w+/)?.[0];
    expect(link).toBeDefined();
    await d.newSeller('leitor@contabil.example.com', 'Escritório Contábil');

    const context = await d.browser.newContext({ viewport: DESKTOP });
    const viewer: Watched = await watchPage(context, { shownStatuses: [401] });
    const v = viewer.page;
    await v.goto(link as string);
    await v.getByRole('heading', { level: 1, name: 'Convite para equipe' }).waitFor();
    expect(v.url()).not.toContain('inv_');
    await v.getByRole('link', { name: 'Entrar' }).click();
    await v.getByLabel('E-mail').fill('leitor@contabil.example.com');
    await v.getByLabel('Senha').fill(SELLER_PASSWORD);
    await v.getByRole('button', { name: 'Entrar' }).click();
    await v.getByRole('button', { name: 'Aceitar convite' }).click();
    await v.getByRole('heading', { level: 1, name: 'Início' }).waitFor();

    const switcher = v.getByLabel('Vendedor');
    await expect.poll(() => switcher.locator('option:checked').textContent()).toBe('Loja da Dona (Leitor)');
    await switcher.selectOption({ label: 'Escritório Contábil (Proprietário)' });
    await v.getByRole('heading', { level: 1, name: 'Início' }).waitFor();
    await switcher.selectOption({ label: 'Loja da Dona (Leitor)' });
    await v.getByRole('heading', { level: 1, name: 'Início' }).waitFor();

    const menu = v.getByRole('navigation', { name: 'Menu principal' });
    await menu.getByRole('link', { name: 'Equipe' }).click();
    await v.getByRole('heading', { level: 1, name: 'Equipe' }).waitFor();
    await v.getByText('leitor@contabil.example.com (você)').waitFor();
    expect(await v.getByRole('heading', { name: 'Convidar' }).count()).toBe(0);
    expect(await v.getByRole('button', { name: /Remover/ }).count()).toBe(0);
    await checkView(v, 'settings-team-viewer', screenshots('dashboard-'));

    await menu.getByRole('link', { name: 'Perfil do negócio' }).click();
    await v.getByRole('heading', { level: 1, name: 'Perfil do negócio' }).waitFor();
    expect(await v.getByLabel('Nome do negócio').inputValue()).toBe('Loja da Dona');
    expect(await v.getByRole('button', { name: 'Salvar perfil' }).count()).toBe(0);

    await menu.getByRole('link', { name: 'Chaves de API' }).click();
    await v.getByRole('heading', { level: 1, name: 'Chaves de API' }).waitFor();
    await v.getByRole('heading', { name: 'Suas chaves' }).waitFor();
    expect(await v.getByRole('heading', { name: 'Nova chave' }).count()).toBe(0);
    expect(await v.getByRole('button', { name: /Revogar/ }).count()).toBe(0);

    // A paid sale of the seller: the viewer reads it, and is offered no refund.
    const key = { token: d.seller.testKey };
    const product = await d.api.post(
      '/api/products',
      { name: 'Bolo de fubá', image: 'https://example.com/bolo.png', value: 35 },
      key,
    );
    const sale = await d.api.post('/api/transactions', {
      productId: product.body.uuid,
      paymentMethod: 'pix',
      customer: {
        name: 'Rita Lima',
        email: 'rita@example.com',
        document: '52998224725',
        phone: '11987654321',
      },
    });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect((await d.api.post(`/api/test-helpers/transactions/${sale.body.id}/pay`, {}, key)).status).toBe(
      200,
    );
    await menu.getByRole('link', { name: 'Vendas' }).click();
    await v.getByRole('heading', { level: 1, name: 'Vendas' }).waitFor();
    await v
      .getByRole('link', { name: /Rita Lima/ })
      .first()
      .click();
    await v.getByRole('heading', { level: 2, name: 'Linha do tempo' }).waitFor();
    expect(await v.getByRole('button', { name: /Reembolsar/ }).count()).toBe(0);
    expect(viewer.problems).toEqual([]);
    await context.close();

    // The owner sees the viewer as a member now.
    await page.reload();
    await page.getByText('Carregando o painel…').waitFor({ state: 'detached' });
    await page.getByText('leitor@contabil.example.com').first().waitFor();
    expect(d.watched.problems).toEqual([]);
  });

  it('walks every view: a viewer finds no write action, a developer only the webhooks and keys, an admin all', async () => {
    const key = { token: d.seller.testKey };
    const post = async (path: string, body: unknown) => {
      const res = await d.api.post(path, body, key);
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(201);
      return res.body;
    };
    // One of each resource, so that every list has a detail to open.
    const buyer = {
      name: 'Clara Nunes',
      email: 'clara@example.com',
      document: '390.533.447-05',
      phone: '11912345678',
      personType: 'fisica',
    };
    const customer = await post('/api/v1/customers', buyer);
    const product = await post('/api/products', {
      name: 'Pão de mel',
      image: 'https://example.com/pao.png',
      value: 60,
      boleto: true,
      carne: { enabled: true, maxInstallments: 3 },
    });
    const price = await post(`/api/products/${product.id}/prices`, {
      name: 'Mensal',
      unitAmount: 60,
      billingInterval: 'month',
    });
    const today = saoPauloDate(d.runtime.clock.now());
    const [y, m] = today.split('-').map(Number);
    const sale = await d.api.post('/api/transactions', {
      productId: product.uuid,
      paymentMethod: 'creditcard',
      customer: buyer,
      card: {
        number: '4111111111111111',
        holderName: 'CLARA NUNES',
        expiryMonth: m,
        expiryYear: y + 2,
        cvv: '123',
      },
      saveCard: true,
    });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    const cards = await d.api.get(`/api/v1/customers/${customer.uuid}/payment-methods`, key);
    await post('/api/subscriptions', {
      customerId: customer.id,
      priceId: price.id,
      paymentMethodId: cards.body.data[0].id,
    });
    await post('/api/v1/scheduled-charges', {
      customerId: customer.id,
      amount: 90,
      dueDate: addDays(today, 5),
      methods: ['pix', 'boleto'],
      type: 'one_time',
    });
    await post('/api/v1/installment-plans', {
      productId: product.uuid,
      customerId: customer.id,
      installments: 2,
      firstDueDate: addDays(today, 5),
    });
    await post('/api/checkout/sessions', { product_id: product.id });
    const receiver = await new Receiver().start();
    await post('/api/webhook-endpoints', { url: receiver.url, events: ['transaction.payment.succeeded'] });

    // The viewer: every view and detail, and not one write action.
    const asViewer = await signInAs('leitor@contabil.example.com', 'Leitor');
    const viewerFound = await walk(asViewer.member.page);
    expect(Object.keys(viewerFound)).toHaveLength(WALK.length + WALK.filter((v) => v.detail).length + 3);
    expect(Object.entries(viewerFound).filter(([, names]) => names.length > 0)).toEqual([]);
    await asViewer.member.page.getByRole('link', { name: 'Régua de cobrança', exact: true }).click();
    await asViewer.member.page
      .getByText('Seu papel (Leitor) só consulta: a régua é alterada só por proprietários e administradores.')
      .waitFor();
    expect(asViewer.member.problems).toEqual([]);
    await asViewer.context.close();

    // A developer and an admin, invited through the API.
    const tokens: Record<string, string> = {};
    for (const [email, role] of [
      ['dev@agencia.example.com', 'developer'],
      ['admin@loja.example.com', 'admin'],
    ] as const) {
      const invited = await d.api.post(
        '/api/team/invitations',
        { email, role },
        { token: d.seller.idToken, headers: { 'x-environment': 'test' } },
      );
      expect(invited.status, JSON.stringify(invited.body)).toBe(201);
      const member = await d.newSeller(email, `Conta de ${role}`);
      tokens[role] = member.idToken;
      const mail = d.runtime.mailbox.all().find((x) => x.to === email && /Convite/.test(x.subject));
      const token = mail?.text.match(/#(inv_[0-9A-Za-z]+)/)?.[1];
      const accepted = await d.api.post(
        '/api/team/invitations/accept',
        { token },
        { token: member.idToken, headers: { 'x-environment': 'test' } },
      );
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    }

    const asDeveloper = await signInAs('dev@agencia.example.com', 'Desenvolvedor');
    const developerFound = await walk(asDeveloper.member.page);
    const developerNames = new Set(Object.values(developerFound).flat());
    // Keys and webhooks: theirs to manage.
    expect(developerFound['Chaves de API']).toContain('Criar chave');
    expect(developerFound.Webhooks).toContain('Adicionar endpoint');
    expect(developerFound['Webhooks › detalhe']).toEqual(
      expect.arrayContaining(['Editar', 'Desativar', 'Gerar novo segredo', 'Excluir endpoint']),
    );
    // Money, customers, products, billing, the portal, the team: not theirs (a test event is a write too).
    for (const view of Object.keys(developerFound).filter(
      (v) => !/^(Chaves de API|Webhooks|Eventos)/.test(v),
    ))
      expect(developerFound[view], view).toEqual([]);
    expect(developerNames.has('Enviar evento de teste')).toBe(false);
    expect(asDeveloper.member.problems).toEqual([]);
    await asDeveloper.context.close();

    // 403: the live key asked before the admin's own authenticator is on (second_factor_required).
    const asAdmin = await signInAs('admin@loja.example.com', 'Administrador', [403]);
    const adminFound = await walk(asAdmin.member.page);
    expect(adminFound.Produtos).toContain('Novo produto');
    expect(adminFound['Produtos › detalhe']).toEqual(expect.arrayContaining(['Editar', 'Desativar produto']));
    expect(adminFound['Cobranças agendadas']).toContain('Nova cobrança');
    expect(adminFound['Cobranças agendadas › detalhe']).toContain('Cancelar cobrança');
    expect(adminFound['Carnês › detalhe']).toContain('Cancelar carnê');
    expect(adminFound['Régua de cobrança']).toEqual(
      expect.arrayContaining(['Configurar WhatsApp', 'Salvar régua']),
    );
    expect(adminFound['Multa e juros']).toContain('Salvar multa e juros');
    expect(adminFound['Webhooks › detalhe']).toContain('Enviar evento de teste');
    expect(adminFound['Conectar Asaas']).toContain('Conectar Asaas');
    expect(adminFound.Equipe).toContain('Enviar convite');

    // The live gate reads the acting member's authenticator: refused without it, allowed with it,
    // though the owner of Loja da Dona has none.
    const a = asAdmin.member.page;
    await a.getByRole('switch', { name: 'Modo de teste' }).uncheck();
    await a
      .getByRole('navigation', { name: 'Menu principal' })
      .getByRole('link', { name: 'Chaves de API', exact: true })
      .click();
    await a.getByLabel('Nome').fill('Produção');
    await a.getByRole('button', { name: 'Criar chave' }).click();
    await a.getByText(/^Ative o aplicativo autenticador do seu login/).waitFor();
    const mine = await d.api.get('/api/auth/sellers', { token: tokens.admin });
    const home = mine.body.sellers.find((s: { home: boolean }) => s.home).id as number;
    await d.runtime.deps.sellerAccounts.markTotpEnabled(home, d.runtime.clock.now());
    await a.getByRole('button', { name: 'Criar chave' }).click();
    expect(await a.locator('.secret-value').textContent()).toMatch(/^sk_live_/);
    expect(asAdmin.member.problems).toEqual([]);
    await asAdmin.context.close();
    await receiver.stop();
  }, 300_000);
});
