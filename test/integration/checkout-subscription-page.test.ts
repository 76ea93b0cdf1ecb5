import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAGE_CSP } from '#functions/pages/respond';
import type { Runtime } from '#infra/local/runtime';
import { launchChromium, PHONE, type Watched, watchPage } from '../support/browser';
import { sellerFixtures } from '../support/fixtures';
import { Receiver } from '../support/receiver';
import { client, logLines, nextRateWindow, startTestRuntime } from '../support/runtime';

const NBSP = '\u00a0';
const APPROVED = '4111111111111111';
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let runtime: Runtime;
let api: ReturnType<typeof client>;
let browser: Browser;
let shop: Receiver;
const fixtures = sellerFixtures(() => ({ runtime, api }), 93_000);

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = client(runtime.baseUrl);
  shop = await new Receiver().start();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await shop?.stop();
  await runtime?.stop();
});
// Public routes count per client IP, and every page and poll here comes from 127.0.0.1.
beforeEach(async () => {
  await nextRateWindow(runtime, api);
});

const shopOrigin = () => new URL(shop.url).origin;

interface Seller {
  key: string;
  product: { id: number };
}

async function created(key: string, path: string, body: unknown) {
  const res = await api.post(path, body, { token: key });
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

/** A seller, a product and one subscription price of it. */
async function priced(product: Record<string, unknown>, price: Record<string, unknown>) {
  const { key, product: made } = await fixtures.seller({
    product: {
      name: 'Clube do Violão',
      image: 'https://cdn.example.com/violao.png',
      value: 49.9,
      ...product,
    },
  });
  const s: Seller = { key, product: made };
  const p = await created(key, `/api/products/${s.product.id}/prices`, {
    name: 'Plano Mensal',
    unitAmount: 49.9,
    billingInterval: 'month',
    ...price,
  });
  const cs = await created(key, '/api/checkout/sessions', {
    product_id: s.product.id,
    price_id: String(p.id),
    success_url: `${shopOrigin()}/obrigado?session={SESSION_ID}`,
    customer: {
      'customer.name': 'Maria Souza',
      'customer.email': 'maria@example.com',
      'customer.document': '52998224725',
      'customer.phone': '11987654321',
    },
  });
  return { s, cs: cs as { id: string; url: string } };
}

/** A phone-sized page that records console errors, CSP violations and every URL it asks for. */
async function phone(): Promise<Watched> {
  const context = await browser.newContext({ viewport: PHONE, locale: 'pt-BR' });
  await context.route('https://cdn.example.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }),
  );
  return watchPage(context);
}

async function fillCard(page: Page) {
  await page.getByRole('tab', { name: 'Cartão' }).click();
  await page.locator('#card-number').pressSequentially(APPROVED);
  await page.locator('#card-holder').fill('MARIA SOUZA');
  await page.locator('#card-expiry').pressSequentially('1234');
  await page.locator('#card-cvv').fill('123');
}

const sessionOf = async (s: Seller, id: string) =>
  (await api.get(`/api/checkout/sessions/${id}`, { token: s.key })).body.data;

describe('the hosted page of a session with a subscription price (Chromium, 390 px)', () => {
  it('shows the monthly price, offers pix and card only, and subscribes by card', async () => {
    const { s, cs } = await priced({}, {});
    const res = await api.get(`/checkout/${cs.id}`);
    expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(String(res.body)).not.toMatch(/<script>|<style|\sstyle=/);

    const { page, context, problems, requested } = await phone();
    const logMark = logLines.length;
    await page.goto(cs.url);
    await expect.poll(() => page.locator('#price').textContent()).toBe(`R$${NBSP}49,90 por mês`);
    expect(await page.locator('#price-plan').textContent()).toBe('Assinatura · Plano Mensal');
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Pix', 'Cartão']);
    expect(await page.locator('#panel-pix').textContent()).toContain('Pix Automático');
    expect(await page.locator('#pay-button').textContent()).toBe(`Assinar e pagar R$${NBSP}49,90`);

    await fillCard(page);
    // One installment, and the card is always kept: no select, no checkbox, a plain note instead.
    expect(await page.locator('#card-installments').count()).toBe(0);
    expect(await page.locator('#card-save').count()).toBe(0);
    expect(await page.locator('#card-save-note').textContent()).toBe(
      `Seu cartão ficará salvo com segurança para as renovações da assinatura (R$${NBSP}49,90 por mês).`,
    );
    await page.locator('#pay-button').click();

    await page.locator('#result-success').waitFor();
    expect(await page.locator('#success-title').textContent()).toBe('Assinatura confirmada!');
    expect(await page.locator('#success-detail').textContent()).toBe(
      `Recebemos seu pagamento de R$${NBSP}49,90 no cartão final 1111. ` +
        'Pedido nº 1. Enviamos o recibo para o seu e-mail. ' +
        `Sua assinatura está ativa (R$${NBSP}49,90 por mês); renovada automaticamente no mesmo cartão.`,
    );
    await page.waitForURL(`${shopOrigin()}/obrigado?session=${cs.id}`);
    const done = await sessionOf(s, cs.id);
    expect(done).toMatchObject({ status: 'complete', subscription_id: expect.any(Number) });
    const sub = (await api.get(`/api/subscriptions/${done.subscription_id}`, { token: s.key })).body;
    expect(sub).toMatchObject({ status: 'active', paymentMethod: { cardLast4: '1111' } });
    expect(problems).toEqual([]);
    expect(requested.filter((url) => url.includes(APPROVED))).toEqual([]);
    expect(logLines.slice(logMark).join('\n')).not.toContain(APPROVED);

    // Opened again, the completed session says the subscription started.
    await page.goto(cs.url);
    expect(await page.locator('#notice h2').textContent()).toBe('Assinatura confirmada');
    await context.close();
  });

  it('shows a trial every 3 months, card only, and starts it without a charge', async () => {
    const { s, cs } = await priced(
      { value: 0 },
      { name: 'Trimestral', unitAmount: 129.9, intervalCount: 3, trialDays: 7 },
    );
    const { page, context, problems } = await phone();
    await page.goto(cs.url);
    await expect
      .poll(() => page.locator('#price').textContent())
      .toBe(`7 dias grátis, depois R$${NBSP}129,90 a cada 3 meses`);
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Cartão']);
    expect(await page.locator('#pay-button').textContent()).toBe('Começar o teste grátis');
    expect(await page.locator('#card-save-note').textContent()).toContain('Nada será cobrado agora.');

    await fillCard(page);
    await page.locator('#pay-button').click();
    await page.locator('#result-success').waitFor();
    expect(await page.locator('#success-title').textContent()).toBe('Teste grátis iniciado!');
    const done = await sessionOf(s, cs.id);
    const sub = (await api.get(`/api/subscriptions/${done.subscription_id}`, { token: s.key })).body;
    const firstCharge = new Date(sub.trialEndsAt).toLocaleDateString('pt-BR', {
      timeZone: 'America/Sao_Paulo',
    });
    expect(await page.locator('#success-detail').textContent()).toBe(
      'Nada foi cobrado agora. Seu cartão final 1111 está salvo: ' +
        `a assinatura (R$${NBSP}129,90 a cada 3 meses) começa a ser cobrada em ${firstCharge}.`,
    );
    await page.waitForURL(`${shopOrigin()}/obrigado?session=${cs.id}`);
    expect(done).toMatchObject({ status: 'complete', transaction_id: null });
    expect(problems).toEqual([]);
    await context.close();
  });
});
