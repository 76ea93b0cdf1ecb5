import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAGE_CSP } from '#functions/pages/respond';
import type { Runtime } from '#infra/local/runtime';
import { parsePixPayload } from '#shared/domain/payments/pix';
import {
  launchChromium,
  noHorizontalScroll,
  PHONE,
  screenshots,
  type Watched,
  watchPage,
} from '../support/browser';
import { sellerFixtures } from '../support/fixtures';
import { Receiver } from '../support/receiver';
import { client, logLines, nextRateWindow, startTestRuntime } from '../support/runtime';

const NBSP = '\u00a0';
const APPROVED = '4111111111111111';
const DECLINED = '4000000000000002';
// 1×1 transparent PNG: the sellers' image host, answered inside the browser so the test stays offline.
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let runtime: Runtime;
let api: ReturnType<typeof client>;
let browser: Browser;
let shop: Receiver;
const fixtures = sellerFixtures(() => ({ runtime, api }), 91_000);

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

const seller = (product: Record<string, unknown> = {}) =>
  fixtures.seller({
    product: {
      name: 'Curso de Violão',
      description: 'Aulas gravadas e ao vivo',
      image: 'https://cdn.example.com/violao.png',
      value: 49.9,
      installments: 3,
      ...product,
    },
  });

async function session(s: Awaited<ReturnType<typeof seller>>, extra: Record<string, unknown> = {}) {
  const res = await api.post(
    '/api/checkout/sessions',
    {
      product_id: s.product.id,
      success_url: `${shopOrigin()}/obrigado?session={SESSION_ID}`,
      cancel_url: `${shopOrigin()}/carrinho`,
      customer: {
        'customer.name': 'Maria Souza',
        'customer.email': 'maria@example.com',
        'customer.document': '52998224725',
        'customer.phone': '11987654321',
      },
      ...extra,
    },
    { token: s.key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.url).toBe(`${runtime.baseUrl}/checkout/${res.body.id}`);
  return res.body as { id: string; url: string };
}

/** A phone-sized page that records console errors, CSP violations, dialogs and every URL it asks for. */
async function phone(): Promise<Watched> {
  const context = await browser.newContext({ viewport: PHONE, locale: 'pt-BR' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: runtime.baseUrl });
  await context.route('https://cdn.example.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }),
  );
  // A 400 or 409 from the pay route is an answer the page shows; Chromium logs it as a failed load.
  return watchPage(context, { shownStatuses: [400, 409] });
}

const shot = screenshots('');

async function fillCard(page: Page, number: string) {
  await page.getByRole('tab', { name: 'Cartão' }).click();
  await page.locator('#card-number').pressSequentially(number);
  await page.locator('#card-holder').fill('MARIA SOUZA');
  await page.locator('#card-expiry').pressSequentially('1234');
  await page.locator('#card-cvv').fill('123');
}

async function sessionStatus(s: Awaited<ReturnType<typeof seller>>, id: string) {
  return (await api.get(`/api/checkout/sessions/${id}`, { token: s.key })).body.data;
}

describe('hosted pages over HTTP', () => {
  it('answers the page as HTML with a strict CSP and no caching', async () => {
    const s = await seller();
    const res = await api.get(`/pay/${s.product.uuid}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(PAGE_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; " +
        "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(String(res.body)).not.toMatch(/<script>|<style|\sstyle=/);
  });

  it.each([
    ['/pay/3f0c8a52-6a8e-4c51-9a57-0d3c1b2e4f60', 'an unknown product'],
    ['/pay/not-a-uuid', 'a malformed product ref'],
    ['/checkout/cs_doesnotexist', 'an unknown session'],
    ['/checkout/%3Cscript%3E', 'a malformed session ref'],
  ])('answers %s (%s) with the 404 page in Portuguese', async (path) => {
    const res = await api.get(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(String(res.body)).toContain('Link de pagamento não encontrado');
    expect(String(res.body)).not.toContain('<script');
  });

  it('answers the 404 page for a session of another kind of path', async () => {
    const s = await seller();
    const cs = await session(s);
    expect((await api.get(`/pay/${cs.id}`)).status).toBe(404);
    expect((await api.get(`/checkout/${s.product.uuid}`)).status).toBe(404);
  });

  it.each([
    ['checkout.js', 'text/javascript; charset=utf-8', 'export function maskDocument'],
    ['checkout.css', 'text/css; charset=utf-8', '.checkout'],
  ])('serves %s as %s with nosniff', async (file, type, text) => {
    const res = await api.get(`/pages/assets/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(String(res.body)).toContain(text);
  });

  it('answers 404 for a file the page does not use', async () => {
    const res = await api.get('/pages/assets/package.json');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, message: 'Arquivo não encontrado.' });
  });

  it('gives products a payment link to their hosted page', async () => {
    const s = await seller();
    expect(s.product.paymentLink).toBe(`${runtime.baseUrl}/pay/${s.product.uuid}`);
  });
});

describe('hosted pages in Chromium (390 px wide)', () => {
  it('pays a session by card and lands on the success URL with the session id', async () => {
    const s = await seller();
    const cs = await session(s);
    const { page, context, problems, requested } = await phone();
    const logMark = logLines.length;
    await page.goto(cs.url);

    await expect.poll(() => page.locator('#product-name').textContent()).toBe('Curso de Violão');
    expect(await page.locator('#price').textContent()).toBe(`R$${NBSP}49,90`);
    expect(await page.locator('.product-image').getAttribute('src')).toBe(
      'https://cdn.example.com/violao.png',
    );
    // Prefilled from the session, with the masks applied.
    expect(await page.locator('#buyer-name').inputValue()).toBe('Maria Souza');
    expect(await page.locator('#buyer-email').inputValue()).toBe('maria@example.com');
    expect(await page.locator('#buyer-document').inputValue()).toBe('529.982.247-25');
    expect(await page.locator('#buyer-phone').inputValue()).toBe('(11) 98765-4321');
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Pix', 'Cartão', 'Boleto']);
    expect(await page.locator('#cancel-link').getAttribute('href')).toBe(`${shopOrigin()}/carrinho`);

    await fillCard(page, APPROVED);
    expect(await page.locator('#card-number').inputValue()).toBe('4111 1111 1111 1111');
    expect(await page.locator('#card-expiry').inputValue()).toBe('12/34');
    expect(await page.locator('#card-installments option').allTextContents()).toEqual([
      `1x de R$${NBSP}49,90 (à vista)`,
      `2x de R$${NBSP}24,95 (total R$${NBSP}49,90)`,
      `3x de R$${NBSP}16,64 (total R$${NBSP}49,90)`,
    ]);
    await page.locator('#card-installments').selectOption('3');
    await page.getByLabel('Salvar cartão para próximas compras').check();
    await noHorizontalScroll(page);
    await shot(page, 'card-form');
    await page.locator('#pay-button').click();

    await page.locator('#result-success').waitFor();
    expect(await page.locator('#success-detail').textContent()).toContain('cartão final 1111 em 3x');
    await shot(page, 'card-paid');
    await page.waitForURL(`${shopOrigin()}/obrigado?session=${cs.id}`);
    expect(shop.received.length).toBeGreaterThan(0);

    const after = await sessionStatus(s, cs.id);
    expect(after.status).toBe('complete');
    expect(after.transaction_id).toEqual(expect.any(Number));
    // "Salvar cartão" kept the card (brand, last 4, expiry; never the number) for the buyer.
    const sale = (await api.get('/api/transactions', { token: s.key })).body.data[0];
    expect(sale).toMatchObject({ id: after.transaction_id, installments: 3, card: { last4: '1111' } });
    const buyer = (await api.get('/api/v1/customers', { token: s.key })).body.data[0];
    expect(buyer).toMatchObject({ id: sale.customer.id, email: 'maria@example.com' });
    const saved = await api.get(`/api/v1/customers/${buyer.uuid}/payment-methods`, { token: s.key });
    expect(saved.body.data).toEqual([expect.objectContaining({ last4: '1111', status: 'active' })]);
    expect(JSON.stringify(saved.body)).not.toContain(APPROVED);
    expect(problems).toEqual([]);
    // The card number travelled only in the POST body: no URL and no log line carries it.
    expect(requested.filter((url) => url.includes(APPROVED))).toEqual([]);
    expect(logLines.slice(logMark).join('\n')).not.toContain(APPROVED);
    await context.close();
  });

  it('shows a pix QR code, waits, and succeeds when the test helper pays it', async () => {
    const s = await seller();
    const cs = await session(s);
    const { page, context, problems } = await phone();
    await page.goto(cs.url);
    await page.locator('#pay-button').click();

    await page.locator('#result-pix').waitFor();
    const qrCode = await page.locator('#pix-code').inputValue();
    expect(parsePixPayload(qrCode)).toMatchObject({ gui: 'br.gov.bcb.pix', amount: '49.90' });
    expect(await page.locator('#pix-qr').getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await page.evaluate("document.getElementById('pix-qr').naturalWidth")).toBe(240);
    expect(await page.locator('#pix-waiting').textContent()).toContain('Aguardando pagamento…');
    await page.locator('#pix-copy').click();
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(qrCode);
    expect(await page.locator('#pix-copy').textContent()).toBe('Copiado!');
    await noHorizontalScroll(page);
    await shot(page, 'pix-waiting');

    const paid = await api.post(
      `/api/test-helpers/checkout/sessions/${cs.id}/pay`,
      { paymentMethod: 'pix' },
      { token: s.key },
    );
    expect(paid.status, JSON.stringify(paid.body)).toBeLessThan(300);
    await page.locator('#result-success').waitFor({ timeout: 20_000 });
    await shot(page, 'pix-paid');
    await page.waitForURL(`${shopOrigin()}/obrigado?session=${cs.id}`);
    expect((await sessionStatus(s, cs.id)).status).toBe('complete');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a declined card as "recusado" and lets the buyer pay with another', async () => {
    const s = await seller();
    const cs = await session(s);
    const { page, context, problems, requested } = await phone();
    await page.goto(cs.url);
    await fillCard(page, DECLINED);
    await page.locator('#pay-button').click();

    await page.locator('#form-error').waitFor();
    expect(await page.locator('#form-error').textContent()).toBe(
      'Cartão recusado. Tente outro cartão ou outra forma de pagamento.',
    );
    // The number and CVV are cleared for the next try; the buyer's data stays.
    expect(await page.locator('#card-number').inputValue()).toBe('');
    expect(await page.locator('#card-cvv').inputValue()).toBe('');
    expect(await page.locator('#buyer-name').inputValue()).toBe('Maria Souza');
    expect((await sessionStatus(s, cs.id)).status).toBe('open');
    await shot(page, 'card-declined');

    await page.locator('#card-number').pressSequentially('4242424242424242');
    await page.locator('#card-cvv').fill('321');
    await page.locator('#pay-button').click();
    await page.locator('#result-success').waitFor();
    await page.waitForURL(`${shopOrigin()}/obrigado?session=${cs.id}`);
    expect((await sessionStatus(s, cs.id)).status).toBe('complete');
    expect(problems).toEqual([]);
    expect(requested.filter((url) => url.includes(DECLINED) || url.includes('4242424242424242'))).toEqual([]);
    await context.close();
  });

  it('shows the API validation errors next to the fields, in Portuguese', async () => {
    const s = await seller();
    const cs = await session(s);
    const { page, context, problems } = await phone();
    await page.goto(cs.url);
    await page.locator('#buyer-document').fill('');
    // All the same digit: the right length for a CPF, but not a valid one (only the API knows).
    await page.locator('#buyer-document').pressSequentially('11111111111');
    expect(await page.locator('#buyer-document').inputValue()).toBe('111.111.111-11');
    await page.locator('#pay-button').click();
    await page.locator('#buyer-document-error').waitFor();
    expect(await page.locator('#buyer-document-error').textContent()).toBe('Informe um CPF ou CNPJ válido.');
    expect(await page.locator('#buyer-document').getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'validation');
    expect((await sessionStatus(s, cs.id)).status).toBe('open');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows an expired session without a form', async () => {
    const s = await seller();
    const cs = await session(s);
    expect(
      (await api.post(`/api/checkout/sessions/${cs.id}/expire`, undefined, { token: s.key })).status,
    ).toBe(200);
    const { page, context, problems } = await phone();
    await page.goto(cs.url);
    expect(await page.locator('#notice h2').textContent()).toBe('Este link de pagamento expirou');
    expect(await page.locator('form, input, select, textarea').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Voltar para a loja' }).getAttribute('href')).toBe(
      `${shopOrigin()}/carrinho`,
    );
    await noHorizontalScroll(page);
    await shot(page, 'expired');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a completed session as paid, without a form', async () => {
    const s = await seller();
    const cs = await session(s);
    await api.post(
      `/api/test-helpers/checkout/sessions/${cs.id}/pay`,
      {
        paymentMethod: 'card',
        card: { number: APPROVED, holderName: 'M S', expiryMonth: 12, expiryYear: 2034, cvv: '123' },
      },
      { token: s.key },
    );
    const { page, context } = await phone();
    await page.goto(cs.url);
    expect(await page.locator('#notice h2').textContent()).toBe('Pagamento confirmado');
    expect(await page.locator('form, input').count()).toBe(0);
    await shot(page, 'complete');
    await context.close();
  });

  it.each([
    ['deactivated', 'Este produto não está mais disponível para compra.'],
    ['priced 0', 'Este produto não está à venda por este link.'],
  ])('shows a %s product without a form', async (kind, message) => {
    const s = await seller(kind === 'priced 0' ? { value: 0 } : {});
    if (kind === 'deactivated') await api.del(`/api/products/${s.product.id}`, { token: s.key });
    const { page, context } = await phone();
    await page.goto(s.product.paymentLink);
    expect(await page.locator('#notice p').first().textContent()).toBe(message);
    expect(await page.locator('form, input').count()).toBe(0);
    await shot(page, `unavailable-${kind.replace(' ', '-')}`);
    await context.close();
  });

  it('renders a product named <script>alert(1)</script> as text and runs nothing', async () => {
    const name = '<script>alert(1)</script>';
    const s = await seller({ name, description: '<img src=x onerror=alert(2)>' });
    const { page, context, problems, dialogs } = await phone();
    await page.goto(s.product.paymentLink);
    expect(await page.locator('#product-name').textContent()).toBe(name);
    expect(await page.locator('.product-description').textContent()).toBe('<img src=x onerror=alert(2)>');
    expect(await page.title()).toBe(`${name} · Pagamento`);
    // No element was made from the seller's text: only the product image and the (hidden) QR images
    // of the pix and of the boleto's pix exist.
    expect(await page.locator('img').evaluateAll((imgs) => imgs.map((i) => i.className))).toEqual([
      'product-image',
      'qr',
      'qr',
    ]);
    expect(await page.locator('.product-text script, .product-text img').count()).toBe(0);
    await shot(page, 'xss');
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('pays a product payment link by pix, typing the buyer data through the masks', async () => {
    const s = await seller({ name: `Curso${'Completíssimo'.repeat(6)}` });
    const { page, context, problems } = await phone();
    await page.goto(s.product.paymentLink);
    expect(await page.locator('#buyer-name').inputValue()).toBe('');
    expect(await page.locator('#cancel-link').count()).toBe(0);
    await page.locator('#buyer-name').fill('João Pereira');
    await page.locator('#buyer-email').fill('joao@example.com');
    await page.locator('#buyer-document').pressSequentially('11222333000181');
    expect(await page.locator('#buyer-document').inputValue()).toBe('11.222.333/0001-81');
    await page.locator('#buyer-phone').pressSequentially('11912345678');
    expect(await page.locator('#buyer-phone').inputValue()).toBe('(11) 91234-5678');
    // A long unbroken product name must wrap, not widen the page.
    await noHorizontalScroll(page);
    await shot(page, 'product-link');
    await page.locator('#pay-button').click();
    await page.locator('#result-pix').waitFor();

    const list = await api.get('/api/transactions', { token: s.key });
    const pix = list.body.data[0];
    expect(pix).toMatchObject({ paymentMethod: 'pix', status: 'pendingPix', value: 49.9 });
    expect(pix.customer).toMatchObject({ name: 'João Pereira', document: '11222333000181' });
    expect(
      (await api.post(`/api/test-helpers/transactions/${pix.id}/pay`, undefined, { token: s.key })).status,
    ).toBe(200);
    await page.locator('#result-success').waitFor({ timeout: 20_000 });
    // The order number is the sale's id; the receipt goes to the e-mail the buyer typed.
    expect(await page.locator('#success-detail').textContent()).toBe(
      `Recebemos seu pagamento de R$${NBSP}49,90 por Pix. Pedido nº ${pix.id}. Enviamos o recibo para o seu e-mail.`,
    );
    // A product link has no success URL: the page stays on its confirmation.
    expect(page.url()).toBe(s.product.paymentLink);
    await shot(page, 'product-link-paid');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a boleto with its line and PDF link', async () => {
    const s = await seller();
    const cs = await session(s);
    const { page, context, problems } = await phone();
    await page.goto(cs.url);
    await page.getByRole('tab', { name: 'Boleto' }).click();
    await page.locator('#pay-button').click();
    await page.locator('#result-boleto').waitFor();
    expect(await page.locator('#boleto-line').inputValue()).toMatch(/^[\d. ]{47,60}$/);
    const pdf = await page.locator('#boleto-pdf').getAttribute('href');
    expect((await fetch(String(pdf))).headers.get('content-type')).toBe('application/pdf');
    await noHorizontalScroll(page);
    await shot(page, 'boleto');
    expect(problems).toEqual([]);
    await context.close();
  });
});
