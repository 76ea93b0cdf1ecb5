import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { buyer, card, prefill } from '../support/checkout-fixtures';
import { sellerFixtures } from '../support/fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let receiver: Receiver;
const fixtures = sellerFixtures(() => ({ runtime, api }), 150_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});
beforeAll(async () => {
  receiver = await new Receiver().start();
});
afterAll(() => receiver?.stop());

const APPROVED = card('4111111111111111');
const DECLINED = card('4000000000009995');
const WEBHOOKS = [
  'checkout.session.completed',
  'subscription.created',
  'subscription.activated',
  'customer.trial_started',
  'transaction.created',
];

interface Seller {
  sellerId: number;
  key: string;
  product: { id: number; uuid: string };
}

async function seller(productBody: Record<string, unknown> = {}): Promise<Seller> {
  const { sellerId, key, product } = await fixtures.seller({
    product: { name: 'Clube do Violão', ...productBody },
  });
  const hook = await api.post(
    '/api/webhook-endpoints',
    { url: receiver.url, events: WEBHOOKS },
    { token: key },
  );
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  return { sellerId, key, product };
}

async function post(key: string, path: string, body: unknown) {
  const res = await api.post(path, body, { token: key });
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

const price = (s: Seller, body: Record<string, unknown> = {}) =>
  post(s.key, `/api/products/${s.product.id}/prices`, {
    name: 'Mensal',
    unitAmount: 49.9,
    billingInterval: 'month',
    ...body,
  });

const session = (s: Seller, body: Record<string, unknown>) =>
  post(s.key, '/api/checkout/sessions', {
    product_id: s.product.id,
    customer: prefill,
    success_url: 'https://shop.example.com/ok?session={SESSION_ID}',
    ...body,
  });

const pay = (ref: string, body: Record<string, unknown>) =>
  api.post(`/api/public/checkout/${ref}/pay`, { customer: buyer, ...body });

const webhooks = (name: string, match: (data: any) => boolean) =>
  receiver.received.filter((r) => r.json?.event === name && match(r.json.data));
const ofSubscription = (id: number) => (data: any) => data?.id === id;

async function readSession(s: Seller, id: string) {
  return (await api.get(`/api/checkout/sessions/${id}`, { token: s.key })).body.data;
}

describe('creating a session with a subscription price', () => {
  it('accepts the price by its numeric id or its uuid, and offers card and pix only', async () => {
    const s = await seller();
    const p = await price(s);
    const byId = await session(s, { price_id: String(p.id) });
    const byUuid = await session(s, { price_id: p.uuid.toUpperCase() });
    for (const cs of [byId, byUuid]) {
      expect(cs).toMatchObject({
        status: 'open',
        price_id: String(p.id),
        payment_methods: ['pix', 'card'],
        transaction_id: null,
        subscription_id: null,
      });
    }
    const page = (await api.get(`/api/public/checkout/${byId.id}`)).body;
    expect(page).toMatchObject({
      state: 'open',
      product: { methods: ['pix', 'card'], maxInstallments: 1 },
      price: { name: 'Mensal', unitAmount: 49.9, billingInterval: 'month', intervalCount: 1, trialDays: 0 },
    });
  });

  it('sells a product priced 0 through its prices, and offers a price with a trial by card only', async () => {
    const s = await seller({ value: 0 });
    const p = await price(s, { trialDays: 7 });
    const cs = await session(s, { price_id: p.uuid });
    expect(cs.payment_methods).toEqual(['card']);
    expect((await api.get(`/api/public/checkout/${cs.id}`)).body.state).toBe('open');
  });

  it('refuses with a 400 naming price_id or payment_methods', async () => {
    const s = await seller();
    const other = await seller();
    const p = await price(s);
    const trial = await price(s, { trialDays: 14 });
    const otherProduct = await post(s.key, '/api/products', {
      name: 'Outro',
      image: 'https://cdn.example.com/o.png',
      value: 10,
    });
    const priceOfOtherProduct = await post(s.key, `/api/products/${otherProduct.id}/prices`, {
      name: 'Outro mensal',
      unitAmount: 10,
      billingInterval: 'month',
    });
    const priceOfOtherSeller = await price(other);
    const inactive = await price(s, { name: 'Antigo' });
    const off = await api.call('DELETE', `/api/products/${s.product.id}/prices/${inactive.id}`, {
      token: s.key,
    });
    expect(off.status).toBe(200);
    const boletoOnly = await post(s.key, '/api/products', {
      name: 'Só boleto',
      image: 'https://cdn.example.com/b.png',
      value: 10,
      pix: false,
      creditCard: false,
      boleto: true,
    });
    const boletoOnlyPrice = await post(s.key, `/api/products/${boletoOnly.id}/prices`, {
      name: 'Mensal',
      unitAmount: 10,
      billingInterval: 'month',
    });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ price_id: '999999' }, /^price_id names no active subscription price of this product$/],
      [{ price_id: String(priceOfOtherProduct.id) }, /^price_id names no active subscription price/],
      [{ price_id: priceOfOtherSeller.uuid }, /^price_id names no active subscription price/],
      [{ price_id: String(inactive.id) }, /^price_id names no active subscription price/],
      [{ price_id: 'not-a-price' }, /^price_id names no active subscription price/],
      [
        { price_id: String(p.id), payment_methods: ['card', 'boleto'] },
        /^payment_methods: a subscription is paid by card or pix, not boleto$/,
      ],
      [
        { price_id: String(trial.id), payment_methods: ['pix'] },
        /^payment_methods: a price with a trial is paid by card only$/,
      ],
      [
        { product_id: boletoOnly.id, price_id: String(boletoOnlyPrice.id) },
        /^price_id: this product accepts neither card nor pix/,
      ],
    ];
    for (const [patch, message] of cases) {
      const res = await api.post(
        '/api/checkout/sessions',
        { product_id: s.product.id, ...patch },
        { token: s.key },
      );
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.message.join(' | '), JSON.stringify(patch)).toMatch(message);
    }
    expect((await api.get('/api/checkout/sessions', { token: s.key })).body.totalCount).toBe(0);
  });
});

describe('paying a session with a subscription price', () => {
  it('by card: charges the price, keeps the card and starts an active subscription', async () => {
    const s = await seller();
    const p = await price(s);
    const cs = await session(s, { price_id: String(p.id) });

    const paid = await pay(cs.id, { paymentMethod: 'card', card: APPROVED });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body).toMatchObject({
      status: 'paid',
      value: 49.9,
      installments: 1,
      card: { last4: '1111' },
      redirectUrl: `https://shop.example.com/ok?session=${cs.id}`,
      subscription: { status: 'active', trialEndsAt: null },
    });

    const done = await readSession(s, cs.id);
    expect(done).toMatchObject({ status: 'complete', transaction_id: expect.any(Number) });
    expect(done.subscription_id).toEqual(expect.any(Number));
    const t = (await api.get(`/api/transactions/${done.transaction_id}`, { token: s.key })).body;
    expect(t).toMatchObject({
      status: 'captured',
      value: 49.9,
      isRecurring: true,
      subscriptionId: done.subscription_id,
      billingCycle: 1,
      checkoutSessionId: cs.id,
    });
    const sub = (await api.get(`/api/subscriptions/${done.subscription_id}`, { token: s.key })).body;
    expect(sub).toMatchObject({
      status: 'active',
      collectionMethod: 'card',
      billingCycle: 1,
      subscriptionPriceId: p.id,
      checkoutSessionId: cs.id,
      paymentMethod: { cardLast4: '1111' },
    });
    expect(sub.paymentMethodId).toEqual(expect.any(Number));

    await waitFor(() => webhooks('subscription.activated', ofSubscription(sub.id)).length === 1);
    await waitFor(() => webhooks('checkout.session.completed', (d) => d.id === cs.id).length === 1);
    await waitFor(() => webhooks('transaction.created', (d) => d.id === done.transaction_id).length === 1);
    expect(webhooks('subscription.created', ofSubscription(sub.id))).toHaveLength(1);
    expect(webhooks('checkout.session.completed', (d) => d.id === cs.id)[0].json.data).toMatchObject({
      transaction_id: done.transaction_id,
    });
    const created = webhooks('transaction.created', (d) => d.id === done.transaction_id);
    expect(created[0].json.data).toMatchObject({ isRecurring: true, paymentMethod: 'card' });
  });

  it('by a declined card: the session stays open and no subscription starts', async () => {
    const s = await seller();
    const p = await price(s);
    const cs = await session(s, { price_id: String(p.id) });

    const declined = await pay(cs.id, { paymentMethod: 'card', card: DECLINED });
    expect(declined.status).toBe(201);
    expect(declined.body).toMatchObject({ status: 'declined', subscription: null });
    // The buyer reads a plain decline; the seller's transaction keeps the issuer's reason.
    expect(declined.body.failure).toEqual({
      code: 'card_declined',
      message: 'Cartão recusado. Tente outro cartão ou outra forma de pagamento.',
    });

    expect(await readSession(s, cs.id)).toMatchObject({
      status: 'open',
      transaction_id: null,
      subscription_id: null,
    });
    const subs = (await api.get('/api/subscriptions', { token: s.key })).body;
    expect(subs.totalCount).toBe(0);
    // The page can still be paid, by another card.
    const paid = await pay(cs.id, { paymentMethod: 'card', card: APPROVED });
    expect(paid.body.status).toBe('paid');
  });

  it('refuses installments and a boleto for a subscription', async () => {
    const s = await seller();
    const p = await price(s);
    const cs = await session(s, { price_id: String(p.id) });
    const installments = await pay(cs.id, { paymentMethod: 'card', card: APPROVED, installments: 3 });
    expect(installments.status).toBe(400);
    expect(installments.body.message).toEqual([
      'installments must be 1: a subscription is charged in a single installment',
    ]);
    const boleto = await pay(cs.id, { paymentMethod: 'boleto' });
    expect(boleto.status).toBe(400);
    expect(boleto.body.message).toEqual(['paymentMethod must be one of: pix, card']);
  });

  it('with a trial: keeps the card, charges nothing and starts the trial', async () => {
    const s = await seller();
    const p = await price(s, { trialDays: 7 });
    const cs = await session(s, { price_id: String(p.id) });

    const started = await pay(cs.id, { paymentMethod: 'card', card: APPROVED });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({
      paymentId: null,
      status: 'trialing',
      value: 0,
      card: { last4: '1111' },
      subscription: { status: 'active' },
    });
    const trialEndsAt = Date.parse(started.body.subscription.trialEndsAt);
    expect(trialEndsAt - runtime.clock.now().getTime()).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(trialEndsAt - runtime.clock.now().getTime()).toBeLessThanOrEqual(7 * 86_400_000);

    const done = await readSession(s, cs.id);
    expect(done).toMatchObject({ status: 'complete', transaction_id: null });
    const sub = (await api.get(`/api/subscriptions/${done.subscription_id}`, { token: s.key })).body;
    expect(sub).toMatchObject({
      status: 'active',
      billingCycle: 0,
      trialEndsAt: started.body.subscription.trialEndsAt,
      paymentMethod: { cardLast4: '1111' },
    });
    expect((await api.get('/api/transactions', { token: s.key })).body.data).toEqual([]);

    await waitFor(() => webhooks('customer.trial_started', ofSubscription(sub.id)).length === 1);
    await waitFor(() => webhooks('checkout.session.completed', (d) => d.id === cs.id).length === 1);
    expect(webhooks('checkout.session.completed', (d) => d.id === cs.id)[0].json.data).toMatchObject({
      transaction_id: null,
    });
  });

  it('with a trial and a card the issuer refuses: answered as a decline, the session stays open', async () => {
    const s = await seller();
    const p = await price(s, { trialDays: 7 });
    const cs = await session(s, { price_id: String(p.id) });
    const refused = await pay(cs.id, { paymentMethod: 'card', card: DECLINED });
    expect(refused.status).toBe(201);
    expect(refused.body).toMatchObject({ paymentId: null, status: 'declined', subscription: null });
    expect(await readSession(s, cs.id)).toMatchObject({ status: 'open', subscription_id: null });
    expect((await api.get('/api/subscriptions', { token: s.key })).body.totalCount).toBe(0);
  });

  it('by pix: the subscription waits pending until the first pix is paid, then is active', async () => {
    const s = await seller();
    const p = await price(s);
    const cs = await session(s, { price_id: p.uuid });

    const pending = await pay(cs.id, { paymentMethod: 'pix' });
    expect(pending.status, JSON.stringify(pending.body)).toBe(201);
    expect(pending.body).toMatchObject({
      status: 'pending',
      method: 'pix',
      value: 49.9,
      subscription: { status: 'pending' },
    });
    const t = (await api.get('/api/transactions', { token: s.key })).body.data[0];
    expect(t).toMatchObject({ status: 'pendingPix', isRecurring: true, billingCycle: 1 });
    const subscriptionId = t.subscriptionId as number;
    expect((await api.get(`/api/subscriptions/${subscriptionId}`, { token: s.key })).body).toMatchObject({
      status: 'pending',
      collectionMethod: 'pix_automatic',
    });

    const paid = await api.post(`/api/test-helpers/transactions/${t.id}/pay`, {}, { token: s.key });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.status).toBe('payedPix');

    const sub = (await api.get(`/api/subscriptions/${subscriptionId}`, { token: s.key })).body;
    expect(sub).toMatchObject({ status: 'active', billingCycle: 1, collectionMethod: 'pix_automatic' });
    expect(await readSession(s, cs.id)).toMatchObject({
      status: 'complete',
      transaction_id: t.id,
      subscription_id: subscriptionId,
    });
    await waitFor(() => webhooks('subscription.activated', ofSubscription(subscriptionId)).length === 1);
    // The poll the page makes answers the payment and the active subscription.
    const polled = await api.get(`/api/public/checkout/${cs.id}/payments/${pending.body.paymentId}`);
    expect(polled.body).toMatchObject({ status: 'paid', subscription: { status: 'active' } });
    // A repeated notification changes nothing.
    await api.post(`/api/test-helpers/transactions/${t.id}/pay`, {}, { token: s.key });
    expect(webhooks('subscription.activated', ofSubscription(subscriptionId))).toHaveLength(1);
  });

  it('through the sandbox helper: a card pays the session as the page does', async () => {
    const s = await seller();
    const p = await price(s);
    const cs = await session(s, { price_id: String(p.id) });
    const res = await api.post(
      `/api/test-helpers/checkout/sessions/${cs.id}/pay`,
      { paymentMethod: 'card' },
      { token: s.key },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'complete', subscription_id: expect.any(Number) });
  });
});
