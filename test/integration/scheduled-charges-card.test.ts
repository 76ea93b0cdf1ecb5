import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { customerBody, sellerFixtures } from '../support/fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { type client, logLines, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 137_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A seller with a sandbox key, one customer and one product. */
const seller = () =>
  fixtures.seller({
    customer: {},
    product: { name: 'Aulas de violão', image: 'https://cdn.example.com/v.png', installments: 1 },
  });
type Seller = Awaited<ReturnType<typeof seller>>;

const today = () => saoPauloDate(runtime.clock.now());
const post = (s: Seller, path: string, body?: unknown) => api.post(path, body, { token: s.key });
const get = (s: Seller, path: string) => api.get(path, { token: s.key });
const BASE = '/api/v1/scheduled-charges';
const put = (s: Seller, path: string, body: unknown) => api.call('PUT', path, { token: s.key, body });

/** The expiry two years after the runtime clock's year: a card that stays valid in these tests. */
function card(number = '4111111111111111') {
  const [y, m] = today().split('-').map(Number);
  return { number, holderName: 'MARIA SOUZA', expiryMonth: m, expiryYear: y + 2, cvv: '123' };
}

/** A monthly card series (card only) due tomorrow. */
async function cardSeries(s: Seller, body: Record<string, unknown> = {}) {
  const res = await post(s, BASE, {
    customerId: s.customer.id,
    amount: 49.9,
    dueDate: addDays(today(), 1),
    methods: ['card'],
    type: 'recurring',
    recurrence: { interval: 'month' },
    productId: s.product.uuid,
    description: 'Mensalidade',
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; status: string };
}

const detail = async (s: Seller, id: string) => {
  const res = await get(s, `${BASE}/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const tokenOf = (payUrl: string) => payUrl.split('/').pop() as string;
const cycleOf = (charge: { cycles: { cycleNumber: number }[] }, n: number) =>
  charge.cycles.find((c) => c.cycleNumber === n) as Record<string, any>;
const kinds = (charge: { timeline: { kind: string }[] }) => charge.timeline.map((e) => e.kind);

async function payOnLink(payUrl: string, number = '4111111111111111') {
  const res = await api.post(`/api/public/cobranca/${tokenOf(payUrl)}/card`, { card: card(number) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Moves the runtime clock to `at` (running everything due on the way). */
async function advanceTo(at: Date) {
  const seconds = Math.ceil((at.getTime() - runtime.clock.now().getTime()) / 1000);
  if (seconds > 0) expect((await api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);
}
/** One hour into a Sao Paulo day: its 00:00 jobs have run. */
const intoDay = (date: string) => new Date(startOfSaoPauloDay(date).getTime() + HOUR_MS);

async function attempts(s: Seller, id: string, query = '') {
  const res = await get(s, `${BASE}/${id}/attempts${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('a monthly card series', () => {
  it('is paid on the link in cycle 1, charged silently a month later, and a declined cycle is retried to cycle_failed', async () => {
    const s = await seller();
    const receiver = await new Receiver().start();
    const endpoint = await post(s, '/api/webhook-endpoints', {
      url: receiver.url,
      events: [
        'scheduled_charge.paid',
        'scheduled_charge.cycle_failed',
        'scheduled_charge.payment_method_attached',
      ],
    });
    expect(endpoint.status).toBe(201);
    try {
      const created = await cardSeries(s);
      expect(created.status).toBe('pending_tokenization');
      const first = cycleOf(await detail(s, created.id), 1);

      const view = await api.get(`/api/public/cobranca/${tokenOf(first.payUrl)}`);
      expect(view.status).toBe(200);
      expect(view.body).toMatchObject({
        state: 'open',
        cardMode: 'pay',
        amount: 49.9,
        pix: null,
        boleto: null,
      });

      expect(await payOnLink(first.payUrl)).toEqual({
        status: 'paid',
        card: { brand: 'visa', last4: '1111' },
        failure: null,
      });
      let charge = await detail(s, created.id);
      expect(charge.paymentMethod).toMatchObject({ cardLast4: '1111', cardBrand: 'visa' });
      expect(cycleOf(charge, 1)).toMatchObject({ status: 'paid', paidBy: 'transaction', attemptCount: 1 });
      expect(kinds(charge)).toEqual(expect.arrayContaining(['paid', 'payment_method_attached']));
      expect(charge.transactions).toHaveLength(1);
      expect(charge.transactions[0]).toMatchObject({
        status: 'captured',
        paymentMethod: 'creditcard',
        value: 49.9,
      });
      // Paying the link again is refused in Portuguese.
      const again = await api.post(`/api/public/cobranca/${tokenOf(first.payUrl)}/card`, { card: card() });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('Esta cobrança já foi paga.');

      // A month later: the saved card is charged silently at 00:00 of cycle 2's due date.
      const second = cycleOf(charge, 2);
      expect(second.status).toBe('scheduled');
      await advanceTo(intoDay(second.dueDate));
      charge = await detail(s, created.id);
      expect(cycleOf(charge, 2)).toMatchObject({ status: 'paid', attemptCount: 1 });

      // Cycle 3 is declined: three retries at +3, +5 and +7 days, then the cycle fails.
      const pmId = charge.paymentMethod.id;
      const outcome = await post(s, `/api/test-helpers/payment-methods/${pmId}/outcome`, {
        outcome: 'declined',
        failureCode: 'insufficient_funds',
      });
      expect(outcome.status, JSON.stringify(outcome.body)).toBe(200);
      const third = cycleOf(charge, 3);
      await advanceTo(intoDay(third.dueDate));
      for (let retry = 1; retry <= 3; retry++) {
        const c3 = cycleOf(await detail(s, created.id), 3);
        expect(c3).toMatchObject({ attemptCount: retry, failureCode: 'insufficient_funds' });
        expect(c3.nextRetryAt).not.toBeNull();
        await advanceTo(new Date(Date.parse(c3.nextRetryAt) + HOUR_MS));
      }
      charge = await detail(s, created.id);
      expect(cycleOf(charge, 3)).toMatchObject({
        status: 'failed',
        attemptCount: 4,
        nextRetryAt: null,
        failureCode: 'insufficient_funds',
      });
      expect(kinds(charge)).toContain('cycle_failed');

      const log = await attempts(s, created.id, '?cycleNumber=3');
      expect(log.totalCount).toBe(4);
      expect(log.data.map((a: any) => [a.attemptNumber, a.source, a.status])).toEqual([
        [4, 'card_retry', 'declined'],
        [3, 'card_retry', 'declined'],
        [2, 'card_retry', 'declined'],
        [1, 'silent_charge', 'declined'],
      ]);
      expect(log.data[0]).toMatchObject({
        cycleId: `${created.id}_c3`,
        paymentMethod: 'card',
        paymentMethodId: pmId,
        cardLast4: '1111',
        cardBrand: 'visa',
        failureCode: 'insufficient_funds',
        gatewayFailureCode: 'sandbox_insufficient_funds',
        gatewayChargeId: expect.any(Number),
        transactionId: expect.any(Number),
      });
      // Retries are spaced by the shared schedule (declined: 3, 5, 7 days).
      const at = log.data.map((a: any) => Date.parse(a.attemptedAt)).reverse();
      for (const [i, days] of [3, 5, 7].entries()) {
        expect(at[i + 1] - at[i]).toBeGreaterThanOrEqual(days * DAY_MS);
        expect(at[i + 1] - at[i]).toBeLessThan(days * DAY_MS + 3 * HOUR_MS);
      }

      await waitFor(() => receiver.received.some((r) => r.json?.event === 'scheduled_charge.cycle_failed'));
      expect(
        receiver.received.find((r) => r.json?.event === 'scheduled_charge.cycle_failed')?.json.data,
      ).toMatchObject({
        id: created.id,
        cycleNumber: 3,
        failureCode: 'insufficient_funds',
        failureReason: expect.any(String),
        gatewayFailureCode: 'sandbox_insufficient_funds',
      });
      await waitFor(
        () => receiver.received.filter((r) => r.json?.event === 'scheduled_charge.paid').length === 2,
      );
      expect(
        receiver.received.some((r) => r.json?.event === 'scheduled_charge.payment_method_attached'),
      ).toBe(true);
      expect(JSON.stringify(receiver.received)).not.toContain('tok_');

      // The whole log, paged.
      const all = await attempts(s, created.id);
      expect(all).toMatchObject({ count: 6, totalCount: 6, totalPages: 1 });
      expect(all.data.at(-1)).toMatchObject({
        cycleNumber: 1,
        source: 'cycle1_interactive',
        status: 'succeeded',
      });
      expect(all.data.map((a: any) => a.source)).not.toContain('fallback_pix');
      const page2 = await attempts(s, created.id, '?limit=4&page=2');
      expect(page2).toMatchObject({ count: 2, totalCount: 6, totalPages: 2 });
      expect(page2.data.map((a: any) => a.id)).toEqual(all.data.slice(4).map((a: any) => a.id));
    } finally {
      await api.del(`/api/webhook-endpoints/${endpoint.body.id}`, { token: s.key });
      await receiver.stop();
    }
    expect(logLines.join('\n')).not.toContain('4111111111111111');
  });

  it('refuses bad attempt queries, and answers 404 for another seller’s charge', async () => {
    const s = await seller();
    const other = await seller();
    const { id } = await cardSeries(s);
    for (const [query, message] of [
      ['?limit=0', 'limit must be an integer from 1 to 100'],
      ['?limit=101', 'limit must be an integer from 1 to 100'],
      ['?page=0', 'page must be an integer of at least 1'],
      ['?cycleNumber=x', 'cycleNumber must be an integer of at least 1'],
    ]) {
      const res = await get(s, `${BASE}/${id}/attempts${query}`);
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body.message)).toContain(message);
    }
    for (const res of [
      await get(other, `${BASE}/${id}/attempts`),
      await put(other, `${BASE}/${id}/payment-method`, { paymentMethodId: 1 }),
      await api.del(`${BASE}/${id}/payment-method`, { token: other.key }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Scheduled charge not found');
    }
    expect((await api.get('/api/public/cobranca/cob_unknown')).status).toBe(404);
  });
});

describe('the payment method of a series', () => {
  it('is changed to another saved card, cleared (the next cycle asks on its link), and deleted cards keep their attempt snapshots', async () => {
    const s = await seller();
    const { id } = await cardSeries(s);
    await payOnLink(cycleOf(await detail(s, id), 1).payUrl);
    let charge = await detail(s, id);
    const firstCard = charge.paymentMethod.id;

    // Another card of the same customer, saved by a purchase.
    const bought = await api.post('/api/transactions', {
      productId: s.product.uuid,
      paymentMethod: 'creditcard',
      customer: customerBody,
      card: card('5555555555554444'),
      saveCard: true,
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const cards = (await get(s, `/api/v1/customers/${s.customer.uuid}/payment-methods`)).body.data;
    const second = cards.find((m: any) => m.last4 === '4444');

    expect((await put(s, `${BASE}/${id}/payment-method`, { paymentMethodId: 999_999 })).status).toBe(404);
    const bad = await put(s, `${BASE}/${id}/payment-method`, { paymentMethodId: 'x' });
    expect(bad.status).toBe(400);
    const changed = await put(s, `${BASE}/${id}/payment-method`, { paymentMethodId: second.id });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.paymentMethod).toEqual({ id: second.id, cardLast4: '4444', cardBrand: 'mastercard' });
    expect(kinds(changed.body)[0]).toBe('payment_method_changed');

    // The first card is deleted: its attempt keeps the card's last 4 and brand, without its id.
    const deleted = await api.del(`/api/v1/customers/${s.customer.uuid}/payment-methods/${firstCard}`, {
      token: s.key,
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const [attempt] = (await attempts(s, id)).data;
    expect(attempt).toMatchObject({
      source: 'cycle1_interactive',
      paymentMethodId: null,
      cardLast4: '1111',
      cardBrand: 'visa',
    });

    const cleared = await api.del(`${BASE}/${id}/payment-method`, { token: s.key });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.paymentMethod).toBeNull();
    expect(kinds(cleared.body)[0]).toBe('payment_method_cleared');
    const twice = await api.del(`${BASE}/${id}/payment-method`, { token: s.key });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Scheduled charge has no payment method to clear');

    // Cycle 2 is not charged silently: its link takes the card.
    charge = await detail(s, id);
    const next = cycleOf(charge, 2);
    await advanceTo(intoDay(next.dueDate));
    expect(cycleOf(await detail(s, id), 2)).toMatchObject({ status: 'due_today', attemptCount: 0 });
    const view = await api.get(`/api/public/cobranca/${tokenOf(next.payUrl)}`);
    expect(view.body).toMatchObject({ state: 'open', cardMode: 'pay', savedCard: null });
  });
});

describe('trials', () => {
  it('keeps the card during the trial without a charge and converts the trial at its end', async () => {
    const s = await seller();
    const receiver = await new Receiver().start();
    const endpoint = await post(s, '/api/webhook-endpoints', {
      url: receiver.url,
      events: ['customer.trial_converted', 'scheduled_charge.payment_method_attached'],
    });
    try {
      const created = await cardSeries(s, { trialDays: 7, dueDate: addDays(today(), 7) });
      expect(created.status).toBe('trial');
      let charge = await detail(s, created.id);
      const link = cycleOf(charge, 1).payUrl;
      expect((await api.get(`/api/public/cobranca/${tokenOf(link)}`)).body).toMatchObject({
        cardMode: 'save',
        trialEndsOn: charge.trialEndsOn,
      });
      expect(await payOnLink(link)).toEqual({
        status: 'card_saved',
        card: { brand: 'visa', last4: '1111' },
        failure: null,
      });
      charge = await detail(s, created.id);
      expect(charge).toMatchObject({
        status: 'trial',
        paymentMethod: { cardLast4: '1111' },
        transactions: [],
      });
      expect(kinds(charge)[0]).toBe('payment_method_attached');
      expect((await attempts(s, created.id)).totalCount).toBe(0);

      await advanceTo(intoDay(addDays(charge.trialEndsOn, 1)));
      charge = await detail(s, created.id);
      expect(cycleOf(charge, 1)).toMatchObject({ status: 'paid', attemptCount: 1 });
      expect(kinds(charge)).toEqual(expect.arrayContaining(['trial_converted', 'paid']));
      expect(kinds(charge)).not.toContain('trial_lapsed');
      expect((await attempts(s, created.id)).data[0]).toMatchObject({
        source: 'silent_charge',
        status: 'succeeded',
      });
      await waitFor(() => receiver.received.some((r) => r.json?.event === 'customer.trial_converted'));
      expect(
        receiver.received.find((r) => r.json?.event === 'customer.trial_converted')?.json.data,
      ).toMatchObject({
        id: created.id,
        object: 'scheduled_charge',
      });
    } finally {
      await api.del(`/api/webhook-endpoints/${endpoint.body.id}`, { token: s.key });
      await receiver.stop();
    }
  });

  it('lapses a trial that ends without a card: cycle 1 stays open on its link', async () => {
    const s = await seller();
    const created = await cardSeries(s, { trialDays: 3, dueDate: addDays(today(), 5) });
    let charge = await detail(s, created.id);
    await advanceTo(intoDay(addDays(charge.trialEndsOn, 1)));
    charge = await detail(s, created.id);
    expect(kinds(charge).filter((k: string) => k === 'trial_lapsed')).toHaveLength(1);
    expect(charge.status).toBe('pending_tokenization');
    const first = cycleOf(charge, 1);
    expect(first.status).toBe('scheduled');
    expect((await api.get(`/api/public/cobranca/${tokenOf(first.payUrl)}`)).body).toMatchObject({
      state: 'open',
      cardMode: 'pay',
      trialEndsOn: null,
    });
    // A declined card on the link is an attempt, and the cycle stays open.
    const declined = await api.post(`/api/public/cobranca/${tokenOf(first.payUrl)}/card`, {
      card: card('4000000000000002'),
    });
    expect(declined.status).toBe(201);
    expect(declined.body).toMatchObject({ status: 'declined', failure: { code: 'card_declined' } });
    expect((await attempts(s, created.id)).data[0]).toMatchObject({
      source: 'cycle1_interactive',
      status: 'declined',
      failureCode: 'card_declined',
      gatewayFailureCode: 'sandbox_card_declined',
    });
    expect(await payOnLink(first.payUrl)).toMatchObject({ status: 'paid' });
  });
});
