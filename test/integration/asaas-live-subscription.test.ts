import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../infra/local/runtime';
import { saoPauloDate } from '../../shared/dates';
import { FAKE_CARDS, type FakeAsaas, startFakeAsaas } from '../support/fake-asaas/server';
import { client, startTestRuntime } from '../support/runtime';

/** A live subscription renews on the card token Asaas kept when the buyer saved the card. */

const ASAAS_KEY = '$aact_YTU5YTE0M2M2N2I4MTliNzk0YTI5N2U5MzdjNWZmNDQ6OjAwMDAwMDAwMDAwMDAwNjQ3NTI6OiRhYWNoXzQ';

let fake: FakeAsaas;
let runtime: Runtime;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  fake = await startFakeAsaas();
  fake.addAccount(ASAAS_KEY, 'Padaria da Maria LTDA');
  runtime = await startTestRuntime({ asaasBaseUrl: fake.baseUrl });
  api = client(runtime.baseUrl);
});
afterAll(async () => {
  await runtime?.stop();
  await fake?.stop();
});

const customerBody = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '52998224725',
  phone: '11987654321',
  personType: 'fisica',
};

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
    const connected = await api.call('PUT', '/api/provider-connections/asaas', {
      token: jwt,
      body: { apiKey: ASAAS_KEY, environment: 'sandbox' },
    });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    fake.setWebhook(ASAAS_KEY, connected.body.webhook.url, connected.body.webhook.authToken);
    const customer = (await api.post('/api/v1/customers', customerBody, { token: key })).body;
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
      customer: customerBody,
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
