import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { ASAAS_KEY, type AsaasLive, connectAsaas, liveKeyOf, useAsaasLive } from '../support/asaas-live';
import { buyer, prefill } from '../support/checkout-fixtures';
import { FAKE_PIX_AUTOMATIC_PAYLOAD, type FakeAsaas } from '../support/fake-asaas/server';
import { Receiver, waitFor } from '../support/receiver';
import type { client } from '../support/runtime';

/**
 * A sk_live_ subscription paid by pix on Asaas: the composite QR of a Pix Automático authorization
 * pays the first period, renewals are debits on the authorization (Asaas settles them on the due
 * date, through PAYMENT_RECEIVED), and the payer's revocation at the bank declines the next renewal.
 */

let fake: FakeAsaas;
let runtime: Runtime;
let api: ReturnType<typeof client>;
let live: AsaasLive;
let receiver: Receiver;
let nextSeller = 460_000;

useAsaasLive((l) => {
  live = l;
  ({ fake, runtime, api } = l);
});
beforeAll(async () => {
  receiver = await new Receiver().start();
});
afterAll(() => receiver?.stop());

const WEBHOOKS = [
  'subscription.activated',
  'subscription.renewed',
  'transaction.created',
  'transaction.payment.succeeded',
];

async function advanceTo(at: Date) {
  const seconds = Math.ceil((at.getTime() - runtime.clock.now().getTime()) / 1000);
  if (seconds > 0) expect((await api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);
}

async function post(key: string, path: string, body: unknown) {
  const res = await api.post(path, body, { token: key });
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

/** A connected live seller with a product, a weekly price, a webhook endpoint and a checkout session. */
async function liveSeller() {
  const sellerId = nextSeller++;
  await runtime.deps.repos.sellers.create('Clube', runtime.clock.now());
  const { jwt, key } = await liveKeyOf(live, sellerId);
  const connected = await connectAsaas(live, jwt);
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);
  await post(key, '/api/webhook-endpoints', { url: receiver.url, events: WEBHOOKS });
  const product = await post(key, '/api/products', {
    name: 'Clube do livro',
    image: 'https://cdn.example.com/c.png',
    value: 100,
  });
  const price = await post(key, `/api/products/${product.id}/prices`, {
    name: 'Semanal',
    unitAmount: 19.9,
    billingInterval: 'week',
  });
  const session = await post(key, '/api/checkout/sessions', {
    product_id: product.id,
    price_id: price.uuid,
    customer: prefill,
    success_url: 'https://shop.example.com/ok?session={SESSION_ID}',
  });
  return { sellerId, jwt, key, session };
}

const hooks = (name: string, match: (data: any) => boolean) =>
  receiver.received.filter((r) => r.json?.event === name && match(r.json.data));

describe('a live Pix Automático subscription on Asaas', () => {
  it('starts on the composite QR, renews by a debit on the authorization, and declines once the payer revokes it', async () => {
    const { sellerId, key, session } = await liveSeller();
    fake.requests.length = 0;

    const pending = await api.post(`/api/public/checkout/${session.id}/pay`, {
      customer: buyer,
      paymentMethod: 'pix',
    });
    expect(pending.status, JSON.stringify(pending.body)).toBe(201);
    expect(pending.body).toMatchObject({
      status: 'pending',
      method: 'pix',
      value: 19.9,
      pix: { qrCode: FAKE_PIX_AUTOMATIC_PAYLOAD },
      subscription: { status: 'pending' },
    });
    const create = fake.requests.find(
      (r) => r.method === 'POST' && r.path === '/v3/pix/automatic/authorizations',
    );
    expect(create?.headers.access_token).toBeTruthy();
    expect(create?.rawBody).toContain('"value":19.90');
    expect(create?.body).toEqual({
      customerId: expect.stringMatching(/^cus_/),
      frequency: 'WEEKLY',
      contractId: expect.stringMatching(/^\d{15}$/),
      startDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      value: 19.9,
      description: 'Clube do livro - Semanal',
      immediateQrCode: {
        expirationSeconds: expect.any(Number),
        originalValue: 19.9,
        description: expect.any(String),
      },
    });
    // No plain pix payment is created: the first payment is the composite QR's.
    expect(fake.requests.some((r) => r.method === 'POST' && r.path === '/v3/payments')).toBe(false);

    const t = (await api.get('/api/transactions', { token: key })).body.data[0];
    expect(t).toMatchObject({ status: 'pendingPix', isRecurring: true, billingCycle: 1 });
    const subscriptionId = t.subscriptionId as number;
    const stored = await runtime.deps.repos.subscriptions.get(
      { sellerId, environment: 'live' },
      subscriptionId,
    );
    const authorizationId = stored?.pixAuthorizationId as string;
    expect(fake.authorization(authorizationId)).toMatchObject({ status: 'CREATED', value: 19.9 });

    const paid = await fake.payAuthorizationQr(authorizationId);
    expect(paid.payment?.status).toBe(200);
    expect(await paid.payment?.json()).toMatchObject({
      applied: true,
      transactionId: t.id,
      status: 'payedPix',
    });
    expect(paid.activated?.status).toBe(200);
    expect(await paid.activated?.json()).toEqual({
      received: true,
      applied: true,
      authorizationId,
      status: 'active',
    });
    const sub = (await api.get(`/api/subscriptions/${subscriptionId}`, { token: key })).body;
    expect(sub).toMatchObject({ status: 'active', billingCycle: 1, collectionMethod: 'pix_automatic' });
    expect((await api.get(`/api/transactions/${t.id}`, { token: key })).body.status).toBe('payedPix');
    await waitFor(() => hooks('subscription.activated', (d) => d?.id === subscriptionId).length === 1);

    // The renewal: a PIX payment linked to the authorization, due DEBIT_LEAD_DAYS later.
    fake.requests.length = 0;
    await advanceTo(new Date(Date.parse(sub.currentPeriodEnd) + 3_600_000));
    const debit = fake.requests.find((r) => r.method === 'POST' && r.path === '/v3/payments');
    expect(debit?.body).toEqual({
      customer: expect.stringMatching(/^cus_/),
      billingType: 'PIX',
      value: 19.9,
      // The due job runs at the period end (the test clock runs each job at its time).
      dueDate: saoPauloDay(new Date(Date.parse(sub.currentPeriodEnd) + 5 * 86_400_000)),
      description: 'Clube do livro',
      externalReference: expect.stringMatching(/^\d{15}$/),
      pixAutomaticAuthorizationId: authorizationId,
    });
    const awaiting = (await api.get(`/api/subscriptions/${subscriptionId}`, { token: key })).body;
    expect(awaiting).toMatchObject({ status: 'active', billingCycle: 1, failedPaymentCount: 0 });
    const renewalT = fake.paymentByReference(debit?.body.externalReference);
    expect(renewalT?.status).toBe('PENDING');

    // Asaas debits it on the due date.
    expect((await fake.pay(renewalT?.id as string))?.status).toBe(200);
    const renewed = (await api.get(`/api/subscriptions/${subscriptionId}`, { token: key })).body;
    expect(renewed).toMatchObject({ status: 'active', billingCycle: 2, failedPaymentCount: 0 });
    const events = (await api.get(`/api/subscriptions/${subscriptionId}/events`, { token: key })).body;
    expect(events[0]).toMatchObject({
      eventType: 'payment_success',
      eventData: { amount: 19.9, billingCycle: 2 },
    });
    const second = (await api.get(`/api/transactions/${events[0].eventData.transactionId}`, { token: key }))
      .body;
    expect(second).toMatchObject({
      status: 'payedPix',
      isRecurring: true,
      subscriptionId,
      billingCycle: 2,
      paymentMethod: 'pix',
    });
    await waitFor(() => hooks('subscription.renewed', (d) => d?.id === subscriptionId).length === 1);
    await waitFor(() => hooks('transaction.payment.succeeded', (d) => d?.id === second.id).length === 1);
    // A repeated notification changes nothing.
    await fake.sendEvent(renewalT as never, 'PAYMENT_RECEIVED');
    expect((await api.get(`/api/subscriptions/${subscriptionId}`, { token: key })).body.billingCycle).toBe(2);

    // The payer revokes at the bank: the next renewal declines as the sandbox's does, without a debit.
    const revoked = await fake.revokeAuthorization(authorizationId);
    expect(revoked?.status).toBe(200);
    expect(await revoked?.json()).toEqual({
      received: true,
      applied: true,
      authorizationId,
      status: 'revoked',
    });
    expect(
      await runtime.deps.payments
        .forEnvironment('live')
        .pixAuthorizationStatus({ sellerId, environment: 'live' }, authorizationId),
    ).toBe('revoked');
    expect(
      await runtime.deps.payments
        .forEnvironment('live')
        .pixAuthorizationStatus({ sellerId: sellerId + 1, environment: 'live' }, authorizationId),
    ).toBeNull();
    fake.requests.length = 0;
    await advanceTo(new Date(Date.parse(renewed.currentPeriodEnd) + 3_600_000));
    expect(fake.requests.some((r) => r.method === 'POST' && r.path === '/v3/payments')).toBe(false);
    const declined = (await api.get(`/api/subscriptions/${subscriptionId}`, { token: key })).body;
    expect(declined).toMatchObject({ billingCycle: 2, failedPaymentCount: 1 });
    const after = (await api.get(`/api/subscriptions/${subscriptionId}/events`, { token: key })).body;
    expect(after[0]).toMatchObject({
      eventType: 'payment_failed',
      eventData: { failureCode: 'authorization_revoked' },
    });
  });

  it('fails the renewal into the retry schedule when Asaas reports the debit overdue; authorization events are checked', async () => {
    const { sellerId, key, session } = await liveSeller();
    await api.post(`/api/public/checkout/${session.id}/pay`, { customer: buyer, paymentMethod: 'pix' });
    const t = (await api.get('/api/transactions', { token: key })).body.data[0];
    const subscriptionId = t.subscriptionId as number;
    const stored = await runtime.deps.repos.subscriptions.get(
      { sellerId, environment: 'live' },
      subscriptionId,
    );
    const authorizationId = stored?.pixAuthorizationId as string;
    const authorization = fake.authorization(authorizationId);
    if (!authorization) throw new Error('no authorization at the fake');

    // Events that change nothing are acknowledged; an authorization the seller does not own is a 404.
    const created = await fake.sendAuthorizationEvent(
      authorization,
      'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CREATED',
    );
    expect(await created?.json()).toMatchObject({ received: true, applied: false });
    const scheduled = await fake.sendAuthorizationEvent(
      authorization,
      'PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_SCHEDULED',
    );
    expect(await scheduled?.json()).toMatchObject({ received: true, applied: false });
    const foreign = await fake.sendAuthorizationEvent(
      { ...authorization, id: 'd51008fa-e28e-4823-82b4-4b1fcf485229' },
      'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED',
    );
    expect(foreign?.status).toBe(404);

    await fake.payAuthorizationQr(authorizationId);
    const sub = (await api.get(`/api/subscriptions/${subscriptionId}`, { token: key })).body;
    expect(sub.status).toBe('active');
    fake.requests.length = 0;
    await advanceTo(new Date(Date.parse(sub.currentPeriodEnd) + 3_600_000));
    const debit = fake.requests.find((r) => r.method === 'POST' && r.path === '/v3/payments');
    const payment = fake.paymentByReference(debit?.body.externalReference);
    if (!payment) throw new Error('no renewal payment');
    payment.status = 'OVERDUE';
    const overdue = await fake.sendEvent(payment, 'PAYMENT_OVERDUE');
    expect(await overdue?.json()).toMatchObject({ applied: true, status: 'denied' });
    const failed = (await api.get(`/api/subscriptions/${subscriptionId}`, { token: key })).body;
    expect(failed).toMatchObject({ status: 'active', billingCycle: 1, failedPaymentCount: 1 });
    const events = (await api.get(`/api/subscriptions/${subscriptionId}/events`, { token: key })).body;
    expect(events[0]).toMatchObject({
      eventType: 'payment_failed',
      eventData: { failureCode: 'payment_overdue', attempt: 1, nextRetryAt: expect.any(String) },
    });

    // A late ACTIVATED after a revocation changes nothing: the retry declines without a payment.
    await fake.revokeAuthorization(authorizationId);
    const late = await fake.sendAuthorizationEvent(
      authorization,
      'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED',
    );
    expect(await late?.json()).toEqual({
      received: true,
      applied: false,
      authorizationId,
      status: 'revoked',
    });
    fake.requests.length = 0;
    await advanceTo(new Date(Date.parse(events[0].eventData.nextRetryAt) + 60_000));
    expect(fake.requests.some((r) => r.method === 'POST' && r.path === '/v3/payments')).toBe(false);
    const after = (await api.get(`/api/subscriptions/${subscriptionId}/events`, { token: key })).body;
    expect(after[0]).toMatchObject({
      eventType: 'payment_failed',
      eventData: { failureCode: 'authorization_revoked', attempt: 2 },
    });
  });

  it('renews through the due job asking Asaas when the debit is paid but its notification never comes', async () => {
    const { sellerId, key, session } = await liveSeller();
    await api.post(`/api/public/checkout/${session.id}/pay`, { customer: buyer, paymentMethod: 'pix' });
    const t = (await api.get('/api/transactions', { token: key })).body.data[0];
    const subscriptionId = t.subscriptionId as number;
    const stored = await runtime.deps.repos.subscriptions.get(
      { sellerId, environment: 'live' },
      subscriptionId,
    );
    await fake.payAuthorizationQr(stored?.pixAuthorizationId as string);
    const sub = (await api.get(`/api/subscriptions/${subscriptionId}`, { token: key })).body;
    expect(sub.status).toBe('active');
    fake.requests.length = 0;
    const periodEnd = Date.parse(sub.currentPeriodEnd);
    await advanceTo(new Date(periodEnd + 3_600_000));
    const debit = fake.requests.find((r) => r.method === 'POST' && r.path === '/v3/payments');
    const payment = fake.paymentByReference(debit?.body.externalReference);
    if (!payment) throw new Error('no renewal payment');
    // Asaas takes the debit on its due date; the PAYMENT_RECEIVED never reaches us.
    payment.status = 'RECEIVED';
    await advanceTo(new Date(periodEnd + 6 * 86_400_000));
    expect((await api.get(`/api/subscriptions/${subscriptionId}`, { token: key })).body).toMatchObject({
      billingCycle: 1,
    });
    fake.requests.length = 0;
    // Seven days after the debit was requested, the due job asks Asaas and applies its answer.
    await advanceTo(new Date(periodEnd + 7 * 86_400_000 + 2 * 3_600_000));
    expect(
      fake.requests.some((r) => r.method === 'GET' && r.path === `/v3/payments/${payment.id}/status`),
    ).toBe(true);
    const renewed = (await api.get(`/api/subscriptions/${subscriptionId}`, { token: key })).body;
    expect(renewed).toMatchObject({ status: 'active', billingCycle: 2, failedPaymentCount: 0 });
    const events = (await api.get(`/api/subscriptions/${subscriptionId}/events`, { token: key })).body;
    expect(events[0]).toMatchObject({ eventType: 'payment_success', eventData: { billingCycle: 2 } });
    const second = events[0].eventData.transactionId as number;
    expect((await api.get(`/api/transactions/${second}`, { token: key })).body.status).toBe('payedPix');
    await waitFor(() => hooks('subscription.renewed', (d) => d?.id === subscriptionId).length === 1);
    await waitFor(() => hooks('transaction.payment.succeeded', (d) => d?.id === second).length === 1);
    // The notification arriving late after all changes nothing.
    const late = await fake.sendEvent(payment, 'PAYMENT_RECEIVED');
    expect(await late?.json()).toMatchObject({ applied: false });
    expect((await api.get(`/api/subscriptions/${subscriptionId}`, { token: key })).body.billingCycle).toBe(2);
  });

  it('answers a clear 400 when the Asaas account is not enabled for Pix Automático, and nothing is kept', async () => {
    const { key, session } = await liveSeller();
    fake.refusePixAutomatic(ASAAS_KEY, 403);
    try {
      const refused = await api.post(`/api/public/checkout/${session.id}/pay`, {
        customer: buyer,
        paymentMethod: 'pix',
      });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.code).toBe('pix_automatic_not_enabled');
      expect(String(refused.body.message)).toMatch(/^paymentMethod: .*Pix Automático/);
    } finally {
      fake.refusePixAutomatic(ASAAS_KEY, 0);
    }
    expect((await api.get('/api/transactions', { token: key })).body.data).toEqual([]);
    expect((await api.get('/api/subscriptions', { token: key })).body.totalCount).toBe(0);
    expect((await api.get(`/api/checkout/sessions/${session.id}`, { token: key })).body.data).toMatchObject({
      status: 'open',
    });
  });
});

const saoPauloDay = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(at);

describe('a live Pix Automático renewal debit whose answer is lost', () => {
  it('is found under its reference when the due job runs the key again: one debit, and it renews the subscription', async () => {
    const { sellerId, key, session } = await liveSeller();
    await api.post(`/api/public/checkout/${session.id}/pay`, { customer: buyer, paymentMethod: 'pix' });
    const t = (await api.get('/api/transactions', { token: key })).body.data[0];
    const subscriptionId = t.subscriptionId as number;
    const stored = await runtime.deps.repos.subscriptions.get(
      { sellerId, environment: 'live' },
      subscriptionId,
    );
    const authorizationId = stored?.pixAuthorizationId as string;
    await fake.payAuthorizationQr(authorizationId);
    const sub = (await api.get(`/api/subscriptions/${subscriptionId}`, { token: key })).body;
    expect(sub.status).toBe('active');
    const debits = () =>
      fake
        .paymentsOf(ASAAS_KEY)
        .filter((p) => (p as { pixAutomaticAuthorizationId?: string }).pixAutomaticAuthorizationId);
    const before = debits().length;

    fake.failOn('POST', '/v3/payments', { status: 200, lose: true });
    const periodEnd = Date.parse(sub.currentPeriodEnd);
    await advanceTo(new Date(periodEnd + 3_600_000));
    await advanceTo(new Date(periodEnd + 3 * 3_600_000));

    const made = debits().slice(before);
    expect(made).toHaveLength(1);
    const renewal = (await api.get('/api/transactions', { token: key })).body.data.filter(
      (x: { subscriptionId?: number; gatewayPayId: number }) =>
        x.subscriptionId === subscriptionId && String(x.gatewayPayId) === made[0].externalReference,
    );
    expect(renewal).toHaveLength(1);
    expect(renewal[0].status).toBe('pendingPix');

    const paid = await fake.pay(made[0].id);
    expect(await paid?.json()).toMatchObject({ applied: true });
    expect((await api.get(`/api/subscriptions/${subscriptionId}`, { token: key })).body).toMatchObject({
      status: 'active',
      billingCycle: 2,
    });
    expect(debits().slice(before)).toHaveLength(1);
  });
});

describe('a live Pix Automático first pix whose answer is lost', () => {
  it("is found among the customer's authorizations by its reference: one authorization, recorded pending, and its pix activates the subscription", async () => {
    const { sellerId, key, session } = await liveSeller();
    const authorizations = () =>
      fake.requests.filter((r) => r.method === 'POST' && r.path === '/v3/pix/automatic/authorizations');
    const before = authorizations().length;
    fake.failOn('POST', '/v3/pix/automatic/authorizations', { status: 200, lose: true });

    const lost = await api.post(`/api/public/checkout/${session.id}/pay`, {
      customer: buyer,
      paymentMethod: 'pix',
    });
    expect(lost.status, JSON.stringify(lost.body)).toBe(503);
    expect((await api.get('/api/transactions', { token: key })).body.data).toEqual([]);

    // The attempt's reconciler runs on its one-time schedule.
    await advanceTo(new Date(runtime.clock.now().getTime() + 3 * 60_000));
    const [t] = (await api.get('/api/transactions', { token: key })).body.data;
    expect(t).toMatchObject({ status: 'pendingPix', isRecurring: true });
    expect(authorizations().length - before).toBe(1);
    const made = authorizations().at(-1)?.body as { contractId: string };
    expect(String(t.gatewayPayId).slice(0, 35)).toBe(made.contractId);

    const stored = await runtime.deps.repos.subscriptions.get(
      { sellerId, environment: 'live' },
      t.subscriptionId as number,
    );
    await fake.payAuthorizationQr(stored?.pixAuthorizationId as string);
    expect((await api.get(`/api/subscriptions/${t.subscriptionId}`, { token: key })).body.status).toBe(
      'active',
    );
    expect(authorizations().length - before).toBe(1);
  });
});
