import { describe, expect, it } from 'vitest';
import {
  ASAAS_KEY,
  type AsaasLive,
  connectAsaas,
  liveKeyOf,
  OTHER_KEY,
  useAsaasLive,
} from '../support/asaas-live';
import { FAKE_CARDS, type FakeAsaas } from '../support/fake-asaas/server';
import { Receiver, waitFor } from '../support/receiver';
import type { client } from '../support/runtime';

/** Refunds and chargebacks made in the Asaas panel reach the transaction through its webhook. */

let fake: FakeAsaas;
let api: ReturnType<typeof client>;
let nextSeller = 161_000;

let live: AsaasLive;

useAsaasLive(
  (l) => {
    live = l;
    ({ fake, api } = l);
  },
  {
    [ASAAS_KEY]: 'Padaria da Maria LTDA',
    [OTHER_KEY]: 'Outra Loja',
  },
);

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

async function connectedSeller(apiKey = ASAAS_KEY) {
  const sellerId = nextSeller++;
  const { jwt, key } = await liveKeyOf(live, sellerId);
  const product = (
    await api.post(
      '/api/products',
      { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100, installments: 6 },
      { token: key },
    )
  ).body;
  const res = await connectAsaas(live, jwt, apiKey);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { key, product, authToken: res.body.webhook.authToken as string };
}

async function paidCardSale(s: Awaited<ReturnType<typeof connectedSeller>>) {
  const res = await api.post('/api/transactions', {
    productId: s.product.uuid,
    paymentMethod: 'creditcard',
    customer: buyer,
    card,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const payment = fake.paymentByReference(String(res.body.gatewayPayId));
  if (!payment) throw new Error('no payment at the fake');
  return { tx: res.body, payment };
}

const read = async (key: string, id: number) =>
  (await api.get(`/api/transactions/${id}`, { token: key })).body;

describe('a refund made in the Asaas panel', () => {
  it('applies a partial then the total refund with the same transition and events as our own refund', async () => {
    const s = await connectedSeller();
    const receiver = await new Receiver().start();
    try {
      await api.post('/api/webhook-endpoints', { url: receiver.url, events: ['*'] }, { token: s.key });
      const { tx, payment } = await paidCardSale(s);

      const partial = await fake.refundInPanel(payment.id, 30.25);
      expect(partial?.status).toBe(200);
      expect(await partial?.json()).toMatchObject({ applied: true, status: tx.status });
      expect(await read(s.key, tx.id)).toMatchObject({ status: tx.status, refundedAmount: 30.25 });

      const total = await fake.refundInPanel(payment.id);
      expect(await total?.json()).toMatchObject({ applied: true, status: 'reversed' });
      const after = await read(s.key, tx.id);
      expect(after).toMatchObject({ status: 'reversed', refundedAmount: 100 });
      expect(after.refunds.map((r: { amount: number }) => r.amount)).toEqual([30.25, 69.75]);

      const refunded = () => receiver.received.filter((r) => r.json.event === 'transaction.refunded');
      await waitFor(() => refunded().length >= 2);
      expect(refunded()).toHaveLength(2);
    } finally {
      await receiver.stop();
    }
  });

  it('applies an event id once, and a refund we made through our API is not counted twice', async () => {
    const s = await connectedSeller();
    const { tx, payment } = await paidCardSale(s);
    const ours = await api.post(`/api/transactions/${tx.id}/refund`, { amount: 40 }, { token: s.key });
    expect(ours.status, JSON.stringify(ours.body)).toBeLessThan(300);
    // Asaas notifies the refund we asked for: its total (40) is what we already recorded.
    const echoed = await fake.sendEvent(payment, 'PAYMENT_PARTIALLY_REFUNDED', 'evt_ours_1');
    expect(await echoed?.json()).toMatchObject({ applied: false, reason: 'refund already recorded' });
    expect(await read(s.key, tx.id)).toMatchObject({ refundedAmount: 40 });

    // Then the seller refunds 10 more in the panel; the same event delivered twice adds it once.
    payment.refunds = [...(payment.refunds ?? []), { id: 'ref_panel', value: 10, status: 'DONE' }];
    const first = await fake.sendEvent(payment, 'PAYMENT_PARTIALLY_REFUNDED', 'evt_panel_1');
    expect(await first?.json()).toMatchObject({ applied: true });
    const again = await fake.sendEvent(payment, 'PAYMENT_PARTIALLY_REFUNDED', 'evt_panel_1');
    expect(await again?.json()).toMatchObject({ applied: false });
    // In progress then done: the same total, recorded once.
    const inProgress = await fake.sendEvent(payment, 'PAYMENT_REFUND_IN_PROGRESS', 'evt_panel_2');
    expect(await inProgress?.json()).toMatchObject({ applied: false });
    const tx2 = await read(s.key, tx.id);
    expect(tx2).toMatchObject({ refundedAmount: 50 });
    expect(tx2.refunds).toHaveLength(2);
  });

  it('ignores cancelled refunds, acknowledges an event without an amount, and never refunds a pending sale', async () => {
    const s = await connectedSeller();
    const { tx, payment } = await paidCardSale(s);
    payment.refunds = [{ id: 'ref_x', value: 99, status: 'CANCELLED' }];
    const cancelled = await fake.sendEvent(payment, 'PAYMENT_PARTIALLY_REFUNDED');
    expect(cancelled?.status).toBe(200);
    expect(await cancelled?.json()).toMatchObject({ applied: false });
    expect(await read(s.key, tx.id)).toMatchObject({ refundedAmount: 0 });

    const pix = (
      await api.post('/api/transactions', {
        productId: s.product.uuid,
        paymentMethod: 'pix',
        customer: buyer,
      })
    ).body;
    const pixPayment = fake.paymentByReference(String(pix.gatewayPayId));
    if (!pixPayment) throw new Error('no pix payment');
    pixPayment.refunds = [{ id: 'ref_y', value: 100, status: 'DONE' }];
    const early = await fake.sendEvent(pixPayment, 'PAYMENT_REFUNDED');
    expect(early?.status).toBe(200);
    expect(await early?.json()).toMatchObject({ applied: false, status: 'pendingPix' });
  });

  it("answers 404 for another seller's payment and 400 naming the field for a malformed refund list", async () => {
    const s = await connectedSeller();
    const other = await connectedSeller(OTHER_KEY);
    const { tx, payment } = await paidCardSale(s);
    const event = {
      id: 'evt_refund_x',
      event: 'PAYMENT_REFUNDED',
      payment: { id: payment.id, externalReference: String(tx.gatewayPayId), refunds: [{ value: 100 }] },
    };
    const post = (token: string, body: unknown) =>
      api.post('/api/provider-connections/asaas/notifications', body, {
        headers: { 'asaas-access-token': token },
      });
    expect((await post(other.authToken, event)).status).toBe(404);
    const bad = await post(s.authToken, {
      ...event,
      payment: { ...event.payment, refunds: [{ value: 'x' }] },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('refunds');
    expect(await read(s.key, tx.id)).toMatchObject({ refundedAmount: 0 });
  });
});

describe('a chargeback notified by Asaas', () => {
  it('reverses the sale once, by the request or by the dispute when the request never came', async () => {
    const s = await connectedSeller();
    const receiver = await new Receiver().start();
    try {
      await api.post('/api/webhook-endpoints', { url: receiver.url, events: ['*'] }, { token: s.key });
      const { tx, payment } = await paidCardSale(s);
      const requested = await fake.sendEvent(payment, 'PAYMENT_CHARGEBACK_REQUESTED');
      expect(await requested?.json()).toMatchObject({ applied: true, status: 'reversed' });
      const dispute = await fake.sendEvent(payment, 'PAYMENT_CHARGEBACK_DISPUTE');
      expect(await dispute?.json()).toMatchObject({ applied: false, status: 'reversed' });
      await waitFor(() => receiver.received.some((r) => r.json.event === 'transaction.chargeback'));
      expect(receiver.received.filter((r) => r.json.event === 'transaction.chargeback')).toHaveLength(1);

      const second = await paidCardSale(s);
      const onlyDispute = await fake.sendEvent(second.payment, 'PAYMENT_CHARGEBACK_DISPUTE');
      expect(await onlyDispute?.json()).toMatchObject({ applied: true, status: 'reversed' });
      expect(await read(s.key, second.tx.id)).toMatchObject({ status: 'reversed' });
      expect(await read(s.key, tx.id)).toMatchObject({ status: 'reversed' });
    } finally {
      await receiver.stop();
    }
  });
});

describe('a chargeback won at Asaas', () => {
  it('restores the sale on PAYMENT_AWAITING_CHARGEBACK_REVERSAL, once, and tells the seller', async () => {
    const s = await connectedSeller();
    const receiver = await new Receiver().start();
    try {
      await api.post(
        '/api/webhook-endpoints',
        { url: receiver.url, events: ['transaction.chargeback', 'transaction.chargeback_reversed'] },
        { token: s.key },
      );
      const { tx, payment } = await paidCardSale(s);
      // Before any chargeback, a won dispute is not applicable: nothing changes.
      const early = await fake.sendEvent(payment, 'PAYMENT_AWAITING_CHARGEBACK_REVERSAL');
      expect(await early?.json()).toMatchObject({ applied: false, status: 'captured' });

      expect(await (await fake.chargeback(payment.id, 'CHARGEBACK_REQUESTED'))?.json()).toMatchObject({
        applied: true,
        status: 'reversed',
      });
      expect(await read(s.key, tx.id)).toMatchObject({ chargeback: { status: 'open', closedAt: null } });
      expect(await (await fake.chargeback(payment.id, 'CHARGEBACK_DISPUTE'))?.json()).toMatchObject({
        applied: false,
        status: 'reversed',
      });

      const eventId = 'evt_chargeback_won_1';
      const won = await fake.chargeback(payment.id, 'AWAITING_CHARGEBACK_REVERSAL', eventId);
      expect(won?.status).toBe(200);
      expect(await won?.json()).toMatchObject({ applied: true, status: 'captured' });
      const again = await fake.chargeback(payment.id, 'AWAITING_CHARGEBACK_REVERSAL', eventId);
      expect(await again?.json()).toMatchObject({ applied: false, status: 'captured' });
      // The card's later PAYMENT_RECEIVED (the balance released) changes nothing either.
      expect(await (await fake.pay(payment.id))?.json()).toMatchObject({
        applied: false,
        status: 'captured',
      });

      const after = await read(s.key, tx.id);
      expect(after).toMatchObject({
        status: 'captured',
        failureCode: null,
        chargeback: { status: 'won' },
      });
      expect(after.chargeback.closedAt).toEqual(expect.any(String));

      await waitFor(() => receiver.received.some((r) => r.json.event === 'transaction.chargeback_reversed'));
      const events = receiver.received.map((r) => r.json.event);
      expect(events.filter((e) => e === 'transaction.chargeback')).toHaveLength(1);
      expect(events.filter((e) => e === 'transaction.chargeback_reversed')).toHaveLength(1);
      const delivered = receiver.received.find((r) => r.json.event === 'transaction.chargeback_reversed');
      expect(delivered?.json.data).toMatchObject({ id: tx.id, status: 'captured', environment: 'live' });
    } finally {
      await receiver.stop();
    }
  });
});
