import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { ASAAS_KEY } from '../support/asaas-live';
import { launchChromium, screenshots, type Watched, watchPage } from '../support/browser';
import { checkView as checkViewOn, DESKTOP } from '../support/dashboard';
import { type FakeAsaas, startFakeAsaas } from '../support/fake-asaas/server';
import { eventually, Receiver } from '../support/receiver';
import { client, startTestRuntime } from '../support/runtime';

/**
 * The seller dashboard in Chromium, as a new seller uses it: one browser, one page, the flows in
 * order (each step starts where the last one left the seller). Every view is checked by axe-core at
 * 390 px and 1280 px: no serious or critical violation, no sideways scrolling.
 */
const EMAIL = 'ana@padaria.example.com';
const PASSWORD = 'Senha-forte-123';
const NEW_PASSWORD = 'Outra-senha-forte-456';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let fake: FakeAsaas;
let browser: Browser;
let watched: Watched;
let page: Page;
/** The authenticator's secret, set up at sign-up: every later login asks its code. */
let totpSecret: string;
const receiver = new Receiver();
const shot = screenshots('dashboard-');

beforeAll(async () => {
  fake = await startFakeAsaas();
  fake.addAccount(ASAAS_KEY, 'Padaria da Ana LTDA');
  runtime = await startTestRuntime({ asaasBaseUrl: fake.baseUrl });
  api = client(runtime.baseUrl);
  await receiver.start();
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: runtime.baseUrl });
  // 401: the first load asks the refresh route with no cookie; 404: Asaas not connected yet.
  watched = await watchPage(context, { shownStatuses: [401, 404] });
  page = watched.page;
});
afterAll(async () => {
  await browser?.close();
  await receiver.stop();
  await runtime?.stop();
  await fake?.stop();
});

const checkView = (name: string) => checkViewOn(page, name, shot);

const goTo = async (label: string) => {
  // The menu is collapsed on a phone; the tests drive the desktop layout between checks.
  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: label }).click();
  await page.getByRole('heading', { level: 1, name: label }).waitFor();
};

const advanceClock = (seconds: number) => api.post('/api/test-helpers/clock/advance', { seconds });

describe('the seller dashboard', () => {
  it('serves the app with the strict CSP and nothing inline', async () => {
    const res = await fetch(`${runtime.baseUrl}/dashboard/desenvolvedores/chaves`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).not.toMatch(/<script>|<style|style=/);
    const asset = html.match(/src="([^"]+\.js)"/)?.[1] as string;
    const script = await fetch(`${runtime.baseUrl}${asset}`);
    expect(script.headers.get('cache-control')).toContain('immutable');
  });

  it('signs up, confirms with the code from the mailbox and is logged in', async () => {
    await page.goto(`${runtime.baseUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await checkView('login');
    await page.getByRole('link', { name: 'Criar conta' }).click();
    await page.getByLabel('Nome do negócio').fill('Padaria da Ana');
    await page.getByLabel('CPF ou CNPJ').pressSequentially('11222333000181');
    expect(await page.getByLabel('CPF ou CNPJ').inputValue()).toBe('11.222.333/0001-81');
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Senha').fill(PASSWORD);
    await checkView('sign-up');
    await page.getByRole('button', { name: 'Criar conta' }).click();
    await page.getByRole('heading', { name: 'Confirme seu e-mail' }).waitFor();
    await checkView('confirm');
    const mail = runtime.mailbox.all().find((m) => m.to === EMAIL);
    const mailCode = mail?.text.match(/\b(\d{6})\b/)?.[1] as string;
    expect(mailCode).toMatch(/^\d{6}$/);
    await page.getByLabel('Código').fill(mailCode);
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByRole('heading', { name: 'Bem-vindo!' }).waitFor();
    await checkView('welcome-totp');
    // The authenticator offered at sign-up: live keys and a live provider need it.
    await page.getByRole('button', { name: 'Configurar agora' }).click();
    await page.locator('.secret-value, .error').first().waitFor();
    expect(
      await page.locator('.error').count(),
      (await page.locator('.error').allTextContents()).join(),
    ).toBe(0);
    totpSecret = (await page.locator('.secret-value').first().textContent()) as string;
    const code = await generate({
      secret: totpSecret,
      epoch: Math.floor(runtime.wallClock.now().getTime() / 1000),
    });
    await page.getByLabel('Código de 6 dígitos do aplicativo').fill(code);
    await checkView('totp-setup');
    await page.getByRole('button', { name: 'Ativar' }).click();
    await page.getByText('Aplicativo autenticador ativado.').waitFor();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByRole('heading', { name: 'Início' }).waitFor();
  });

  it('takes the first sandbox key, shown once, and uses it from Node', async () => {
    await page.getByRole('button', { name: 'Criar minha chave de teste' }).click();
    const key = (await page.locator('.secret-value').first().textContent()) as string;
    expect(key).toMatch(/^sk_test_/);
    await expect
      .poll(() => page.locator('.secret-value').nth(1).textContent())
      .toContain(`authorization: Bearer ${key}`);
    await page.getByRole('button', { name: 'Copiar' }).first().click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await checkView('home-first-key');
    const product = await api.post(
      '/api/products',
      { name: 'Pão de fermentação natural', image: 'https://example.com/pao.png', value: 19.9 },
      { token: key },
    );
    expect(product.status).toBe(201);
    await page.reload();
    await page.getByRole('heading', { name: 'Início' }).waitFor();
    expect(await page.getByRole('button', { name: 'Criar minha chave de teste' }).count()).toBe(0);
  });

  it('lists keys, creates a read-only one and revokes it after confirming', async () => {
    await goTo('Chaves de API');
    await page.getByLabel('Nome').fill('Relatórios');
    await page.getByLabel('Somente leitura (só consultas GET)').check();
    await page.getByRole('button', { name: 'Criar chave' }).click();
    await page.getByText('Chave “Relatórios”').waitFor();
    await checkView('api-keys');
    await page.getByRole('button', { name: 'Revogar Relatórios' }).click();
    await page.getByRole('button', { name: 'Sim, revogar' }).click();
    await page.getByText(/Revogada em/).waitFor();
  });

  it('registers an endpoint, sends a test event, watches a failing delivery retry and resends it', async () => {
    receiver.status = 500;
    await goTo('Webhooks');
    await page.getByRole('button', { name: 'Adicionar endpoint' }).click();
    await page.getByLabel('URL do endpoint').fill(receiver.url);
    await page.getByLabel('Todos os eventos').uncheck();
    await page.getByRole('checkbox', { name: /product\.updated/ }).check();
    await checkView('webhook-new');
    await page.getByRole('button', { name: 'Cadastrar endpoint' }).click();
    expect(await page.locator('.secret-value').textContent()).toMatch(/^whsec_/);
    await checkView('webhooks');
    await page.getByRole('link', { name: receiver.url }).first().click();
    await page.getByRole('heading', { level: 1, name: receiver.url }).waitFor();

    await page.getByRole('button', { name: 'Enviar evento de teste' }).click();
    await eventually(async () => receiver.received.length === 1);
    const deliveries = page.getByRole('list', { name: 'Entregas deste endpoint' });
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Atualizar' }).click();
        return deliveries.textContent();
      })
      .toMatch(/Pendente.*Tentativas1Resposta500/);
    await checkView('endpoint-deliveries');

    // The first retry is a minute later: the test clock moves, nobody waits.
    await advanceClock(61);
    await eventually(async () => receiver.received.length === 2);
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Atualizar' }).click();
        return deliveries.textContent();
      })
      .toMatch(/Tentativas2Resposta500/);

    receiver.status = 200;
    await page.getByRole('button', { name: 'Reenviar' }).click();
    await eventually(async () => receiver.received.length === 3);
    await expect.poll(() => deliveries.textContent()).toMatch(/Entregue.*Resposta200/);
    const ids = new Set(receiver.received.map((r) => r.json.id));
    expect(ids.size).toBe(1);
  });

  it('finds the test event in Eventos, and its detail shows its delivery', async () => {
    const eventId = receiver.received[0].json.id as string;
    await goTo('Eventos');
    const events = page.getByRole('list', { name: 'Eventos' });
    await expect.poll(() => events.textContent()).toContain(eventId);
    await checkView('events');
    await events.getByRole('link', { name: 'product.updated' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'product.updated' }).waitFor();
    expect(await page.getByText(eventId).first().isVisible()).toBe(true);
    const deliveries = page.getByRole('list', { name: 'Entregas deste evento' });
    expect(await deliveries.textContent()).toMatch(/Entregue.*Resposta200/);
    await checkView('event-detail');
  });

  it('switches to live, connects the fake Asaas and disconnects it', async () => {
    await page.getByRole('switch', { name: 'Modo de teste' }).uncheck();
    expect(await page.getByText('Modo de teste: dados do sandbox').count()).toBe(0);
    await goTo('Conectar Asaas');
    await page.getByLabel('Chave de API do Asaas').fill(ASAAS_KEY);
    await page.getByLabel('Sandbox do Asaas').check();
    await checkView('asaas-connect');
    await page.getByRole('button', { name: 'Conectar Asaas' }).click();
    await page.getByText('Padaria da Ana LTDA').waitFor();
    expect(await page.locator('.secret-value').first().textContent()).toContain(
      '/api/provider-connections/asaas/notifications',
    );
    await checkView('asaas-connected');
    await page.getByRole('button', { name: 'Desconectar' }).click();
    await page.getByRole('button', { name: 'Sim, desconectar' }).click();
    await page.getByLabel('Chave de API do Asaas').waitFor();
    expect((await api.get('/api/provider-connections/asaas')).status).toBe(401);
  });

  it('shows the account view', async () => {
    await goTo('Conta');
    await checkView('account');
  });

  it('logs out: the refresh cookie is gone and a reload stays logged out', async () => {
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    const cookies = await watched.context.cookies(runtime.baseUrl);
    expect(cookies.filter((c) => c.httpOnly)).toEqual([]);
    await page.goto(`${runtime.baseUrl}/dashboard/desenvolvedores/chaves`);
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    expect(watched.problems).toEqual([]);
    expect(watched.dialogs).toEqual([]);
    expect(watched.requested.filter((u) => !u.startsWith(runtime.baseUrl))).toEqual([]);
  });

  it('resets a forgotten password with the code from the mailbox and logs in with the new one', async () => {
    await page.getByRole('link', { name: 'Esqueci a senha' }).click();
    await page.getByRole('heading', { name: 'Esqueci a senha' }).waitFor();
    await page.getByLabel('E-mail').fill(EMAIL);
    await checkView('forgot-password');
    await page.getByRole('button', { name: 'Enviar código' }).click();
    await page.getByRole('heading', { name: 'Nova senha' }).waitFor();
    const mail = runtime.mailbox.all().find((m) => m.to === EMAIL && m.subject === 'Redefinição de senha');
    const resetCode = mail?.text.match(/\b(\d{6})\b/)?.[1] as string;
    expect(resetCode).toMatch(/^\d{6}$/);
    expect(await page.getByLabel('E-mail').inputValue()).toBe(EMAIL);
    await page.getByLabel('Código').fill(resetCode);
    await page.getByLabel('Nova senha').fill(NEW_PASSWORD);
    await checkView('reset-password');
    await page.getByRole('button', { name: 'Redefinir senha' }).click();
    await page.getByText('Senha redefinida. Entre com a nova senha.').waitFor();

    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Senha').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    // The authenticator's code: the next step's, since the one of sign-up's step cannot be used twice.
    const code = await generate({
      secret: totpSecret,
      epoch: Math.floor(runtime.wallClock.now().getTime() / 1000) + 30,
    });
    await page.getByLabel('Código do aplicativo autenticador').fill(code);
    await page.getByRole('button', { name: 'Confirmar código' }).click();
    await page.getByRole('heading', { name: 'Início' }).waitFor();
    expect(watched.problems).toEqual([]);
  });
});
