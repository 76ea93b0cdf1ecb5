import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, formatCalendarDay, saoPauloDate } from '#shared/dates';
import { contrastRatio } from '#shared/domain/pages/portal-theme';
import { launchChromium, PHONE, screenshots, type Watched, watchPage } from '../support/browser';
import { customerAreaScene } from '../support/customer-area';
import { checkView } from '../support/dashboard';
import { sellerFixtures } from '../support/fixtures';
import { pdfText } from '../support/pdf-text';
import { type client, useTestRuntime } from '../support/runtime';

/**
 * The buyer's walk through every hosted page, e-mail and message of a seller with a business
 * profile (name, https logo, colour): each names the seller; axe-core finds no serious or critical
 * violation at 390 px and 1280 px; and the defects a new user found on these pages stay fixed.
 */

const SETTLED = { timeout: 15_000 };
const BUSINESS = 'Padaria Pão Dourado';
const COLOR = '#9a3412';
const LOGO = 'https://cdn.example.com/padaria-logo.png';
// 1×1 transparent PNG: the sellers' image host, answered inside the browser so the test stays offline.
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let runtime: Runtime;
let api: ReturnType<typeof client>;
let browser: Browser;
const fixtures = sellerFixtures(() => ({ runtime, api }), 187_000);
const area = customerAreaScene(() => ({ runtime, api }), 187_500);

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
const shot = screenshots('buyer-');

/** A seller registered under its business name, with its logo and colour set in "Perfil do negócio". */
async function brandedSeller(product: Record<string, unknown> = {}, customer: Record<string, unknown> = {}) {
  const s = await fixtures.seller({
    named: BUSINESS,
    customer,
    product: { name: 'Pão de fermentação natural', value: 24.9, installments: 3, ...product },
  });
  const profile = await api.call('PUT', '/api/seller/profile', {
    token: s.jwt,
    body: { name: BUSINESS, logoUrl: LOGO, brandColor: COLOR },
  });
  expect(profile.status, JSON.stringify(profile.body)).toBe(200);
  return s;
}

/** A browser page of `size` whose image host answers the logo and refuses any other image (a broken one). */
async function open(size = PHONE): Promise<Watched> {
  const context = await browser.newContext({ viewport: size, locale: 'pt-BR' });
  await context.route('https://cdn.example.com/**', (route) =>
    route.request().url() === LOGO
      ? route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL })
      : route.fulfill({ status: 404, body: '' }),
  );
  // A broken image is a failed load Chromium logs as an error: the page shows a placeholder for it.
  return watchPage(context, { shownStatuses: [404] });
}

/** The seller's bar: its business name and its logo. */
async function expectSellerBar(page: Page) {
  expect(await page.locator('#seller-name').textContent()).toBe(BUSINESS);
  expect(await page.locator('#seller-logo').getAttribute('src')).toBe(LOGO);
  // The colour: the seller's theme sheet is linked and paints the main button.
  expect(await page.locator('link[href="/pages/themes/9a3412"]').count()).toBe(1);
}

const rgb = (css: string) =>
  (css.match(/\d+/g) ?? [])
    .slice(0, 3)
    .map((v) => Number(v).toString(16).padStart(2, '0'))
    .join('');

const style = (page: Page, selector: string, property: string, pseudo: string | null = null) =>
  page.evaluate<string>(
    `getComputedStyle(document.querySelector(${JSON.stringify(selector)}), ${JSON.stringify(pseudo)}).${property}`,
  );

/** The newest mail to `to` of `kind` (the mailbox lists newest first). */
async function mailTo(to: string, kind: string) {
  await expect
    .poll(() => runtime.mailbox.all().some((m) => m.to === to && m.kind === kind), SETTLED)
    .toBe(true);
  return runtime.mailbox.all().find((m) => m.to === to && m.kind === kind)!;
}

async function fillBuyer(page: Page, email: string) {
  await page.locator('#buyer-name').fill('Maria Souza');
  await page.locator('#buyer-email').fill(email);
  await page.locator('#buyer-document').pressSequentially('52998224725');
  await page.locator('#buyer-phone').pressSequentially('11987654321');
}

async function fillCard(page: Page) {
  await page.locator('#card-number').pressSequentially('4111111111111111');
  await page.locator('#card-holder').fill('MARIA SOUZA');
  await page.locator('#card-expiry').pressSequentially('1234');
  await page.locator('#card-cvv').fill('123');
}

describe('the payment link page (/pay)', () => {
  it('names the seller with logo and colour, placeholds a broken image, says with whom a card is kept, and confirms with an order number and the e-mailed receipt', async () => {
    const s = await brandedSeller({ image: 'https://cdn.example.com/quebrada.png' });
    const w = await open();
    await w.page.goto(`${runtime.baseUrl}/pay/${s.product.uuid}`);
    await expectSellerBar(w.page);
    expect(await w.page.locator('footer').textContent()).toBe(
      `Pagamento a ${BUSINESS}, processado com segurança.`,
    );

    // The product image did not load: a neutral tile covers it, drawn by CSS (no script, no broken icon).
    await expect
      .poll(() =>
        w.page.locator('.product-image').evaluate((img) => (img as never as { complete: boolean }).complete),
      )
      .toBe(true);
    expect(
      await w.page
        .locator('.product-image')
        .evaluate((img) => (img as never as { naturalWidth: number }).naturalWidth),
    ).toBe(0);
    expect(await style(w.page, '.product-image', 'backgroundImage', '::before')).toContain(
      'data:image/svg+xml',
    );
    expect(await style(w.page, '.product-image', 'content', '::before')).toBe('""');

    // WCAG AA: the 12 px footer reaches 4.5:1 on the page, the focus ring 3:1 on white.
    const page = rgb(await style(w.page, 'body', 'backgroundColor'));
    expect(contrastRatio(rgb(await style(w.page, 'footer', 'color')), page)).toBeGreaterThanOrEqual(4.5);
    await w.page.locator('#buyer-name').focus();
    expect(
      contrastRatio(rgb(await style(w.page, '#buyer-name', 'outlineColor')), 'ffffff'),
    ).toBeGreaterThanOrEqual(3);

    // The boleto is only generated here, and the button says so; pix and card pay.
    expect(await w.page.locator('#pay-button').textContent()).toBe('Pagar R$\u00a024,90');
    await w.page.getByRole('tab', { name: 'Boleto' }).click();
    expect(await w.page.locator('#pay-button').textContent()).toBe('Gerar boleto');
    await w.page.getByRole('tab', { name: 'Cartão' }).click();
    expect(await w.page.locator('#pay-button').textContent()).toBe('Pagar R$\u00a024,90');
    expect(await w.page.locator('label.check').textContent()).toBe(
      ` Salvar cartão com ${BUSINESS} para próximas compras`,
    );
    await checkView(w.page, 'pay-open', shot);

    const email = `pay-${s.sellerId}@example.com`;
    await fillBuyer(w.page, email);
    await fillCard(w.page);
    await w.page.locator('#pay-button').click();
    await expect.poll(() => w.page.locator('#result-success').isVisible(), SETTLED).toBe(true);
    const detail = String(await w.page.locator('#success-detail').textContent());
    const order = /Pedido nº (\d+)\./.exec(detail)?.[1];
    expect(order).toBeDefined();
    expect(detail).toContain('Enviamos o recibo para o seu e-mail.');
    await checkView(w.page, 'pay-success', shot);

    // The receipt: headed by the seller (logo, colour), naming what was bought and the same order number.
    const receipt = await mailTo(email, 'receipt');
    expect(receipt.subject).toBe(`[TESTE] Recibo de ${BUSINESS}: Pão de fermentação natural`);
    expect(receipt.text).toContain(`Vendido por: ${BUSINESS}`);
    expect(receipt.text).toContain('Produto: Pão de fermentação natural');
    expect(receipt.text).toContain(`Pedido nº: ${order}`);
    expect(receipt.html).toContain(`border-top:6px solid ${COLOR}`);
    expect(receipt.html).toContain(`<img src="${LOGO}"`);
    expect(w.problems.filter((p) => !p.includes('404'))).toEqual([]);
  });

  it('generates a boleto whose PDF names the seller with its accents (WinAnsi)', async () => {
    const s = await brandedSeller({ boleto: true });
    const w = await open();
    await w.page.goto(`${runtime.baseUrl}/pay/${s.product.uuid}`);
    await w.page.getByRole('tab', { name: 'Boleto' }).click();
    await fillBuyer(w.page, `boleto-${s.sellerId}@example.com`);
    await w.page.locator('#pay-button').click();
    await expect.poll(() => w.page.locator('#result-boleto').isVisible(), SETTLED).toBe(true);
    await checkView(w.page, 'pay-boleto', shot);
    const pdf = await fetch(String(await w.page.locator('#boleto-pdf').getAttribute('href')));
    expect(pdf.status).toBe(200);
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toContain('Beneficiário');
    expect(text).toContain('Número do documento');
    expect(text).toContain(BUSINESS);
  });
});

describe('the checkout session page (/checkout)', () => {
  it('names the seller with logo and colour and passes axe', async () => {
    const s = await brandedSeller();
    const session = await api.post(
      '/api/checkout/sessions',
      {
        product_id: s.product.id,
        success_url: 'https://loja.example.com/obrigado',
        cancel_url: 'https://loja.example.com/carrinho',
      },
      { token: s.key },
    );
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    const w = await open();
    await w.page.goto(String(session.body.url));
    await expectSellerBar(w.page);
    await checkView(w.page, 'checkout-open', shot);
  });
});

describe('the pay link page of a scheduled charge (/cobranca)', () => {
  it('is branded, titles a charge without description by its seller, states the series’ commitment and one date rule', async () => {
    const s = await brandedSeller({}, { email: 'cobranca@example.com' });
    const due = addDays(today(), 3);
    const created = await api.post(
      '/api/v1/scheduled-charges',
      {
        customerId: s.customer.id,
        amount: 89.9,
        dueDate: due,
        type: 'recurring',
        recurrence: { interval: 'month', endAfterCycles: 6 },
        methods: ['pix', 'boleto', 'card'],
      },
      { token: s.key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const detail = (await api.get(`/api/v1/scheduled-charges/${created.body.id}`, { token: s.key })).body;
    const w = await open();
    await w.page.goto(String(detail.cycles[0].payUrl));
    await expectSellerBar(w.page);
    expect(await w.page.locator('#charge-title').textContent()).toBe(`Cobrança de ${BUSINESS}`);
    expect(await w.page.title()).toBe(`Cobrança de ${BUSINESS}`);
    expect(await w.page.locator('#charge-recurrence').textContent()).toBe(
      'Cobrança recorrente: parcela 1 de 6 · 6 cobranças mensais',
    );
    // The due date is the date to pay by; the pix's later last day reads as a grace, not a second deadline.
    expect(await w.page.locator('#charge-due').textContent()).toBe(`Vencimento: ${formatCalendarDay(due)}`);
    await expect.poll(() => w.page.locator('#pix-expires').isVisible(), SETTLED).toBe(true);
    expect(await w.page.locator('#pix-expires').textContent()).toBe(
      `Pague até o vencimento, ${formatCalendarDay(due)}. Depois dele, este Pix ainda é aceito até ${formatCalendarDay(addDays(due, 29))}.`,
    );
    expect(await w.page.locator('#card-note').textContent()).toContain(`salvo com ${BUSINESS}`);
    expect(await w.page.locator('footer').textContent()).toBe(
      `Pagamento a ${BUSINESS}, processado com segurança.`,
    );
    await checkView(w.page, 'cobranca-open', shot);

    // Paid by card: the receipt names the seller and what was bought, never the charge's id.
    await fillCard(w.page);
    await w.page.locator('#pay-button').click();
    await expect
      .poll(() => w.page.locator('#success-title').textContent(), SETTLED)
      .toBe('Pagamento confirmado!');
    const receipt = await mailTo(s.customer.email, 'receipt');
    expect(receipt.text).toContain(`Vendido por: ${BUSINESS}`);
    expect(receipt.text).toContain(`Produto: Cobrança com vencimento em ${formatCalendarDay(due)}`);
    expect(`${receipt.subject}\n${receipt.text}\n${receipt.html}`).not.toMatch(/sch_/);
    await w.page.reload();
    await expectSellerBar(w.page);
    await checkView(w.page, 'cobranca-paid', shot);
  });
});

describe('the carnê', () => {
  it('booklet and the installment’s reminders name the seller, with accents, and its preview renders every channel', async () => {
    const s = await brandedSeller({
      value: 300,
      boleto: true,
      carne: { enabled: true, maxInstallments: 6, interestFactors: {} },
    });
    const plan = await api.post(
      '/api/v1/installment-plans',
      {
        productId: s.product.uuid,
        customerId: s.customer.id,
        installments: 3,
        firstDueDate: addDays(today(), 5),
      },
      { token: s.key },
    );
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const link = await api.post(
      `/api/v1/installment-plans/${plan.body.uuid}/booklet-link`,
      {},
      { token: s.key },
    );
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    const booklet = await fetch(String(link.body.url));
    expect(booklet.status).toBe(200);
    const text = await pdfText(new Uint8Array(await booklet.arrayBuffer()));
    expect(text).toContain(BUSINESS);
    expect(text).toContain('Beneficiário');
    expect(text).toContain('Boleto ainda não emitido');
    expect(text).toContain('Linha digitável');

    // The preview of a step on every channel for installment 1 (its boleto is issued at creation).
    const schedule = await api.call('PUT', '/api/reminder-schedule', {
      token: s.key,
      body: {
        steps: [
          {
            offsetDays: -3,
            channels: ['email', 'whatsapp', 'sms'],
            subject: 'Sua parcela vence em breve',
            body: 'Olá, {{cliente}}! {{referente}}: {{valor}} vence em {{vencimento}}. Boleto: {{linha_digitavel}}. Sair: {{descadastro}}',
            whatsappTemplate: 'parcela_lembrete',
          },
        ],
      },
    });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(200);
    const preview = await api.post(
      '/api/reminder-schedule/installment-preview',
      { step: -3, installmentPlanId: plan.body.uuid },
      { token: s.key },
    );
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ installment: 1, sendDate: addDays(today(), 2), amountDue: 100 });
    // The template never names the seller: the e-mail is headed by it and its text starts with it.
    expect(preview.body.email.html).toContain(`border-top:6px solid ${COLOR}`);
    expect(preview.body.email.html).toContain(`<img src="${LOGO}"`);
    expect(preview.body.email.text).toMatch(new RegExp(`^Ambiente de testes.*\\n\\n${BUSINESS}\\n`));
    expect(preview.body.email.text).toContain('Pão de fermentação natural (parcela 1/3)');
    expect(preview.body.sms.text.startsWith(`${BUSINESS}: `)).toBe(true);
    expect(preview.body.whatsapp.template).toBe('parcela_lembrete');
    expect(preview.body.whatsapp.parameters.map((p: { name: string }) => p.name)).toEqual([
      'cliente',
      'referente',
      'valor',
      'vencimento',
      'linha_digitavel',
      'descadastro',
    ]);
    // An installment not issued yet has no reminder to preview; another seller's plan is not found.
    const later = await api.post(
      '/api/reminder-schedule/installment-preview',
      { step: -3, installmentPlanId: plan.body.uuid, installment: 3 },
      { token: s.key },
    );
    expect(later.status).toBe(409);
    const other = await fixtures.seller();
    const foreign = await api.post(
      '/api/reminder-schedule/installment-preview',
      { step: -3, installmentPlanId: plan.body.uuid },
      { token: other.key },
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Installment plan not found');
    const bad = await api.post(
      '/api/reminder-schedule/installment-preview',
      { step: -3, installmentPlanId: 'x' },
      { token: s.key },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(['installmentPlanId must be the uuid of an installment plan']);
  });
});

describe('the customer area (/minha-area)', () => {
  it("lists each seller under its business name and logo, and its billing-e-mail button does not look like 'Pagar'", async () => {
    const s = await brandedSeller();
    const other = await fixtures.seller({ named: 'Ateliê Duas Agulhas' });
    const cpf = area.newCpf();
    const email = `area-${s.sellerId}@example.com`;
    const a = await area.customer(s.key, cpf, email);
    const b = await area.customer(other.key, cpf, email);
    await area.charge(s.key, a.id, 120, 'Encomenda de pães');
    await area.charge(other.key, b.id, 80, 'Conserto de vestido');
    const token = await area.linkFor(cpf, email);
    const w = await open();
    await w.page.goto(`${runtime.baseUrl}/minha-area#token=${token}`);
    await expect.poll(() => w.page.locator('#area').isVisible(), SETTLED).toBe(true);
    const names = await w.page.locator('section.seller .seller-name').allTextContents();
    expect(names).toEqual([BUSINESS, 'Ateliê Duas Agulhas']);
    expect(await w.page.locator('section.seller .seller-logo').getAttribute('src')).toBe(LOGO);
    expect(await w.page.locator('section.seller label').first().textContent()).toBe(
      `E-mail para as cobranças de ${BUSINESS}`,
    );
    const pay = rgb(await style(w.page, 'a.button.pay', 'backgroundColor'));
    const save = rgb(await style(w.page, '.billing-email button[type="submit"]', 'backgroundColor'));
    expect(save).not.toBe(pay);
    expect(save).toBe('e5e7eb');
    await checkView(w.page, 'minha-area', shot);
  });
});
