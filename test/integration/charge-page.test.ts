import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { PAGE_CSP } from '#shared/http/page-replies';
import {
  launchChromium,
  noHorizontalScroll,
  PHONE,
  screenshots,
  type Watched,
  watchPage,
} from '../support/browser';
import { sellerFixtures } from '../support/fixtures';
import { type client, logLines, useTestRuntime } from '../support/runtime';

const NBSP = '\u00a0';
const SETTLED = { timeout: 15_000 };
const HOSTILE = '<img src=x onerror="alert(1)">Aula & <b>violão</b>';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let browser: Browser;
const fixtures = sellerFixtures(() => ({ runtime, api }), 139_000);

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

const today = () => saoPauloDate(runtime.clock.now());
const ddmmyyyy = (date: string) => date.split('-').reverse().join('/');

/** A seller's scheduled charge (over HTTP, as a seller makes it), answered with cycle 1's pay link path. */
async function scheduled(body: Record<string, unknown>) {
  const { key, customer } = await fixtures.seller({ customer: {} });
  const created = await api.post(
    '/api/v1/scheduled-charges',
    { customerId: customer.id, amount: 1234.5, dueDate: addDays(today(), 2), type: 'one_time', ...body },
    { token: key },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const detail = (await api.get(`/api/v1/scheduled-charges/${created.body.id}`, { token: key })).body;
  const path = new URL(detail.cycles[0].payUrl).pathname;
  return { key, id: created.body.id as string, path };
}

/** A phone-sized page that records console errors, CSP violations and dialogs. */
async function phone(): Promise<Watched> {
  const context = await browser.newContext({ viewport: PHONE, locale: 'pt-BR' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: runtime.baseUrl });
  return watchPage(context, { shownStatuses: [400, 409] });
}

const shot = screenshots('charge-');

describe('the pay link page over HTTP', () => {
  it('answers HTML with the pages’ strict CSP and no caching, and a Portuguese 404 page for an unknown token', async () => {
    const { path } = await scheduled({ methods: ['pix'] });
    const res = await api.get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(String(res.body)).not.toMatch(/<script>|<style|\sstyle=/);

    for (const unknown of ['/cobranca/cob_00000000000000000000000000000000', '/cobranca/nada']) {
      const missing = await api.get(unknown);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(String(missing.body)).toContain('Cobrança não encontrada');
    }
    const script = await api.get('/cobranca/assets/charge.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });
});

describe('the pay link page in Chromium', () => {
  it('shows the amount, due date, status and the pix and boleto issued, on a phone, with the seller’s text escaped', async () => {
    const { path } = await scheduled({ methods: ['pix', 'boleto'], description: HOSTILE });
    const w = await phone();
    await w.page.goto(`${runtime.baseUrl}${path}`);
    expect(await w.page.locator('#charge-title').textContent()).toBe(HOSTILE);
    expect(await w.page.locator('#charge-title img, #charge-title b').count()).toBe(0);
    expect(await w.page.locator('#charge-amount').textContent()).toBe(`R$${NBSP}1.234,50`);
    expect(await w.page.locator('#charge-due').textContent()).toBe(
      `Vencimento: ${ddmmyyyy(addDays(today(), 2))}`,
    );
    expect(await w.page.locator('#charge-status').textContent()).toBe('Situação: Em aberto');
    // Issued when the buyer opened the link (5 days ahead of the due date).
    await expect
      .poll(() => w.page.locator('#pix-qr').getAttribute('src'))
      .toMatch(/^data:image\/(png|svg\+xml);base64,/);
    const code = await w.page.locator('#pix-code').inputValue();
    expect(code).toMatch(/^000201/);
    await w.page.locator('#pay-pix [data-copy]').click();
    await expect.poll(() => w.page.locator('#pay-pix [data-copy]').textContent()).toBe('Copiado!');
    expect(await w.page.locator('#boleto-line').inputValue()).toMatch(/^\d{5}\.\d{5} /);
    expect(await w.page.locator('#boleto-pdf').getAttribute('href')).toContain('/api/sandbox/boletos/');
    expect(await w.page.locator('#pay-card').count()).toBe(0);
    await noHorizontalScroll(w.page);
    await shot(w.page, 'pix-boleto');
    expect(w.problems).toEqual([]);
    expect(w.dialogs).toEqual([]);
  });

  it('pays a one-time charge by card and shows it paid on a reload', async () => {
    const { path, key, id } = await scheduled({ methods: ['card', 'pix'] });
    const w = await phone();
    await w.page.goto(`${runtime.baseUrl}${path}`);
    // A declined card first: "recusado" in Portuguese (no reason), the form still there.
    await w.page.locator('#card-number').pressSequentially('4000000000000002');
    await w.page.locator('#card-holder').fill('MARIA SOUZA');
    await w.page.locator('#card-expiry').pressSequentially('1234');
    await w.page.locator('#card-cvv').fill('123');
    await w.page.locator('#pay-button').click();
    await expect
      .poll(() => w.page.locator('#form-error').textContent(), SETTLED)
      .toBe('Cartão recusado. Tente outro cartão ou outra forma de pagamento.');
    await w.page.locator('#card-number').fill('');
    await w.page.locator('#card-number').pressSequentially('4111111111111111');
    await w.page.locator('#card-cvv').fill('123');
    await w.page.locator('#pay-button').click();
    await expect
      .poll(() => w.page.locator('#success-title').textContent(), SETTLED)
      .toBe('Pagamento confirmado!');
    await expect.poll(() => w.page.locator('#pay-card').isHidden()).toBe(true);
    expect(await w.page.locator('#charge-status').textContent()).toBe('Situação: Paga');
    await shot(w.page, 'card-paid');

    await w.page.reload();
    expect(await w.page.locator('#notice h2').textContent()).toBe('Cobrança paga');
    expect(await w.page.locator('#charge-status').textContent()).toBe('Situação: Paga');
    const charge = (await api.get(`/api/v1/scheduled-charges/${id}`, { token: key })).body;
    expect(charge.status).toBe('paid');
    const attempts = (await api.get(`/api/v1/scheduled-charges/${id}/attempts`, { token: key })).body;
    expect(attempts.data.map((a: { status: string }) => a.status)).toEqual(['succeeded', 'declined']);
    expect(w.problems).toEqual([]);
    expect(logLines.join('\n')).not.toContain('4111111111111111');
  });

  it('shows a cancelled charge without payment options', async () => {
    const { path, key, id } = await scheduled({ methods: ['pix', 'card'] });
    expect((await api.post(`/api/v1/scheduled-charges/${id}/cancel`, {}, { token: key })).status).toBe(200);
    const w = await phone();
    await w.page.goto(`${runtime.baseUrl}${path}`);
    expect(await w.page.locator('#notice h2').textContent()).toBe('Cobrança cancelada');
    expect(await w.page.locator('#pay-pix, #pay-card, #pay-boleto').count()).toBe(0);
    expect(w.problems).toEqual([]);
  });

  it('answers an unknown token with the Portuguese 404 page', async () => {
    const w = await phone();
    const res = await w.page.goto(`${runtime.baseUrl}/cobranca/cob_00000000000000000000000000000000`);
    expect(res?.status()).toBe(404);
    expect(await w.page.locator('h1').textContent()).toBe('Cobrança não encontrada');
    expect(await w.page.locator('html').getAttribute('lang')).toBe('pt-BR');
  });
});
