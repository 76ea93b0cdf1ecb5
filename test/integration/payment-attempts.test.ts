import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { saoPauloDate } from '#shared/dates';
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
 * Payment attempts written ahead (issue 34): a live charge whose answer is lost, or whose provider
 * call never arrived, ends as exactly one transaction per payment at the provider: recorded by a
 * retry with the same X-Idempotency-Key or by the attempt's reconciler, never charged twice.
 */
let fake: FakeAsaas;
let runtime: Runtime;
let api: ReturnType<typeof client>;
let live: AsaasLive;
let nextSeller = 171_000;

useAsaasLive((l) => {
  live = l;
  ({ fake, runtime, api } = l);
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
      { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100, installments: 6 },
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
  return { key, product };
}

const sale = (productUuid: string, idempotencyKey: string, method = 'creditcard') =>
  api.call('POST', '/api/transactions', {
    body: {
      productId: productUuid,
      paymentMethod: method,
      customer: buyer,
      ...(method === 'creditcard' ? { card } : {}),
    },
    headers: { 'x-idempotency-key': idempotencyKey },
  });

/** The fake's payments of a gateway id, and our transactions of it. */
async function held(key: string, gatewayPayId: number) {
  const payments = [...fake.paymentsOf(ASAAS_KEY)].filter(
    (p) => p.externalReference === String(gatewayPayId),
  );
  const listed = (await api.get('/api/transactions?limit=100', { token: key })).body.data as {
    gatewayPayId: number;
  }[];
  return {
    payments: payments.length,
    transactions: listed.filter((t) => t.gatewayPayId === gatewayPayId).length,
  };
}

const advance = async (seconds: number) =>
  expect((await api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);

describe('a live card charge whose answer is lost', () => {
  it('answers 503 with nothing recorded, and the retry with the same key records the one payment', async () => {
    const s = await connectedSeller();
    const before = fake.paymentsOf(ASAAS_KEY).length;
    fake.failNext({ status: 200, lose: true });

    const lost = await sale(s.product.uuid, 'order-1');
    expect(lost.status).toBe(503);
    expect(lost.body.code).toBe('provider_unavailable');
    expect(fake.paymentsOf(ASAAS_KEY)).toHaveLength(before + 1);
    const charged = fake.paymentsOf(ASAAS_KEY).at(-1);

    const retried = await sale(s.product.uuid, 'order-1');
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ status: 'captured', paymentMethod: 'creditcard' });
    expect(String(retried.body.gatewayPayId)).toBe(charged?.externalReference);
    expect(fake.paymentsOf(ASAAS_KEY)).toHaveLength(before + 1);
    expect(await held(s.key, retried.body.gatewayPayId)).toEqual({ payments: 1, transactions: 1 });

    // Its reconciler, due later, finds the attempt settled: nothing changes.
    await advance(10 * 60);
    expect(await held(s.key, retried.body.gatewayPayId)).toEqual({ payments: 1, transactions: 1 });
  });

  it('is recorded by the reconciler without any retry, with its events', async () => {
    const s = await connectedSeller();
    fake.failNext({ status: 200, lose: true });
    expect((await sale(s.product.uuid, 'order-2')).status).toBe(503);
    const charged = fake.paymentsOf(ASAAS_KEY).at(-1);
    const gatewayPayId = Number(charged?.externalReference);
    expect(await held(s.key, gatewayPayId)).toEqual({ payments: 1, transactions: 0 });

    await advance(3 * 60);

    expect(await held(s.key, gatewayPayId)).toEqual({ payments: 1, transactions: 1 });
    const events = (await api.get('/api/events?limit=100', { token: s.key })).body.data as {
      event: string;
      data: { gatewayPayId?: number };
    }[];
    const mine = events.filter((e) => e.data.gatewayPayId === gatewayPayId).map((e) => e.event);
    expect(mine.sort()).toEqual(['transaction.created', 'transaction.payment.succeeded']);
    // A retry after that answers the recorded sale, and charges nothing.
    const retried = await sale(s.product.uuid, 'order-2');
    expect(retried.status).toBe(201);
    expect(retried.body.gatewayPayId).toBe(gatewayPayId);
    expect(await held(s.key, gatewayPayId)).toEqual({ payments: 1, transactions: 1 });
  });
});

describe('a live charge that never reached the provider', () => {
  it('is voided by the reconciler, and a retry with the same key charges once under the same reference', async () => {
    const s = await connectedSeller();
    const before = fake.paymentsOf(ASAAS_KEY).length;
    fake.failNext({ status: 502 });
    expect((await sale(s.product.uuid, 'order-3', 'pix')).status).toBe(503);
    expect(fake.paymentsOf(ASAAS_KEY)).toHaveLength(before);

    await advance(3 * 60);
    const retried = await sale(s.product.uuid, 'order-3', 'pix');
    expect(retried.status).toBe(201);
    expect(retried.body.status).toBe('pendingPix');
    expect(fake.paymentsOf(ASAAS_KEY)).toHaveLength(before + 1);
    expect(await held(s.key, retried.body.gatewayPayId)).toEqual({ payments: 1, transactions: 1 });
  });
});

describe('a live refund the provider did not answer', () => {
  async function capturedSale() {
    const s = await connectedSeller();
    const sold = await sale(s.product.uuid, `paid-${nextSeller}`);
    expect(sold.status).toBe(201);
    const payment = fake.paymentByReference(String(sold.body.gatewayPayId));
    return { ...s, id: sold.body.id as number, payment };
  }
  const refundsAt = (c: Awaited<ReturnType<typeof capturedSale>>) =>
    fake.payment(c.payment?.id as string)?.refunds ?? [];

  it('made but unanswered: stays recorded, and its reconciler finds it instead of refunding twice', async () => {
    const c = await capturedSale();
    fake.failOn('POST', `/v3/payments/${c.payment?.id}/refund`, { status: 200, lose: true });
    const refund = await api.post(`/api/transactions/${c.id}/refund`, { amount: 40 }, { token: c.key });
    expect(refund.status).toBe(503);
    expect(refundsAt(c)).toHaveLength(1);
    const recorded = (await api.get(`/api/transactions/${c.id}`, { token: c.key })).body;
    expect(recorded.refundedAmount).toBe(40);

    await advance(3 * 60);
    expect(refundsAt(c)).toHaveLength(1);
    expect((await api.get(`/api/transactions/${c.id}`, { token: c.key })).body.refundedAmount).toBe(40);
  });

  it('never made: stays recorded, and its reconciler makes it once', async () => {
    const c = await capturedSale();
    fake.failOn('POST', `/v3/payments/${c.payment?.id}/refund`, { status: 502 });
    expect((await api.post(`/api/transactions/${c.id}/refund`, {}, { token: c.key })).status).toBe(503);
    expect(refundsAt(c)).toHaveLength(0);
    expect((await api.get(`/api/transactions/${c.id}`, { token: c.key })).body.status).toBe('reversed');

    await advance(3 * 60);
    expect(refundsAt(c)).toHaveLength(1);
    await advance(10 * 60);
    expect(refundsAt(c)).toHaveLength(1);
  });

  it('refused by the provider: undone, with nothing left to reconcile', async () => {
    const c = await capturedSale();
    fake.failOn('POST', `/v3/payments/${c.payment?.id}/refund`, {
      status: 400,
      body: { errors: [{ code: 'invalid_action', description: 'Não permitido.' }] },
    });
    expect((await api.post(`/api/transactions/${c.id}/refund`, {}, { token: c.key })).status).toBe(400);
    expect((await api.get(`/api/transactions/${c.id}`, { token: c.key })).body).toMatchObject({
      status: 'captured',
      refundedAmount: 0,
    });
    await advance(3 * 60);
    expect(refundsAt(c)).toHaveLength(0);
  });
});

describe("a scheduled charge's cycle paid by card at its link, the answer lost", () => {
  it('is recorded once: the buyer paying again finds the first payment, never a second', async () => {
    const { jwt, key } = await liveKeyOf(live, nextSeller++);
    const customer = (await api.post('/api/v1/customers', LIVE_CUSTOMER, { token: key })).body;
    expect((await connectAsaas(live, jwt)).status).toBe(200);
    const created = await api.post(
      '/api/v1/scheduled-charges',
      {
        customerId: customer.id,
        amount: 49.9,
        dueDate: saoPauloDate(runtime.clock.now()),
        methods: ['card'],
        type: 'one_time',
        description: 'Aula',
      },
      { token: key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = async () =>
      (await api.get(`/api/v1/scheduled-charges/${created.body.id}`, { token: key })).body;
    const payUrl = String((await read()).cycles[0].payUrl);
    const pay = () => api.post(`/api/public/cobranca/${payUrl.split('/').pop()}/card`, { card });
    const before = fake.paymentsOf(ASAAS_KEY).length;
    fake.failOn('POST', '/v3/payments', { status: 200, lose: true });
    const lost = await pay();
    expect([503, 409]).toContain(lost.status);
    expect(fake.paymentsOf(ASAAS_KEY).length).toBeGreaterThan(before);

    // Another tab at once is refused while the first payment may still be on its way.
    expect((await pay()).body.code).toBe('payment_in_progress');
    await advance(60);
    const again = await pay();
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.status).toBe('paid');
    const payments = fake.paymentsOf(ASAAS_KEY).slice(before);
    expect(payments).toHaveLength(1);
    expect((await read()).cycles[0]).toMatchObject({ status: 'paid', paidBy: 'transaction' });
    await advance(10 * 60);
    expect(fake.paymentsOf(ASAAS_KEY).slice(before)).toHaveLength(1);
    expect(fake.payment(payments[0].id)?.status).toBe('CONFIRMED');
  });
});
