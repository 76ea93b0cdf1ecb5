import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_CSP } from '#functions/pages/respond';
import type { Runtime } from '#infra/local/runtime';
import { formatSaoPauloDay } from '#shared/domain/pages/portal-format';
import {
  launchChromium,
  noHorizontalScroll,
  type Watched as Page0,
  PHONE,
  screenshots,
  watchPage,
} from '../support/browser';
import { checkView } from '../support/dashboard';
import { customerBody, sellerFixtures } from '../support/fixtures';
import { type client, logLines, useTestRuntime } from '../support/runtime';

const NBSP = '\u00a0';
const NEW_CARD = '5555555555554444';
// 1×1 transparent PNG: the seller's logo host, answered inside the browser so the test stays offline.
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const LOGO = 'https://cdn.example.com/logo.png';
const RETURN_URL = 'https://loja.example.com/minha-conta';
/** An action is an API call plus the page fetched again: seconds on a loaded machine. */
const SETTLED = { timeout: 15_000 };

let runtime: Runtime;
let api: ReturnType<typeof client>;
let browser: Browser;
const fixtures = sellerFixtures(() => ({ runtime, api }), 95_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/**
 * A seller with a monthly price, a customer with a card saved by a purchase, and that customer's
 * subscription created by API with the card (each step over HTTP, as a seller does it).
 */
async function subscribed(config: Record<string, unknown> = {}) {
  const { key, customer, product } = await fixtures.seller({
    customer: {},
    product: { name: 'Clube do Violão', value: 49.9, installments: 1 },
  });
  const price = await api.post(
    `/api/products/${product.id}/prices`,
    { name: 'Plano mensal', unitAmount: 49.9, billingInterval: 'month' },
    { token: key },
  );
  expect(price.status, JSON.stringify(price.body)).toBe(201);
  const card = await saveCard(key, product.uuid, '4111111111111111', customer.uuid);
  const sub = await api.post(
    '/api/subscriptions',
    { customerId: customer.id, priceId: price.body.id, paymentMethodId: card.id },
    { token: key },
  );
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  expect(sub.body.status).toBe('active');
  const configured = await api.call('PUT', '/api/portal/configuration', {
    token: key,
    body: { businessName: 'Escola de Música Lá', logoUrl: LOGO, primaryColor: '#7C3AED', ...config },
  });
  expect(configured.status, JSON.stringify(configured.body)).toBeLessThan(300);
  return { key, customer, product, subscription: sub.body, card };
}

type Seller = Awaited<ReturnType<typeof subscribed>>;

/** A card saved the way a buyer saves one: a card purchase with `saveCard: true`. */
async function saveCard(key: string, productUuid: string, number: string, customerUuid: string) {
  const paid = await api.post('/api/transactions', {
    productId: productUuid,
    paymentMethod: 'creditcard',
    customer: {
      name: customerBody.name,
      email: customerBody.email,
      phone: customerBody.phone,
      document: customerBody.document,
    },
    card: { number, holderName: 'MARIA SOUZA', expiryMonth: 12, expiryYear: 2034, cvv: '123' },
    saveCard: true,
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  const listed = await api.get(`/api/v1/customers/${customerUuid}/payment-methods`, { token: key });
  const saved = listed.body.data.find((m: { last4: string }) => m.last4 === number.slice(-4));
  if (!saved) throw new Error(`the card was not saved: ${JSON.stringify(listed.body)}`);
  return saved as { id: number; last4: string };
}

async function portalUrl(s: Seller) {
  const res = await api.post(
    '/api/portal/sessions',
    { customerId: s.customer.id, returnUrl: RETURN_URL },
    { token: s.key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.portalUrl).toBe(`${runtime.baseUrl}/portal?token=${res.body.token}`);
  return res.body as { portalUrl: string; token: string };
}

type Watched = Page0 & {
  /** Referer headers the logo's host received (none: the page sends no referrer). */
  referers: (string | undefined)[];
};

/** A phone-sized page that records console errors, CSP violations, alerts and every URL it asks for. */
async function phone(): Promise<Watched> {
  const context = await browser.newContext({ viewport: PHONE, locale: 'pt-BR' });
  const referers: (string | undefined)[] = [];
  await context.route('https://cdn.example.com/**', (route) => {
    referers.push(route.request().headers().referer);
    return route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL });
  });
  // A refused action (400, 401, 403) is an answer the page shows; Chromium logs it as a failed load.
  return { ...(await watchPage(context, { shownStatuses: [400, 401, 403, 409] })), referers };
}

const shot = screenshots('portal-');

const subscriptionOf = async (s: Seller) =>
  (await api.get(`/api/subscriptions/${s.subscription.id}`, { token: s.key })).body;

/** The labels of the buttons of a subscription's card (actions and the history toggle). */
const buttonsOf = (page: Page, id: number) =>
  page.locator(`#subscription-${id} > .actions button, #subscription-${id} > button`).allTextContents();

describe('the portal page over HTTP', () => {
  it('answers HTML with the strict CSP, no caching and no referrer; the theme is a cached style sheet', async () => {
    const s = await subscribed();
    const { portalUrl: url, token } = await portalUrl(s);
    const logMark = logLines.length;
    const res = await fetch(url);
    const body = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body).not.toMatch(/<script>|<style|\sstyle=/);
    expect(body).toContain('href="/pages/themes/7c3aed"');
    // The token is in the page URL only: not in the page, not in a log line.
    expect(body).not.toContain(token);
    expect(logLines.slice(logMark).join('\n')).not.toContain(token);

    const theme = await api.get('/pages/themes/7c3aed');
    expect(theme.status).toBe(200);
    expect(theme.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(theme.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(String(theme.body)).toContain('--brand:#7c3aed;--brand-text:#ffffff');
    expect((await api.get('/pages/themes/7C3AED')).status).toBe(404);
    expect((await api.get('/pages/themes/red')).status).toBe(404);
    for (const file of ['portal.js', 'portal.css'])
      expect((await api.get(`/pages/assets/${file}`)).status).toBe(200);
  });

  it.each([
    ['no token', '/portal'],
    ['a malformed token', '/portal?token=%3Cscript%3E'],
    ['an unknown token', `/portal?token=pt_${'x'.repeat(43)}`],
  ])('answers %s with the expired page (401, no data)', async (_, path) => {
    const res = await api.get(path);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(String(res.body)).toContain('Link expirado');
    expect(String(res.body)).not.toContain('<script');
  });
});

describe('the portal page in Chromium (390 px wide)', () => {
  it('shows the business and the subscription, and cancels at period end with the required reason', async () => {
    const s = await subscribed({
      requireCancelReason: true,
      customWelcomeText: 'Bem-vinda de volta!\nAqui você cuida da sua assinatura.',
      customCancellationMessage: 'Sentiremos sua falta!',
    });
    const { portalUrl: url } = await portalUrl(s);
    const { page, context, problems, requested, dialogs, referers } = await phone();
    const id = s.subscription.id;
    await page.goto(url);

    expect(await page.locator('#business-name').textContent()).toBe('Escola de Música Lá');
    expect(await page.locator('#portal-logo').getAttribute('src')).toBe(LOGO);
    expect(await page.locator('#greeting').textContent()).toBe('Olá, Maria!');
    expect(await page.locator('#welcome-text').innerText()).toBe(
      'Bem-vinda de volta!\nAqui você cuida da sua assinatura.',
    );
    // The seller's colour, from the theme style sheet.
    expect(
      await page.evaluate<string>(
        "getComputedStyle(document.querySelector('.portal-header')).backgroundColor",
      ),
    ).toBe('rgb(124, 58, 237)');
    const card = page.locator(`#subscription-${id}`);
    expect(await card.locator('h3').textContent()).toBe('Clube do Violão');
    expect(await page.locator(`#status-${id}`).textContent()).toBe('Ativa');
    const details = await card.locator('.sub-details').innerText();
    expect(details).toContain(`R$${NBSP}49,90 por mês`);
    expect(details).toContain(formatSaoPauloDay(s.subscription.nextPaymentAt));
    expect(details).toContain('Visa ····1111');
    expect(await buttonsOf(page, id)).toEqual([
      'Trocar cartão',
      'Pausar',
      'Cancelar',
      'Ver histórico de pagamentos',
    ]);
    expect(await page.locator('#return-link').getAttribute('href')).toBe(RETURN_URL);
    await noHorizontalScroll(page);
    await shot(page, 'active');
    // axe-core at 390 px and 1280 px: no serious or critical violation; then back to the phone.
    await checkView(page, 'portal-active', shot);
    await page.setViewportSize(PHONE);

    await card.getByRole('button', { name: 'Cancelar' }).click();
    const dialog = page.locator(`#cancel-dialog-${id}`);
    await dialog.waitFor();
    const periodEnd = formatSaoPauloDay(s.subscription.currentPeriodEnd);
    expect(await dialog.getByLabel(`No fim do período (${periodEnd})`).isChecked()).toBe(true);
    expect(await dialog.getByLabel('Agora').isChecked()).toBe(false);
    await shot(page, 'cancel-dialog');
    // The reason is required: the dialog says so before asking the API.
    await dialog.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    expect(await page.locator(`#cancel-reason-${id}-error`).textContent()).toBe(
      'Informe o motivo do cancelamento.',
    );
    await dialog.getByLabel('Motivo do cancelamento').fill('Muito caro para mim agora');
    await dialog.getByRole('button', { name: 'Confirmar cancelamento' }).click();

    await expect
      .poll(() => page.locator(`#status-${id}`).textContent(), SETTLED)
      .toBe('Cancelamento agendado');
    expect(await page.locator('#portal-message').textContent()).toBe('Sentiremos sua falta!');
    expect(await page.locator(`#cancel-dialog-${id}`).evaluate((d) => (d as { open: boolean }).open)).toBe(
      false,
    );
    expect(await card.locator('.sub-details dd').allTextContents()).toContain(periodEnd);
    expect(await card.locator('.sub-details dt').allTextContents()).toContain('Acesso até');
    expect(await buttonsOf(page, id)).toContain('Reativar');
    await shot(page, 'cancel-scheduled');

    const after = await subscriptionOf(s);
    expect(after).toMatchObject({
      status: 'pending_cancellation',
      cancelAtPeriodEnd: true,
      cancelAt: s.subscription.currentPeriodEnd,
      cancelReason: 'Muito caro para mim agora',
    });
    // The token went only to this origin; the logo's host got no Referer (so never the token).
    expect(requested.filter((u) => u.includes('token=') && !u.startsWith(runtime.baseUrl))).toEqual([]);
    expect(referers.length).toBeGreaterThan(0);
    expect(referers.filter(Boolean)).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('with cancelAtPeriodEndOnly says "no fim do período" and offers no immediate cancel', async () => {
    const s = await subscribed({ cancelAtPeriodEndOnly: true });
    const { portalUrl: url } = await portalUrl(s);
    const { page, context, problems } = await phone();
    const id = s.subscription.id;
    await page.goto(url);
    await page.locator(`#subscription-${id}`).getByRole('button', { name: 'Cancelar' }).click();
    const dialog = page.locator(`#cancel-dialog-${id}`);
    const periodEnd = formatSaoPauloDay(s.subscription.currentPeriodEnd);
    expect(await dialog.locator(`#cancel-when-${id}`).textContent()).toContain(
      `A assinatura será cancelada no fim do período, em ${periodEnd}.`,
    );
    expect(await dialog.getByLabel('Agora').count()).toBe(0);
    expect(await dialog.locator('label[for^="cancel-reason"]').textContent()).toBe(
      'Motivo do cancelamento (opcional)',
    );
    await dialog.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await expect
      .poll(() => page.locator(`#status-${id}`).textContent(), SETTLED)
      .toBe('Cancelamento agendado');
    expect(await page.locator('#portal-message').textContent()).toBe(
      `Cancelamento agendado. Você continua com acesso até ${periodEnd}.`,
    );
    // A scheduled cancellation cannot be brought forward here; it can be undone.
    expect(await buttonsOf(page, id)).toEqual(['Reativar', 'Trocar cartão', 'Ver histórico de pagamentos']);
    expect((await subscriptionOf(s)).status).toBe('pending_cancellation');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('pauses and resumes, shows the payment history, and moves the subscription to a new card', async () => {
    const s = await subscribed({ customSuccessMessage: 'Tudo certo por aqui.' });
    const { portalUrl: url } = await portalUrl(s);
    const { page, context, problems, requested } = await phone();
    const logMark = logLines.length;
    const id = s.subscription.id;
    const card = page.locator(`#subscription-${id}`);
    await page.goto(url);

    await card.getByRole('button', { name: 'Pausar' }).click();
    await expect.poll(() => page.locator(`#status-${id}`).textContent(), SETTLED).toBe('Pausada');
    expect(await page.locator('#portal-message').textContent()).toBe('Tudo certo por aqui.');
    expect(await buttonsOf(page, id)).toEqual([
      'Retomar',
      'Trocar cartão',
      'Cancelar',
      'Ver histórico de pagamentos',
    ]);
    expect((await subscriptionOf(s)).pauseCollection).toMatchObject({ behavior: 'void' });
    await shot(page, 'paused');
    await card.getByRole('button', { name: 'Retomar' }).click();
    await expect.poll(() => page.locator(`#status-${id}`).textContent(), SETTLED).toBe('Ativa');
    expect((await subscriptionOf(s)).pauseCollection).toBeNull();

    await card.getByRole('button', { name: 'Ver histórico de pagamentos' }).click();
    const history = page.locator(`#history-${id} li`);
    await history.first().waitFor();
    const lines = await history.allInnerTexts();
    expect(lines.some((l) => l.includes('Pagamento aprovado') && l.includes(`R$${NBSP}49,90`))).toBe(true);
    expect(lines.some((l) => l.includes('Cobranças pausadas'))).toBe(true);
    expect(lines.some((l) => l.includes('Cobranças retomadas'))).toBe(true);
    await shot(page, 'history');

    await card.getByRole('button', { name: 'Trocar cartão' }).click();
    const dialog = page.locator(`#card-dialog-${id}`);
    // The only saved card is the current one: the new-card form is open at once.
    expect(await dialog.getByLabel('Um novo cartão').isChecked()).toBe(true);
    await dialog.getByLabel('Número do cartão').pressSequentially(NEW_CARD);
    expect(await dialog.getByLabel('Número do cartão').inputValue()).toBe('5555 5555 5555 4444');
    await dialog.getByLabel('Nome no cartão').fill('MARIA SOUZA');
    await dialog.getByLabel('Validade').pressSequentially('1233');
    await dialog.getByLabel('CVV').fill('321');
    await shot(page, 'new-card');
    await dialog.getByRole('button', { name: 'Salvar cartão' }).click();
    await expect
      .poll(() => card.locator('.sub-details').innerText(), SETTLED)
      .toContain('Mastercard ····4444');
    expect(await page.locator('#portal-message').textContent()).toBe('Tudo certo por aqui.');
    expect((await subscriptionOf(s)).paymentMethod).toMatchObject({ cardLast4: '4444' });

    // Back to the first card, now one of the saved cards the dialog offers.
    await card.getByRole('button', { name: 'Trocar cartão' }).click();
    expect(await dialog.getByLabel(/Visa ····1111/).isChecked()).toBe(true);
    expect(await dialog.locator(`#new-card-${id}`).isHidden()).toBe(true);
    await dialog.getByRole('button', { name: 'Salvar cartão' }).click();
    await expect.poll(() => card.locator('.sub-details').innerText(), SETTLED).toContain('Visa ····1111');
    expect((await subscriptionOf(s)).paymentMethod).toMatchObject({ id: s.card.id, cardLast4: '1111' });

    // The number travelled only in a POST body: no URL and no log line carries it.
    expect(requested.filter((u) => u.includes(NEW_CARD))).toEqual([]);
    expect(logLines.slice(logMark).join('\n')).not.toContain(NEW_CARD);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('saves the billing data', async () => {
    const s = await subscribed();
    const { portalUrl: url } = await portalUrl(s);
    const { page, context, problems } = await phone();
    await page.goto(url);
    expect(await page.locator('#info-phone').inputValue()).toBe('(11) 98765-4321');
    await page.locator('#info-email').fill('nao-e-email');
    await page.getByRole('button', { name: 'Salvar dados' }).click();
    expect(await page.locator('#info-email-error').textContent()).toBe('Informe um e-mail válido.');
    await page.locator('#info-email').fill('maria.souza@example.com');
    await page.locator('#info-phone').fill('');
    await page.locator('#info-phone').pressSequentially('21912345678');
    await page.getByRole('button', { name: 'Salvar dados' }).click();
    await expect
      .poll(() => page.locator('#portal-message').textContent(), SETTLED)
      .toBe('Seus dados foram atualizados.');
    expect(await page.locator('#info-email').inputValue()).toBe('maria.souza@example.com');
    const customers = (await api.get('/api/v1/customers', { token: s.key })).body.data;
    expect(customers.find((c: { uuid: string }) => c.uuid === s.customer.uuid)).toMatchObject({
      email: 'maria.souza@example.com',
      phone: '21912345678',
    });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows no action the configuration turns off: no buttons, no history, no billing form', async () => {
    const s = await subscribed({
      allowCancelSubscription: false,
      allowUpdatePaymentMethod: false,
      allowViewInvoices: false,
      allowUpdateBillingInfo: false,
    });
    const { portalUrl: url } = await portalUrl(s);
    const { page, context, problems } = await phone();
    const id = s.subscription.id;
    await page.goto(url);
    expect(await page.locator(`#status-${id}`).textContent()).toBe('Ativa');
    expect(await buttonsOf(page, id)).toEqual([]);
    expect(await page.locator('dialog').count()).toBe(0);
    expect(await page.locator('#billing-form, input, textarea').count()).toBe(0);
    expect(await page.locator('#customer-name').textContent()).toBe('Maria Souza');
    await shot(page, 'flags-off');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the expired page once the hour is over, and an open page that acts then lands on it', async () => {
    const s = await subscribed();
    const { portalUrl: url } = await portalUrl(s);
    const { page, context, problems } = await phone();
    await page.goto(url);
    expect(await page.locator('#business-name').textContent()).toBe('Escola de Música Lá');
    expect((await api.post('/api/test-helpers/clock/advance', { seconds: 3601 })).status).toBe(200);

    // The page left open: its next action meets the 401 and the page reloads into the notice.
    await page.locator(`#subscription-${s.subscription.id}`).getByRole('button', { name: 'Pausar' }).click();
    await page.locator('#notice').waitFor();
    expect(await page.locator('#notice h1').textContent()).toBe('Link expirado');
    expect(await page.content()).not.toContain('Maria');
    expect((await subscriptionOf(s)).pauseCollection).toBeNull();

    const fresh = await phone();
    const response = await fresh.page.goto(url);
    expect(response?.status()).toBe(401);
    expect(await fresh.page.locator('#notice h1').textContent()).toBe('Link expirado');
    expect(await fresh.page.locator('#notice').innerText()).toContain('peça um novo link');
    expect(await fresh.page.content()).not.toMatch(/Maria|Clube do Violão|Escola de Música/);
    await noHorizontalScroll(fresh.page);
    await shot(fresh.page, 'expired');
    expect(problems).toEqual([]);
    expect(fresh.problems).toEqual([]);
    await fresh.context.close();
    await context.close();
  });

  it('renders a malicious business name and welcome text as text and runs nothing', async () => {
    const name = '<script>alert(1)</script>';
    const s = await subscribed({
      businessName: name,
      customWelcomeText: '<img src=x onerror=alert(2)>',
      customSuccessMessage: '<b onmouseover=alert(3)>ok</b>',
    });
    const { portalUrl: url } = await portalUrl(s);
    const { page, context, problems, dialogs } = await phone();
    await page.goto(url);
    expect(await page.locator('#business-name').textContent()).toBe(name);
    expect(await page.title()).toBe(`${name} · Minhas assinaturas`);
    expect(await page.locator('#welcome-text').textContent()).toBe('<img src=x onerror=alert(2)>');
    expect(await page.locator('img').evaluateAll((imgs) => imgs.map((i) => i.className))).toEqual([
      'portal-logo',
    ]);
    await page.locator(`#subscription-${s.subscription.id}`).getByRole('button', { name: 'Pausar' }).click();
    await expect
      .poll(() => page.locator('#portal-message').textContent(), SETTLED)
      .toBe('<b onmouseover=alert(3)>ok</b>');
    expect(await page.locator('#portal-message b').count()).toBe(0);
    await shot(page, 'xss');
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
