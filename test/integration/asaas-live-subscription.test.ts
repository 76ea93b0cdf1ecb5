import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { saoPauloDate } from '#shared/dates';
import { type AsaasLive, connectAsaas, LIVE_CUSTOMER, useAsaasLive } from '../support/asaas-live';
import { FAKE_CARDS, type FakeAsaas } from '../support/fake-asaas/server';
import type { client } from '../support/runtime';

/** A live subscription renews on the card token Asaas kept when the buyer saved the card. */

let fake: FakeAsaas;
let runtime: Runtime;
let api: ReturnType<typeof client>;

let live: AsaasLive;

useAsaasLive((l) => {
  live = l;
  ({ fake, runtime, api } = l);
});

function validExpiry() {
  const [y, m] = saoPauloDate(runtime.clock.now()).split('-').map(Number);
  return { expiryMonth: m, expiryYear: y + 2 };
}

async function advanceTo(at: Date) {
  const seconds = Math.ceil((at.getTime() - runtime.clock.now().getTime()) / 1000);
  if (seconds > 0) expect((await api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);
}

describe('a live subscription on Asaas', () => {
  it('starts on a saved Asaas card token and renews on it at the period end', async () => {
    const now = runtime.clock.now();
    const sellerId = await runtime.deps.repos.sellers.create('Clube', now);
    const jwt = await runtime.issuer.sign(sellerId, { now });
    const key = (await api.post('/api/api-keys', { name: 'live', environment: 'live' }, { token: jwt })).body
      .key as string;
    const connected = await connectAsaas(live, jwt);
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    const customer = (await api.post('/api/v1/customers', LIVE_CUSTOMER, { token: key })).body;
    const product = (
      await api.post(
        '/api/products',
        { name: 'Clube do livro', image: 'https://cdn.example.com/c.png', value: 100, installments: 1 },
        { token: key },
      )
    ).body;

    const paid = await api.post('/api/transactions', {
      productId: product.uuid,
      paymentMethod: 'creditcard',
      customer: LIVE_CUSTOMER,
      card: { number: FAKE_CARDS.approved, holderName: 'MARIA SOUZA', ...validExpiry(), cvv: '123' },
      saveCard: true,
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const methods = (await api.get(`/api/v1/customers/${customer.uuid}/payment-methods`, { token: key }))
      .body;
    const card = methods.data.find((m: { last4: string }) => m.last4 === FAKE_CARDS.approved.slice(-4));
    expect(card, JSON.stringify(methods)).toBeTruthy();

    const price = (
      await api.post(
        `/api/products/${product.id}/prices`,
        { name: 'Semanal', unitAmount: 9.9, billingInterval: 'week' },
        { token: key },
      )
    ).body;
    const started = await api.post(
      '/api/subscriptions',
      { customerId: customer.id, priceId: price.id, paymentMethodId: card.id },
      { token: key },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const sub = started.body;
    expect(sub).toMatchObject({ status: 'active', billingCycle: 1 });

    const tokenCharges = () =>
      fake.requests.filter(
        (r) => r.method === 'POST' && r.path === '/v3/payments' && r.body?.creditCardToken,
      );
    const before = tokenCharges().length;
    expect(before).toBeGreaterThanOrEqual(1);

    await advanceTo(new Date(new Date(sub.currentPeriodEnd).getTime() + 3_600_000));
    const renewed = (await api.get(`/api/subscriptions/${sub.id}`, { token: key })).body;
    expect(renewed).toMatchObject({ status: 'active', billingCycle: 2, failedPaymentCount: 0 });
    expect(tokenCharges().length).toBe(before + 1);
    const renewal = tokenCharges().at(-1);
    expect(renewal?.body).toMatchObject({ billingType: 'CREDIT_CARD', value: 9.9 });
    expect(JSON.stringify(renewal?.body)).not.toContain(FAKE_CARDS.approved);
    const events = (await api.get(`/api/subscriptions/${sub.id}/events`, { token: key })).body;
    expect(events[0]).toMatchObject({
      eventType: 'payment_success',
      eventData: { amount: 9.9, billingCycle: 2 },
    });
    const t = (await api.get(`/api/transactions/${events[0].eventData.transactionId}`, { token: key })).body;
    expect(t).toMatchObject({
      status: 'captured',
      isRecurring: true,
      subscriptionId: sub.id,
      billingCycle: 2,
    });
  });
});
