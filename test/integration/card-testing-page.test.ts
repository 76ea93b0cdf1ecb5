import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { launchChromium, PHONE, type Watched, watchPage } from '../support/browser';
import { buyer, card, decliningCard } from '../support/checkout-fixtures';
import { clientFrom, freshLoopback } from '../support/client-from';
import { sellerFixtures } from '../support/fixtures';
import { type client, useTestRuntime } from '../support/runtime';

/**
 * The pages' side of the card-testing guard, in Chromium: the browser is 127.0.0.1, and this file
 * has a runtime of its own, so the declines counted against that client are the ones made here.
 */
let runtime: Runtime;
let api: ReturnType<typeof client>;
let browser: Browser;
const fixtures = sellerFixtures(() => ({ runtime, api }), 233_000);

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

const SETTLED = { timeout: 30_000 };
const GENERIC = 'Cartão recusado. Tente outro cartão ou outra forma de pagamento.';

const seller = () => fixtures.seller({ product: { installments: 1 } });

async function session(s: Awaited<ReturnType<typeof seller>>) {
  const res = await api.post(
    '/api/checkout/sessions',
    { product_id: s.product.id, customer: { 'customer.name': buyer.name, 'customer.email': buyer.email } },
    { token: s.key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; url: string };
}

/** A phone-sized page; the statuses the page's script gets and handles are not problems. */
async function phone(): Promise<Watched & { statuses: number[] }> {
  const context = await browser.newContext({ viewport: PHONE, locale: 'pt-BR' });
  await context.route('https://cdn.example.com/**', (route) => route.fulfill({ status: 404 }));
  const watched = await watchPage(context, { shownStatuses: [404, 428, 429] });
  const statuses: number[] = [];
  watched.page.on('response', (r) => {
    if (r.request().method() === 'POST') statuses.push(r.status());
  });
  return { ...watched, statuses };
}

async function fillCard(page: Page, number: string, withBuyer: boolean) {
  if (withBuyer) {
    await page.locator('#buyer-document').fill(buyer.document);
    await page.locator('#buyer-phone').fill(buyer.phone);
    await page.getByRole('tab', { name: 'Cartão' }).click();
  }
  await page.locator('#card-number').fill('');
  await page.locator('#card-number').pressSequentially(number);
  await page.locator('#card-holder').fill('MARIA SOUZA');
  await page.locator('#card-expiry').fill('');
  await page.locator('#card-expiry').pressSequentially('1234');
  await page.locator('#card-cvv').fill('123');
}

/** A second into a fresh hour (the client's decline window): what earlier tests counted is gone. */
async function freshHour() {
  const now = Date.parse((await api.get('/api/test-helpers/clock')).body.now);
  await api.post('/api/test-helpers/clock/advance', { seconds: (3_600_000 - (now % 3_600_000)) / 1000 + 1 });
}

/** Three declines from the browser's own address (127.0.0.1), on another seller's link. */
async function declineThreeTimes() {
  await freshHour();
  const other = await seller();
  for (const number of ['4000000000000002', '4000000000009995', '4000000000000127']) {
    const res = await api.post(`/api/public/checkout/${other.product.uuid}/pay`, {
      paymentMethod: 'card',
      customer: buyer,
      card: card(number),
    });
    expect(res.body.status).toBe('declined');
  }
  const asked = await api.post(`/api/public/checkout/${other.product.uuid}/pay`, {
    paymentMethod: 'card',
    customer: buyer,
    card: card('4111111111111111'),
  });
  expect(asked.status).toBe(428);
}

describe('the hosted pages and the card-testing guard, in Chromium', () => {
  it('solves the proof of work the checkout asks for and pays, without the buyer doing anything', async () => {
    await declineThreeTimes();
    const s = await seller();
    const cs = await session(s);
    const w = await phone();
    await w.page.goto(cs.url);
    await fillCard(w.page, '4111111111111111', true);
    await w.page.locator('#pay-button').click();
    await w.page.locator('#result-success').waitFor(SETTLED);
    // Asked once, solved by the page's script, paid on the second request.
    expect(w.statuses).toEqual([428, 201]);
    const done = (await api.get(`/api/checkout/sessions/${cs.id}`, { token: s.key })).body.data;
    expect(done.status).toBe('complete');
    expect(w.problems).toEqual([]);
    await w.context.close();
  });

  it('solves it on a scheduled charge’s pay link too, and says "recusado" of a declined card', async () => {
    await declineThreeTimes();
    const s = await seller();
    const customer = (
      await api.post('/api/v1/customers', { ...buyer, personType: 'fisica' }, { token: s.key })
    ).body;
    const created = await api.post(
      '/api/v1/scheduled-charges',
      {
        customerId: customer.id,
        amount: 49.9,
        dueDate: addDays(saoPauloDate(runtime.clock.now()), 2),
        methods: ['card'],
        type: 'one_time',
      },
      { token: s.key },
    );
    const detail = (await api.get(`/api/v1/scheduled-charges/${created.body.id}`, { token: s.key })).body;
    const w = await phone();
    await w.page.goto(detail.cycles[0].payUrl);
    await fillCard(w.page, '4000000000009995', false);
    await w.page.locator('#pay-button').click();
    await expect.poll(() => w.page.locator('#form-error').textContent(), SETTLED).toBe(GENERIC);
    expect(w.statuses).toEqual([428, 201]);
    const attempts = (
      await api.get(`/api/v1/scheduled-charges/${created.body.id}/attempts`, { token: s.key })
    ).body;
    expect(attempts.data[0]).toMatchObject({ status: 'declined', failureCode: 'insufficient_funds' });
    expect(w.problems).toEqual([]);
    await w.context.close();
  });

  it('tells the buyer when a held session takes no more cards', async () => {
    const s = await seller();
    const cs = await session(s);
    for (let i = 0; i < 5; i++) {
      const other = clientFrom(runtime.baseUrl, freshLoopback());
      const res = await other.post(`/api/public/checkout/${cs.id}/pay`, {
        paymentMethod: 'card',
        customer: buyer,
        card: card(decliningCard(i)),
      });
      expect(res.body.status).toBe('declined');
    }
    const w = await phone();
    await w.page.goto(cs.url);
    await fillCard(w.page, '4111111111111111', true);
    await w.page.locator('#pay-button').click();
    await expect
      .poll(() => w.page.locator('#form-error').textContent(), SETTLED)
      .toBe(
        'Muitas tentativas de pagamento com cartão. Tente novamente mais tarde ou use outra forma de pagamento.',
      );
    expect(w.statuses.at(-1)).toBe(429);
    expect(w.problems).toEqual([]);
    await w.context.close();
  });
});
