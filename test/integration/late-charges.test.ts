import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { sellerFixtures } from '../support/fixtures';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }));

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const today = () => saoPauloDate(runtime.clock.now());
const DAY_SECONDS = 86_400;

/** A seller with a sandbox key, a customer and a carnê product (R$ 1.000,00; 3x at 1.0349 = R$ 344,97). */
async function seller() {
  const s = await fixtures.seller({ named: 'Loja Multa', customer: { document: '52998224725' } });
  const res = await api.post(
    '/api/products',
    {
      name: 'Curso de Violão',
      image: 'https://cdn.example.com/v.png',
      value: 1000,
      boleto: true,
      carne: { enabled: true, maxInstallments: 6, interestFactors: { '3': 1.0349 } },
    },
    { token: s.key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...s, product: res.body as { id: number; uuid: string } };
}

describe('fine, interest and discount', () => {
  it("a scheduled charge's boleto paid 10 days late collects the 2% fine and 10/30 of 1% interest, to the centavo", async () => {
    const s = await seller();
    const dueDate = addDays(today(), 5);
    const created = await api.post(
      '/api/v1/scheduled-charges',
      {
        customerId: s.customer.id,
        amount: 344.97,
        dueDate,
        methods: ['boleto'],
        type: 'one_time',
        fine: { type: 'percentage', value: 2 },
        interest: { percentPerMonth: 1 },
      },
      { token: s.key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const detail = await api.get(`/api/v1/scheduled-charges/${created.body.id}`, { token: s.key });
    const cycle = detail.body.cycles[0];
    expect(cycle).toMatchObject({
      amount: 344.97,
      amountDue: 344.97,
      fine: { type: 'percentage', value: 2 },
      interest: { percentPerMonth: 1 },
      discounts: [],
    });
    const boletoId = cycle.issued.find((t: { paymentMethod: string }) => t.paymentMethod === 'boleto').id;
    await api.post('/api/test-helpers/clock/advance', { seconds: 15 * DAY_SECONDS });
    expect(today()).toBe(addDays(dueDate, 10));
    // 344.97 + 2% (6.90) + 344.97 × 1% × 10/30 (1.15) = 353.02
    const late = await api.get(`/api/v1/scheduled-charges/${created.body.id}`, { token: s.key });
    expect(late.body.cycles[0].amountDue, JSON.stringify(late.body.cycles[0])).toBe(353.02);
    const boleto = await api.get(`/api/transactions/${boletoId}`, { token: s.key });
    expect(boleto.body).toMatchObject({ amountDue: 353.02, fine: { type: 'percentage', value: 2 } });

    const paid = await api.post(`/api/test-helpers/transactions/${boletoId}/pay`, undefined, {
      token: s.key,
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const t = await api.get(`/api/transactions/${boletoId}`, { token: s.key });
    expect(t.body).toMatchObject({
      value: 344.97,
      paidAmount: 353.02,
      fineAmount: 6.9,
      interestAmount: 1.15,
      discountAmount: 0,
      amountDue: null,
    });
    const after = await api.get(`/api/v1/scheduled-charges/${created.body.id}`, { token: s.key });
    expect(after.body.cycles[0]).toMatchObject({ status: 'paid', amountDue: null });
  });

  it('a carnê installment paid before its discount date clears the discounted amount, and totalCollected counts it', async () => {
    const s = await seller();
    const firstDueDate = addDays(today(), 5);
    const created = await api.post(
      '/api/v1/installment-plans',
      {
        productId: s.product.uuid,
        customerId: s.customer.id,
        installments: 3,
        firstDueDate,
        discounts: [{ until: addDays(firstDueDate, -2), type: 'fixed', value: 10 }],
      },
      { token: s.key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [first, second] = created.body.installmentsDetail;
    expect(first).toMatchObject({
      amountDue: 334.97,
      discounts: [{ until: addDays(firstDueDate, -2), value: 10 }],
    });
    // The next installment's tier keeps its distance from its own due date.
    expect(second.discounts[0].until).toBe(addDays(second.dueDate, -2));
    const paid = await api.post(`/api/test-helpers/transactions/${first.transactionId}/pay`, undefined, {
      token: s.key,
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ paidAmount: 334.97, discountAmount: 10, fineAmount: 0 });
    const plan = await api.get(`/api/v1/installment-plans/${created.body.uuid}`, { token: s.key });
    expect(plan.body.totalCollected).toBe(334.97);
  });

  it('takes the seller default when the charge sets none, and the charge over it', async () => {
    const s = await seller();
    const settings = await api.call('PUT', '/api/portal/configuration', {
      body: { lateCharges: { fine: { type: 'percentage', value: 1.5 }, interest: { percentPerMonth: 0.5 } } },
      token: s.key,
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const body = (extra: Record<string, unknown>) => ({
      customerId: s.customer.id,
      amount: 100,
      dueDate: addDays(today(), 10),
      methods: ['boleto'],
      type: 'one_time',
      ...extra,
    });
    const inherited = await api.post('/api/v1/scheduled-charges', body({}), { token: s.key });
    expect(inherited.status, JSON.stringify(inherited.body)).toBe(201);
    expect(inherited.body).toMatchObject({
      fine: { type: 'percentage', value: 1.5 },
      interest: { percentPerMonth: 0.5 },
    });
    const own = await api.post(
      '/api/v1/scheduled-charges',
      body({ fine: null, discounts: [{ until: addDays(today(), 5), type: 'fixed', value: 5 }] }),
      { token: s.key },
    );
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body).toMatchObject({
      fine: null,
      interest: { percentPerMonth: 0.5 },
      discounts: [{ until: addDays(today(), 5), type: 'fixed', value: 5 }],
    });
    const detail = await api.get(`/api/v1/scheduled-charges/${own.body.id}`, { token: s.key });
    expect(detail.body.cycles[0].amountDue).toBe(95);
  });

  it('refuses terms above the legal caps with 400 naming the field', async () => {
    const s = await seller();
    const base = {
      customerId: s.customer.id,
      amount: 100,
      dueDate: addDays(today(), 10),
      methods: ['boleto'],
      type: 'one_time',
    };
    const fine = await api.post(
      '/api/v1/scheduled-charges',
      { ...base, fine: { type: 'percentage', value: 2.5 } },
      { token: s.key },
    );
    expect(fine.status).toBe(400);
    expect(fine.body.message.join(' ')).toContain('fine');
    const interest = await api.post(
      '/api/v1/scheduled-charges',
      { ...base, interest: { percentPerMonth: 1.01 } },
      { token: s.key },
    );
    expect(interest.status).toBe(400);
    expect(interest.body.message.join(' ')).toContain('interest.percentPerMonth');
    const settings = await api.call('PUT', '/api/portal/configuration', {
      body: { lateCharges: { fine: { type: 'fixed', value: 1 } } },
      token: s.key,
    });
    expect(settings.status).toBe(400);
  });

  it('a buyer cannot set the terms of their own boleto', async () => {
    const s = await seller();
    const sale = await api.post('/api/transactions', {
      productId: s.product.uuid,
      paymentMethod: 'boleto',
      customer: {
        name: 'Maria Souza',
        email: 'maria@example.com',
        document: '52998224725',
        phone: '11987654321',
      },
      discounts: [{ until: today(), type: 'percentage', value: 50 }],
    });
    expect(sale.status).toBe(400);
    expect(sale.body.message.join(' ')).toContain('discounts');
  });
});
