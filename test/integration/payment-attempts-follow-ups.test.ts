import { describe, expect, it } from 'vitest';
import { addDays, saoPauloDate } from '#shared/dates';
import {
  ASAAS_KEY,
  type AsaasLive,
  connectAsaas,
  LIVE_CUSTOMER,
  liveKeyOf,
  useAsaasLive,
} from '../support/asaas-live';
import { FAKE_CARDS, type FakeAsaas } from '../support/fake-asaas/server';
import type { client } from '../support/runtime';

/**
 * Payment attempts written ahead beyond a plain sale and a refund (issue 34): a checkout's sale
 * recorded by its reconciler does what the page does after a sale (the session completes, its
 * subscription starts), a cancel, the registrations of carnê installments and scheduled charges,
 * and Pix Automático debits are written ahead and settled by asking the provider.
 */
let fake: FakeAsaas;
let api: ReturnType<typeof client>;
let live: AsaasLive;
let nextSeller = 341_000;

useAsaasLive((l) => {
  live = l;
  ({ fake, api } = l);
});

const buyer = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '11987654321',
};
const card = {
  number: FAKE_CARDS.approved,
  holderName: 'MARIA SOUZA',
  expiryMonth: 12,
  expiryYear: 2034,
  cvv: '123',
};

async function connectedSeller() {
  const { jwt, key } = await liveKeyOf(live, nextSeller++);
  expect((await connectAsaas(live, jwt)).status).toBe(200);
  const product = (
    await api.post(
      '/api/products',
      { name: 'Clube', image: 'https://cdn.example.com/c.png', value: 100, installments: 6 },
      { token: key },
    )
  ).body;
  // A first sale registers the buyer at Asaas: the next sale's first call is the payment itself.
  const warm = await api.post('/api/transactions', {
    productId: product.uuid,
    paymentMethod: 'pix',
    customer: buyer,
  });
  expect(warm.status).toBe(201);
  return { key, jwt, product: product as { id: number; uuid: string } };
}

type Seller = Awaited<ReturnType<typeof connectedSeller>>;

async function created(key: string, path: string, body: unknown) {
  const res = await api.post(path, body, { token: key });
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

const advance = async (seconds: number) =>
  expect((await api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);

async function eventsOf(key: string) {
  const listed = (await api.get('/api/events?limit=100', { token: key })).body.data as {
    event: string;
    data: Record<string, unknown>;
  }[];
  return listed;
}

const readSession = async (s: Seller, id: string) =>
  (await api.get(`/api/checkout/sessions/${id}`, { token: s.key })).body.data;

/** The card payment of a session whose answer from Asaas is lost: 503, the charge made at Asaas. */
async function payLosingTheAnswer(sessionId: string) {
  const before = fake.paymentsOf(ASAAS_KEY).length;
  fake.failOn('POST', '/v3/payments', { status: 200, lose: true });
  const lost = await api.post(`/api/public/checkout/${sessionId}/pay`, {
    paymentMethod: 'card',
    customer: buyer,
    card,
  });
  expect(lost.status, JSON.stringify(lost.body)).toBe(503);
  const charged = fake.paymentsOf(ASAAS_KEY).slice(before);
  expect(charged).toHaveLength(1);
  return Number(charged[0].externalReference);
}

describe("a checkout session's card sale recorded by the attempt's reconciler", () => {
  it('completes the session with the transaction, with its completed event', async () => {
    const s = await connectedSeller();
    const session = await created(s.key, '/api/checkout/sessions', {
      product_id: s.product.id,
      success_url: 'https://shop.example.com/ok',
    });
    const gatewayPayId = await payLosingTheAnswer(session.id);
    expect((await readSession(s, session.id)).status).toBe('open');

    await advance(3 * 60);

    const after = await readSession(s, session.id);
    expect(after.status).toBe('complete');
    const t = (await api.get(`/api/transactions/${after.transaction_id}`, { token: s.key })).body;
    expect(t).toMatchObject({ gatewayPayId, status: 'captured', checkoutSessionId: session.id });
    const events = await eventsOf(s.key);
    expect(
      events.filter((e) => e.event === 'checkout.session.completed' && e.data.id === session.id),
    ).toHaveLength(1);
    // Twice changes nothing: a later look finds the attempt settled.
    await advance(10 * 60);
    expect((await eventsOf(s.key)).filter((e) => e.event === 'checkout.session.completed')).toHaveLength(1);
  });

  it('starts the subscription of a session with a price, active on the kept card, and completes the session with it', async () => {
    const s = await connectedSeller();
    const price = await created(s.key, `/api/products/${s.product.id}/prices`, {
      name: 'Mensal',
      unitAmount: 49.9,
      billingInterval: 'month',
    });
    const session = await created(s.key, '/api/checkout/sessions', {
      product_id: s.product.id,
      price_id: String(price.id),
      success_url: 'https://shop.example.com/ok',
    });
    await payLosingTheAnswer(session.id);
    expect((await api.get('/api/subscriptions', { token: s.key })).body.data).toHaveLength(0);

    await advance(3 * 60);

    const after = await readSession(s, session.id);
    expect(after).toMatchObject({ status: 'complete' });
    expect(after.subscription_id).toBeTruthy();
    const subscription = (await api.get(`/api/subscriptions/${after.subscription_id}`, { token: s.key }))
      .body;
    expect(subscription, JSON.stringify(subscription)).toMatchObject({
      status: 'active',
      billingCycle: 1,
      collectionMethod: 'card',
    });
    expect(subscription.paymentMethod).toMatchObject({ cardLast4: FAKE_CARDS.approved.slice(-4) });
    const names = (await eventsOf(s.key)).map((e) => e.event);
    for (const name of ['subscription.created', 'subscription.activated', 'checkout.session.completed'])
      expect(
        names.filter((n) => n === name),
        name,
      ).toHaveLength(1);
  });
});

describe('a live cancel the provider did not answer', () => {
  async function pendingPix() {
    const s = await connectedSeller();
    const sold = await api.post('/api/transactions', {
      productId: s.product.uuid,
      paymentMethod: 'pix',
      customer: buyer,
    });
    expect(sold.status).toBe(201);
    const payment = fake.paymentByReference(String(sold.body.gatewayPayId));
    if (!payment) throw new Error('the pix is not at the fake');
    const read = async () =>
      (await api.get(`/api/transactions/${sold.body.id}`, { token: s.key })).body as { status: string };
    const cancel = () => api.call('DELETE', `/api/transactions/${sold.body.gatewayPayId}`, { token: s.jwt });
    const canceledEvents = async () =>
      (await eventsOf(s.key)).filter((e) => e.event === 'transaction.canceled' && e.data.id === sold.body.id);
    return { s, payment, read, cancel, canceledEvents };
  }

  it('made but unanswered: its reconciler finds it canceled and records it, once', async () => {
    const c = await pendingPix();
    fake.failOn('DELETE', `/v3/payments/${c.payment.id}`, { status: 200, lose: true });
    expect((await c.cancel()).status).toBe(503);
    expect(fake.payment(c.payment.id)?.deleted).toBe(true);
    expect((await c.read()).status).toBe('pendingPix');
    const deletes = () => fake.requests.filter((r) => r.method === 'DELETE' && r.path.includes(c.payment.id));
    expect(deletes()).toHaveLength(1);

    await advance(3 * 60);
    expect((await c.read()).status).toBe('cancel');
    expect(await c.canceledEvents()).toHaveLength(1);
    await advance(10 * 60);
    // Asked by status, never deleted again.
    expect(deletes()).toHaveLength(1);
    expect(await c.canceledEvents()).toHaveLength(1);
  });

  it('never made: its reconciler asks the cancel again and records it', async () => {
    const c = await pendingPix();
    fake.failOn('DELETE', `/v3/payments/${c.payment.id}`, { status: 502 });
    expect((await c.cancel()).status).toBe(503);
    expect(fake.payment(c.payment.id)?.deleted).toBeFalsy();

    await advance(3 * 60);
    expect(fake.payment(c.payment.id)?.deleted).toBe(true);
    expect((await c.read()).status).toBe('cancel');
    expect(await c.canceledEvents()).toHaveLength(1);
  });

  it('paid at the provider meanwhile: its reconciler records the payment and cancels nothing', async () => {
    const c = await pendingPix();
    fake.failOn('DELETE', `/v3/payments/${c.payment.id}`, { status: 502 });
    expect((await c.cancel()).status).toBe(503);
    // The buyer pays, and its notification is lost.
    const paid = fake.payment(c.payment.id);
    if (!paid) throw new Error('the pix is gone from the fake');
    paid.status = 'RECEIVED';

    await advance(3 * 60);
    expect(fake.payment(c.payment.id)?.deleted).toBeFalsy();
    expect((await c.read()).status).toBe('payedPix');
    expect(await c.canceledEvents()).toHaveLength(0);
  });
});

describe("a carnê installment's boleto registered at Asaas, the answer lost", () => {
  async function carneSeller() {
    const s = await connectedSeller();
    const customer = (await api.post('/api/v1/customers', LIVE_CUSTOMER, { token: s.key })).body;
    const product = (
      await api.post(
        '/api/products',
        {
          name: 'Curso de Violão',
          image: 'https://cdn.example.com/v.png',
          value: 1000,
          boleto: true,
          carne: { enabled: true, maxInstallments: 6, interestFactors: { '3': 1.0349 } },
        },
        { token: s.key },
      )
    ).body;
    const plan = () =>
      api.post(
        '/api/v1/installment-plans',
        {
          productId: product.uuid,
          customerId: customer.id,
          installments: 3,
          firstDueDate: addDays(saoPauloDate(live.runtime.clock.now()), 5),
        },
        { token: s.key },
      );
    return { ...s, plan };
  }
  const boletos = (before: number) =>
    fake
      .paymentsOf(ASAAS_KEY)
      .slice(before)
      .filter((p) => p.billingType === 'BOLETO');

  it('leaves no boleto at Asaas that no transaction names: its reconciler cancels it there', async () => {
    const s = await carneSeller();
    const before = fake.paymentsOf(ASAAS_KEY).length;
    fake.failOn('POST', '/v3/payments', { status: 200, lose: true });
    const lost = await s.plan();
    expect(lost.status, JSON.stringify(lost.body)).toBe(503);
    expect((await api.get('/api/v1/installment-plans', { token: s.key })).body.totalCount).toBe(0);
    const [orphan] = boletos(before);
    expect(orphan?.deleted).toBeFalsy();

    await advance(21 * 60);
    expect(fake.payment(orphan.id)?.deleted).toBe(true);
  });

  it('keeps the boleto of a plan that was written', async () => {
    const s = await carneSeller();
    const created = await s.plan();
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { transactionId } = created.body.installmentsDetail[0];
    const t = (await api.get(`/api/transactions/${transactionId}`, { token: s.key })).body;
    const boleto = fake.paymentByReference(String(t.gatewayPayId));
    expect(boleto, JSON.stringify(t)).toBeTruthy();

    await advance(21 * 60);
    expect(fake.payment(boleto?.id as string)?.deleted).toBeFalsy();
  });
});

describe("a scheduled charge's pix registered at Asaas, the answer lost", () => {
  it('ends with every payment Asaas holds for it named by one of its transactions', async () => {
    const s = await connectedSeller();
    const customer = (await api.post('/api/v1/customers', LIVE_CUSTOMER, { token: s.key })).body;
    const before = fake.paymentsOf(ASAAS_KEY).length;
    fake.failOn('POST', '/v3/payments', { status: 200, lose: true });
    const created = await api.post(
      '/api/v1/scheduled-charges',
      {
        customerId: customer.id,
        amount: 150.5,
        dueDate: addDays(saoPauloDate(live.runtime.clock.now()), 2),
        methods: ['pix'],
        type: 'one_time',
        description: 'Aula particular',
      },
      { token: s.key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(fake.paymentsOf(ASAAS_KEY).length).toBeGreaterThan(before);

    await advance(21 * 60);

    const detail = (await api.get(`/api/v1/scheduled-charges/${created.body.id}`, { token: s.key })).body;
    const named = new Set(
      (detail.cycles[0].issued as { gatewayPayId: number }[]).map((t) => String(t.gatewayPayId)),
    );
    const held = fake
      .paymentsOf(ASAAS_KEY)
      .slice(before)
      .filter((p) => !p.deleted);
    expect(held.length).toBeGreaterThan(0);
    for (const p of held)
      expect(named.has(String(p.externalReference)), p.externalReference ?? '').toBe(true);
    expect(
      fake
        .paymentsOf(ASAAS_KEY)
        .slice(before)
        .some((p) => p.deleted),
    ).toBe(true);
  });
});
