import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../infra/local/runtime';
import { addDays, saoPauloDate } from '../../shared/dates';
import { type AsaasLive, connectAsaas, LIVE_CUSTOMER, useAsaasLive } from '../support/asaas-live';
import type { FakeAsaas } from '../support/fake-asaas/server';
import type { client } from '../support/runtime';

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
  await api.post('/api/test-helpers/clock/advance', { seconds: 61 });
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
});
