import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { type AsaasLive, connectAsaas, LIVE_CUSTOMER, useAsaasLive } from '../support/asaas-live';
import type { FakeAsaas } from '../support/fake-asaas/server';
import { type client, nextRateWindow } from '../support/runtime';

/** A carnê sold with a sk_live_ key: its boletos are Asaas's, and an Asaas notification pays them. */

const BASE = '/api/v1/installment-plans';

let fake: FakeAsaas;
let runtime: Runtime;
let api: ReturnType<typeof client>;

let live: AsaasLive;

useAsaasLive((l) => {
  live = l;
  ({ fake, runtime, api } = l);
});

const today = () => saoPauloDate(runtime.clock.now());

async function liveSeller() {
  await nextRateWindow(runtime, api);
  const now = runtime.clock.now();
  const sellerId = await runtime.deps.repos.sellers.create('Loja', now);
  const jwt = await runtime.issuer.sign(sellerId, { now });
  const key = (await api.post('/api/api-keys', { name: 'live', environment: 'live' }, { token: jwt })).body
    .key as string;
  const customer = (await api.post('/api/v1/customers', LIVE_CUSTOMER, { token: key })).body;
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
      { token: key },
    )
  ).body;
  expect(product.uuid, JSON.stringify(product)).toBeTruthy();
  return { jwt, key, customer, product };
}

async function connect(jwt: string) {
  const res = await connectAsaas(live, jwt);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const planBody = (s: Awaited<ReturnType<typeof liveSeller>>) => ({
  productId: s.product.uuid,
  customerId: s.customer.id,
  installments: 3,
  firstDueDate: addDays(today(), 5),
});

describe('a live carnê on Asaas', () => {
  it('refuses an unconnected live seller with 503 before registering anything', async () => {
    const s = await liveSeller();
    const before = fake.requests.length;
    const res = await api.post(BASE, planBody(s), { token: s.key });
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body).toMatchObject({ code: 'provider_not_configured' });
    expect(fake.requests.length).toBe(before);
    expect((await api.get(BASE, { token: s.key })).body.totalCount).toBe(0);
  });

  it("registers installment 1 as an Asaas boleto, and Asaas's PAYMENT_RECEIVED activates the plan", async () => {
    const s = await liveSeller();
    await connect(s.jwt);
    const res = await api.post(BASE, planBody(s), { token: s.key });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const plan = res.body;
    expect(plan).toMatchObject({
      status: 'pending_activation',
      environment: 'live',
      installmentAmount: 344.97,
    });
    const [first, second] = plan.installmentsDetail;
    expect(second.boleto).toBeNull();
    const t = (await api.get(`/api/transactions/${first.transactionId}`, { token: s.key })).body;
    expect(t).toMatchObject({ status: 'pendingBoleto', value: 344.97, paymentMethod: 'boleto' });
    const payment = fake.paymentByReference(String(t.gatewayPayId));
    expect(payment).toMatchObject({ billingType: 'BOLETO', value: 344.97, dueDate: plan.firstDueDate });

    const answer = await fake.pay(payment?.id as string);
    expect(answer?.status).toBe(200);
    expect(await answer?.json()).toMatchObject({ applied: true, status: 'payedBoleto' });
    const after = (await api.get(`${BASE}/${plan.uuid}`, { token: s.key })).body;
    expect(after).toMatchObject({ status: 'active', installmentsPaid: 1, totalCollected: 344.97 });
    expect(after.installmentsDetail[0]).toMatchObject({ number: 1, status: 'paid' });
  });

  it("issues installment 2 as an Asaas boleto 10 days ahead, and Asaas's PAYMENT_RECEIVED pays it", async () => {
    const s = await liveSeller();
    await connect(s.jwt);
    const plan = (await api.post(BASE, planBody(s), { token: s.key })).body;
    const [first, second] = plan.installmentsDetail;
    const firstTx = (await api.get(`/api/transactions/${first.transactionId}`, { token: s.key })).body;
    await fake.pay(fake.paymentByReference(String(firstTx.gatewayPayId))?.id as string);

    // 00:05 Sao Paulo, 10 days before installment 2's due date: the issuance job registers it at Asaas.
    const issueAt = startOfSaoPauloDay(addDays(second.dueDate, -10)).getTime() + 5 * 60_000;
    const seconds = Math.ceil((issueAt - runtime.clock.now().getTime()) / 1000);
    expect((await api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);
    const issued = (await api.get(`${BASE}/${plan.uuid}`, { token: s.key })).body;
    const i2 = issued.installmentsDetail[1];
    expect(i2.boleto, JSON.stringify(i2)).not.toBeNull();
    expect(issued.installmentsDetail[2].boleto).toBeNull();
    const t2 = (await api.get(`/api/transactions/${i2.transactionId}`, { token: s.key })).body;
    expect(t2).toMatchObject({
      status: 'pendingBoleto',
      value: 344.97,
      paymentMethod: 'boleto',
      environment: 'live',
    });
    const payment = fake.paymentByReference(String(t2.gatewayPayId));
    expect(payment).toMatchObject({ billingType: 'BOLETO', value: 344.97, dueDate: second.dueDate });
    expect(i2.boleto.pdfUrl).toBe(payment?.bankSlipUrl);

    const answer = await fake.pay(payment?.id as string);
    expect(answer?.status).toBe(200);
    expect(await answer?.json()).toMatchObject({ applied: true, status: 'payedBoleto' });
    const after = (await api.get(`${BASE}/${plan.uuid}`, { token: s.key })).body;
    expect(after).toMatchObject({ status: 'active', installmentsPaid: 2, totalCollected: 689.94 });
    expect(after.installmentsDetail[1]).toMatchObject({ number: 2, status: 'paid', transactionId: t2.id });
    // The same event again is a repeat: nothing more is collected.
    const repeat = await fake.sendEvent(payment as NonNullable<typeof payment>, 'PAYMENT_CONFIRMED');
    expect(await repeat?.json()).toMatchObject({ applied: false });
    expect((await api.get(`${BASE}/${plan.uuid}`, { token: s.key })).body.installmentsPaid).toBe(2);
  });
});
