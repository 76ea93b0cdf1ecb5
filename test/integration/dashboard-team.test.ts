import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshots, type Watched, watchPage } from '../support/browser';
import { checkView, type Dashboard, DESKTOP, openDashboard, SELLER_PASSWORD } from '../support/dashboard';

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
});
