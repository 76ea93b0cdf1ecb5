import type { Browser, Page } from 'playwright-core';
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
import { customerAreaScene } from '../support/customer-area';
import { type client, useTestRuntime } from '../support/runtime';

const NBSP = '\u00a0';
const SETTLED = { timeout: 15_000 };
const HOSTILE = '<img src=x onerror="alert(1)">Aula & <b>violão</b>';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let browser: Browser;

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

const scene = customerAreaScene(() => ({ runtime, api }), 171_000);
const ddmmyyyy = (date: string) => date.split('-').reverse().join('/');

/** A phone-sized page that records console errors, CSP violations and dialogs. */
async function phone(): Promise<Watched> {
  const context = await browser.newContext({ viewport: PHONE, locale: 'pt-BR' });
  // A refused request (401 of an expired link, 400/402 of a declined card) is an answer the page shows.
  return watchPage(context, { shownStatuses: [400, 401, 402, 409] });
}

const shot = screenshots('minha-area-');

/** Two sellers that charge the same CPF; the second charge's description is hostile markup. */
async function twoSellers() {
  const a = await scene.seller();
  const b = await scene.seller();
  const cpf = scene.newCpf();
  const email = `paula.${cpf}@example.com`;
  const atA = await scene.customer(a.key, cpf, email);
  const atB = await scene.customer(b.key, cpf, email);
  const chargeA = await scene.charge(a.key, atA.id, 1234.5, 'Mensalidade março', {
    methods: ['card', 'pix'],
  });
  const chargeB = await scene.charge(b.key, atB.id, 80, HOSTILE, { inDays: 5 });
  return { a, b, cpf, email, atA, atB, chargeA, chargeB };
}

const sellerSection = (page: Page, sellerId: number) =>
  page.locator(`section.seller[data-seller-id="${sellerId}"]`);

describe('GET /minha-area over HTTP', () => {
  it('answers the same HTML to everyone, with the strict CSP and no caching', async () => {
    const res = await api.get('/minha-area');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(String(res.body)).toContain('<html lang="pt-BR">');
    expect(String(res.body)).not.toMatch(/<script>|<style|\sstyle=|\son[a-z]+=/);
    for (const asset of ['minha-area.js', 'minha-area.css']) {
      const file = await api.get(`/pages/assets/${asset}`);
      expect(file.status, asset).toBe(200);
      expect(file.headers.get('content-security-policy')).toBe(PAGE_CSP);
    }
  });
});

describe('the customer area in Chromium', () => {
  it('asks for a link by CPF, opens it from the mailbox, lists both sellers’ charges and pays one', async () => {
    const { a, b, cpf, email, chargeA } = await twoSellers();
    const w = await phone();
    await w.page.goto(`${runtime.baseUrl}/minha-area`);
    expect(await w.page.locator('h1').textContent()).toBe('Minha Área');
    await w.page.locator('#target').pressSequentially(cpf);
    expect(await w.page.locator('#target').inputValue()).toBe(
      `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`,
    );
    await w.page.locator('#request-button').click();
    await expect.poll(() => w.page.locator('#request-sent').isVisible(), SETTLED).toBe(true);
    expect(await w.page.locator('#request-sent-text').textContent()).toBe(
      `Enviamos um link de acesso para p***@example.com. Ele vale por 30 minutos.`,
    );
    await shot(w.page, 'link-sent');

    const link = scene.linkIn(email);
    expect(link).toMatch(new RegExp(`^${runtime.baseUrl}/minha-area#token=`));
    await w.page.goto(String(link));
    await expect.poll(() => w.page.locator('#area').isVisible(), SETTLED).toBe(true);
    // The token leaves the address bar (history, screenshots, a shared URL) as soon as it is read.
    expect(w.page.url()).toBe(`${runtime.baseUrl}/minha-area`);
    expect(await w.page.locator('#greeting').textContent()).toBe('Olá, Paula Reis');
    expect(await w.page.locator('#sandbox').isVisible()).toBe(true);
    expect(await w.page.locator('section.seller').count()).toBe(2);

    const first = sellerSection(w.page, a.sellerId);
    expect(await first.locator('.charge-description').textContent()).toBe('Mensalidade março');
    expect(await first.locator('.charge-amount').textContent()).toBe(`R$${NBSP}1.234,50`);
    const dueA = addDays(saoPauloDate(runtime.clock.now()), 10);
    expect(await first.locator('.charge-meta').textContent()).toBe(`Vence em ${ddmmyyyy(dueA)} · Em aberto`);
    // The seller's text is shown as text: no element, no script, no dialog.
    const second = sellerSection(w.page, b.sellerId);
    expect(await second.locator('.charge-description').textContent()).toBe(HOSTILE);
    expect(await second.locator('.charge-description img, .charge-description b').count()).toBe(0);
    expect(await second.locator('.charge-amount').textContent()).toBe(`R$${NBSP}80,00`);
    await noHorizontalScroll(w.page);
    await shot(w.page, 'charges');

    // Pay seller A's charge on its pay link page, by card.
    const pay = first.locator('a.pay');
    expect(await pay.getAttribute('href')).toMatch(new RegExp(`^${runtime.baseUrl}/cobranca/cob_`));
    await pay.click();
    await w.page.waitForURL(/\/cobranca\/cob_/);
    await w.page.locator('#card-number').pressSequentially('4111111111111111');
    await w.page.locator('#card-holder').fill('PAULA REIS');
    await w.page.locator('#card-expiry').pressSequentially('1234');
    await w.page.locator('#card-cvv').fill('123');
    await w.page.locator('#pay-button').click();
    await expect
      .poll(() => w.page.locator('#success-title').textContent(), SETTLED)
      .toBe('Pagamento confirmado!');

    // Back in the area (the tab kept its link): paid, no pay button; the seller sees it paid too.
    await w.page.goto(`${runtime.baseUrl}/minha-area`);
    await expect.poll(() => w.page.locator('#area').isVisible(), SETTLED).toBe(true);
    expect(await first.locator('.charge-meta').textContent()).toBe(`Vencimento: ${ddmmyyyy(dueA)} · Paga`);
    expect(await first.locator('a.pay').count()).toBe(0);
    expect(await second.locator('a.pay').count()).toBe(1);
    const paid = await api.get(`/api/v1/scheduled-charges/${chargeA.id}`, { token: a.key });
    expect(paid.body.status).toBe('paid');
    expect(w.problems).toEqual([]);
    expect(w.dialogs).toEqual([]);
  });

  it("sets and clears one seller's billing e-mail, and that seller's next reminder goes to it", async () => {
    const { a, b, cpf, email } = await twoSellers();
    const w = await phone();
    await w.page.goto(await linkUrl(cpf, email));
    await expect.poll(() => w.page.locator('#area').isVisible(), SETTLED).toBe(true);

    const form = sellerSection(w.page, b.sellerId).locator('form.billing-email');
    const input = form.locator('input[type="email"]');
    expect(await input.inputValue()).toBe('');
    await input.fill('nao-e-email');
    await form.getByRole('button', { name: 'Salvar e-mail de cobrança' }).click();
    expect(await form.locator('.billing-status').textContent()).toBe('Informe um e-mail válido.');
    await input.fill('Financeiro@Example.com');
    await form.getByRole('button', { name: 'Salvar e-mail de cobrança' }).click();
    await expect
      .poll(() => form.locator('.billing-status').textContent(), SETTLED)
      .toBe('Pronto: as cobranças deste vendedor irão para financeiro@example.com.');
    await shot(w.page, 'billing-email');
    const atSellerB = await api.get(`/api/v1/customers?search=${cpf}`, { token: b.key });
    expect(atSellerB.body.data[0].billingEmail).toBe('financeiro@example.com');
    const atSellerA = await api.get(`/api/v1/customers?search=${cpf}`, { token: a.key });
    expect(atSellerA.body.data[0].billingEmail).toBe(email);

    // Seller B's charge is due in 5 days: its first reminder (3 days before, 09:00) uses the override.
    const seen = new Set(runtime.mailbox.all().map((m) => m.id));
    await api.post('/api/test-helpers/clock/advance', { seconds: 3 * 86_400 });
    await expect
      .poll(
        () =>
          runtime.mailbox
            .all()
            // This customer's only (the other tests' charges share the clock).
            .filter((m) => !seen.has(m.id) && m.kind === 'scheduled_charge_reminder')
            .filter((m) => m.to === email || m.to === 'financeiro@example.com')
            .map((m) => m.to)
            .sort(),
        SETTLED,
      )
      .toEqual(['financeiro@example.com']);

    // Days later, with a new link: the override is shown, and cleared goes back to the registered e-mail.
    await w.page.goto(await linkUrl(cpf, email));
    await expect.poll(() => w.page.locator('#area').isVisible(), SETTLED).toBe(true);
    expect(await input.inputValue()).toBe('financeiro@example.com');
    await form.getByRole('button', { name: 'Usar o e-mail do cadastro' }).click();
    await expect
      .poll(() => form.locator('.billing-status').textContent(), SETTLED)
      .toBe('Pronto: as cobranças deste vendedor voltam para o e-mail do seu cadastro.');
    const cleared = await api.get(`/api/v1/customers?search=${cpf}`, { token: b.key });
    expect(cleared.body.data[0].billingEmail).toBe(email);
    expect(w.problems).toEqual([]);
  });

  it('says an expired link expired, with no data, and asks for a new one', async () => {
    const { cpf, email } = await twoSellers();
    const link = await linkUrl(cpf, email);
    await api.post('/api/test-helpers/clock/advance', { seconds: 31 * 60 });
    const w = await phone();
    await w.page.goto(link);
    await expect.poll(() => w.page.locator('#link-problem').isVisible(), SETTLED).toBe(true);
    expect(await w.page.locator('#link-problem').textContent()).toBe(
      'Este link expirou ou não é válido. Peça um novo abaixo.',
    );
    expect(await w.page.locator('#area').isVisible()).toBe(false);
    expect(await w.page.locator('#request-form').isVisible()).toBe(true);
    expect(await w.page.content()).not.toContain('Paula Reis');
    expect(w.page.url()).toBe(`${runtime.baseUrl}/minha-area`);
    expect(await w.page.evaluate('sessionStorage.length')).toBe(0);
    await shot(w.page, 'expired');
    expect(w.problems).toEqual([]);
  });

  it('answers an unknown e-mail in Portuguese without sending anything', async () => {
    const w = await phone();
    await w.page.goto(`${runtime.baseUrl}/minha-area`);
    const before = runtime.mailbox.all().length;
    await w.page.locator('#target').fill('ninguem.aqui@example.com');
    await w.page.locator('#request-button').click();
    await expect.poll(() => w.page.locator('#request-sent').isVisible(), SETTLED).toBe(true);
    expect(await w.page.locator('#request-sent-text').textContent()).toBe(
      'Não encontramos um cadastro com esses dados. Confira o e-mail ou o CPF/CNPJ informado.',
    );
    expect(runtime.mailbox.all().length).toBe(before);
    expect(w.problems).toEqual([]);
  });
});

/** Requests a link by document over HTTP and answers its URL. */
async function linkUrl(cpf: string, email: string): Promise<string> {
  await scene.linkFor(cpf, email);
  return String(scene.linkIn(email));
}
