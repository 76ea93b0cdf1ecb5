import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { parseDigitableLine } from '#shared/domain/payments/boleto';
import { sellerFixtures } from '../support/fixtures';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }));

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const BASE = '/api/v1/installment-plans';
const HOUR_MS = 3_600_000;
const today = () => saoPauloDate(runtime.clock.now());

/** A registered seller with a sandbox key, a customer and a carnê product (R$ 1.000,00; 3x at 1.0349). */
async function seller(name = 'Loja', document = '52998224725') {
  const s = await fixtures.seller({ named: name, customer: { document } });
  const product = await createProduct(s.key, {
    carne: { enabled: true, maxInstallments: 6, interestFactors: { '3': 1.0349 } },
  });
  return { ...s, product };
}
type Seller = Awaited<ReturnType<typeof seller>>;

async function createProduct(key: string, extra: Record<string, unknown>) {
  const res = await api.post(
    '/api/products',
    { name: 'Curso de Violão', image: 'https://cdn.example.com/v.png', value: 1000, boleto: true, ...extra },
    { token: key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; uuid: string };
}

const post = (s: Pick<Seller, 'key'>, path: string, body?: unknown, headers?: Record<string, string>) =>
  api.post(path, body, { token: s.key, headers });
const get = (s: Pick<Seller, 'key'>, path: string) => api.get(path, { token: s.key });
const planBody = (s: Seller, extra: Record<string, unknown> = {}) => ({
  productId: s.product.uuid,
  customerId: s.customer.id,
  installments: 3,
  firstDueDate: addDays(today(), 5),
  ...extra,
});
async function createPlan(s: Seller, extra: Record<string, unknown> = {}) {
  const res = await post(s, BASE, planBody(s, extra));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
/** The next 31st within the 90-day window. */
function next31st(): string {
  for (let d = addDays(today(), 1); ; d = addDays(d, 1)) if (d.endsWith('-31')) return d;
}
const daysInMonth = (ym: string) =>
  new Date(Date.UTC(Number(ym.slice(0, 4)), Number(ym.slice(5, 7)), 0)).getUTCDate();

describe('creating a carnê', () => {
  it('freezes the factor, rounds each installment and registers only installment 1 (FEBRABAN line, PDF)', async () => {
    const s = await seller();
    const plan = await createPlan(s);
    expect(plan).toMatchObject({
      status: 'pending_activation',
      installments: 3,
      installmentsPaid: 0,
      baseValue: 1000,
      fator: 1.0349,
      // 1000 × 1.0349 / 3 = 344.9666… → 344.97
      installmentAmount: 344.97,
      totalScheduled: 1034.91,
      totalCollected: 0,
      cancelReason: null,
      environment: 'test',
      customer: { id: s.customer.id },
      product: { uuid: s.product.uuid },
    });
    const [first, second, third] = plan.installmentsDetail;
    expect(second.boleto).toBeNull();
    expect(third.boleto).toBeNull();
    expect(first).toMatchObject({ number: 1, amount: 344.97, status: 'scheduled', reissueCount: 0 });
    const parsed = parseDigitableLine(first.boleto.barcodeLine, today());
    expect(parsed.amountCentavos).toBe(34_497);
    expect(parsed.dueDate).toBe(plan.firstDueDate);
    const pdf = await fetch(first.boleto.pdfUrl);
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    // The boleto is a transaction of the plan's product for the installment's value.
    const t = (await get(s, `/api/transactions/${first.transactionId}`)).body;
    expect(t).toMatchObject({ status: 'pendingBoleto', value: 344.97, paymentMethod: 'boleto' });
    // Read back and listed.
    expect((await get(s, `${BASE}/${plan.uuid}`)).body).toEqual(plan);
    const listed = (await get(s, `${BASE}?customerId=${s.customer.id}&status=pending_activation`)).body;
    expect(listed).toMatchObject({ count: 1, totalCount: 1, totalPages: 1 });
    expect(listed.data[0].uuid).toBe(plan.uuid);
    expect((await get(s, `${BASE}?status=active`)).body.totalCount).toBe(0);
  });

  it('anchors later due dates on the first one: a 31st never drifts after a short month', async () => {
    const s = await seller();
    const anchor = next31st();
    const plan = await createPlan(s, { installments: 6, firstDueDate: anchor });
    const dates: string[] = plan.installmentsDetail.map((i: { dueDate: string }) => i.dueDate);
    dates.forEach((d, k) => {
      const ym = d.slice(0, 7);
      expect(Number(d.slice(8))).toBe(Math.min(31, daysInMonth(ym)));
      if (k > 0) expect(ym > dates[k - 1].slice(0, 7)).toBe(true);
    });
    // Some month of the six has fewer than 31 days and the next 31-day month is back on the 31st.
    expect(dates.some((d) => !d.endsWith('-31'))).toBe(true);
    expect(dates.filter((d) => d.endsWith('-31')).length).toBeGreaterThan(1);
  });

  it('defaults firstDueDate to today and the factor to 1 when none is set for the count', async () => {
    const s = await seller();
    const plan = await createPlan(s, { installments: 4, firstDueDate: undefined });
    expect(plan).toMatchObject({
      firstDueDate: today(),
      fator: 1,
      installmentAmount: 250,
      totalScheduled: 1000,
    });
    expect(plan.installmentsDetail[0].boleto.dueDate).toBe(today());
  });

  it.each([
    [{ installments: 1 }, 'installments must be an integer from 2 to 12'],
    [{ installments: 13 }, 'installments must be an integer from 2 to 12'],
    [{ installments: 2.5 }, 'installments must be an integer from 2 to 12'],
    [{ installments: 7 }, 'installments must be at most 6 for this product (carne.maxInstallments)'],
    [{ installments: undefined }, 'installments is required'],
    [{ firstDueDate: '2026-02-30' }, 'firstDueDate must be a date YYYY-MM-DD'],
    [{ firstDueDate: '31/12/2026' }, 'firstDueDate must be a date YYYY-MM-DD'],
    [{ productId: 'abc' }, 'productId must be the product uuid'],
    [{ customerId: 'x' }, 'customerId must be an integer from 1 to 999999999999999'],
    [{ extra: 1 }, 'extra is not allowed'],
  ])('answers 400 for %j', async (patch, message) => {
    const s = await seller();
    const res = await post(s, BASE, planBody(s, patch));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(JSON.stringify(res.body.message)).toContain(message);
  });

  it('answers 400 for a firstDueDate in the past or beyond 90 days, and accepts day 90', async () => {
    const s = await seller();
    for (const date of [addDays(today(), -1), addDays(today(), 91)]) {
      const res = await post(s, BASE, planBody(s, { firstDueDate: date }));
      expect(res.status, date).toBe(400);
      expect(res.body.message[0]).toContain('firstDueDate must be from today');
    }
    expect((await post(s, BASE, planBody(s, { firstDueDate: addDays(today(), 90) }))).status).toBe(201);
  });

  it('answers 400 when the product does not accept carnê', async () => {
    const s = await seller();
    const plain = await createProduct(s.key, {});
    const res = await post(s, BASE, planBody(s, { productId: plain.uuid }));
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual([
      'productId: the product does not accept carnê (carne.enabled is false)',
    ]);
  });

  it('answers 400 for an affiliate without an active affiliation, and records the commission of one with it', async () => {
    const s = await seller();
    const affiliate = await seller('Afiliada');
    const none = await post(s, BASE, planBody(s, { affiliateId: affiliate.sellerId }));
    expect(none.status).toBe(400);
    expect(none.body.message).toEqual(['affiliateId must be an active affiliate of the product']);
    const added = await post(s, `/api/products/${s.product.id}/affiliates`, {
      affiliateId: affiliate.sellerId,
      commissionPercent: 10,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const plan = await createPlan(s, { affiliateId: affiliate.sellerId });
    expect(plan.affiliate).toMatchObject({ affiliateId: affiliate.sellerId, commissionPercent: 10 });
    const t = (await get(s, `/api/transactions/${plan.installmentsDetail[0].transactionId}`)).body;
    // 344.97 − 3.49 fee = 341.48; 10 % = 34.15 to the affiliate.
    expect(t.affiliate).toEqual({
      affiliateId: affiliate.sellerId,
      commissionPercent: 10,
      commission: 34.15,
      commissionReversed: 0,
      net: 34.15,
    });
    expect(t.valueSeller).toBe(307.33);
    await post(s, `${BASE}/${plan.uuid}/cancel`);
    // Ended: refused again.
    await api.del(`/api/products/${s.product.id}/affiliates/${affiliate.sellerId}`, { token: s.key });
    const ended = await post(s, BASE, planBody(s, { affiliateId: affiliate.sellerId, installments: 2 }));
    expect(ended.status).toBe(400);
  });

  it("answers 404 for another seller's product or customer, and an inactive product, exactly like missing ones", async () => {
    const s = await seller();
    // Customers are global by document: the other seller's customer is another person.
    const other = await seller('Outra', '11144477735');
    const product = await post(s, BASE, planBody(s, { productId: other.product.uuid }));
    expect(product.status).toBe(404);
    expect(product.body.message).toBe('Product not found');
    const missing = await post(s, BASE, planBody(s, { productId: '00000000-0000-4000-8000-000000000000' }));
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Product not found');
    const customer = await post(s, BASE, planBody(s, { customerId: other.customer.id }));
    expect(customer.status).toBe(404);
    expect(customer.body.message).toBe('Customer not found');
    expect((await post(s, BASE, planBody(s, { customerId: 999_999 }))).body.message).toBe(
      'Customer not found',
    );
    await api.del(`/api/products/${s.product.id}`, { token: s.key });
    expect((await post(s, BASE, planBody(s))).status).toBe(404);
  });

  it('answers 409 for an identical plan within 10 minutes, and allows it after', async () => {
    const s = await seller();
    await createPlan(s);
    const again = await post(s, BASE, planBody(s), { 'x-idempotency-key': 'other-key' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('An identical installment plan was just created for this customer');
    // A different count is a different plan.
    expect((await post(s, BASE, planBody(s, { installments: 2 }))).status).toBe(201);
    await api.post('/api/test-helpers/clock/advance', { seconds: 601 });
    expect((await post(s, BASE, planBody(s))).status).toBe(201);
    expect((await get(s, `${BASE}?customerId=${s.customer.id}`)).body.totalCount).toBe(3);
  });

  it('registers one plan and one boleto for 10 concurrent identical requests, with and without one idempotency key', async () => {
    const s = await seller();
    const plain = await Promise.all(Array.from({ length: 10 }, () => post(s, BASE, planBody(s))));
    expect(plain.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    const keyed = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(s, BASE, planBody(s, { installments: 2 }), { 'x-idempotency-key': 'carne-42' }),
      ),
    );
    const created = keyed.filter((r) => r.status === 201);
    expect(keyed.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(new Set(created.map((r) => r.body.uuid)).size).toBe(1);
    // After the first answered, the key replays it.
    const replay = await post(s, BASE, planBody(s, { installments: 2 }), { 'x-idempotency-key': 'carne-42' });
    expect(replay.status).toBe(201);
    expect(replay.body.uuid).toBe(created[0]?.body.uuid ?? replay.body.uuid);
    expect((await get(s, `${BASE}?customerId=${s.customer.id}`)).body.totalCount).toBe(2);
    const boletos = (await get(s, `/api/transactions?limit=100`)).body.data.filter(
      (t: { paymentMethod: string }) => t.paymentMethod === 'boleto',
    );
    expect(boletos).toHaveLength(2);
  });
});

describe('a carnê of another tenant', () => {
  it('answers 404 to another seller and to the same seller in live, exactly like a missing plan', async () => {
    const s = await seller();
    const other = await seller('Outra');
    const plan = await createPlan(s);
    const live = (await api.post('/api/api-keys', { name: 'live', environment: 'live' }, { token: s.jwt }))
      .body.key as string;
    const missing = await get(s, `${BASE}/00000000-0000-4000-8000-000000000000`);
    expect(missing.status).toBe(404);
    for (const who of [other, { key: live }]) {
      for (const res of [
        await get(who, `${BASE}/${plan.uuid}`),
        await post(who, `${BASE}/${plan.uuid}/cancel`),
        await post(who, `${BASE}/${plan.uuid}/installments/1/mark-paid`),
        await post(who, `${BASE}/${plan.uuid}/installments/1/reissue`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.message).toBe(missing.body.message);
      }
      expect((await get(who, BASE)).body.totalCount).toBe(0);
    }
    expect((await get(s, `${BASE}/${plan.uuid}/installments/13/mark-paid`)).status).toBe(404);
    expect((await post(s, `${BASE}/${plan.uuid}/installments/4/mark-paid`)).body.message).toBe(
      'Installment not found',
    );
  });
});

describe('mark-paid, second copy and cancel', () => {
  it('refuses mark-paid while the bank has not cleared the boleto, and pays at face value once it has', async () => {
    const s = await seller();
    const plan = await createPlan(s);
    const first = plan.installmentsDetail[0];
    const url = `${BASE}/${plan.uuid}/installments/1/mark-paid`;
    const refused = await post(s, url);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("The provider does not report this installment's boleto as paid");
    const noBoleto = await post(s, `${BASE}/${plan.uuid}/installments/2/mark-paid`);
    expect(noBoleto.status).toBe(409);
    // The bank clears it but the notification never arrives.
    const cleared = await post(s, `/api/test-helpers/transactions/${first.transactionId}/pay`, {
      notify: false,
    });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.status).toBe('pendingBoleto');
    const paid = await post(s, url);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ number: 1, status: 'paid', paidBy: 'mark_paid', paidAmount: 344.97 });
    const after = (await get(s, `${BASE}/${plan.uuid}`)).body;
    expect(after).toMatchObject({ status: 'active', installmentsPaid: 1, totalCollected: 344.97 });
    expect((await get(s, `/api/transactions/${first.transactionId}`)).body.status).toBe('payedBoleto');
    // Again: 200, unchanged.
    const again = await post(s, url);
    expect(again.status).toBe(200);
    expect((await get(s, `${BASE}/${plan.uuid}`)).body.updatedAt).toBe(after.updatedAt);
  });

  it('pay helper: paidAmount only for a boleto, at least its face value', async () => {
    const s = await seller();
    const plan = await createPlan(s);
    const id = plan.installmentsDetail[0].transactionId;
    const low = await post(s, `/api/test-helpers/transactions/${id}/pay`, { paidAmount: 300 });
    expect(low.status).toBe(400);
    expect(low.body.message[0]).toContain('paidAmount must be at least');
    const bad = await post(s, `/api/test-helpers/transactions/${id}/pay`, { paidAmount: 350.001 });
    expect(bad.status).toBe(400);
    const fail = await post(s, `/api/test-helpers/transactions/${id}/fail`, { paidAmount: 350 });
    expect(fail.status).toBe(400);
    const ok = await post(s, `/api/test-helpers/transactions/${id}/pay`, { paidAmount: 351.2 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const after = (await get(s, `${BASE}/${plan.uuid}`)).body;
    expect(after).toMatchObject({ status: 'active', totalCollected: 351.2, totalScheduled: 1034.91 });
    expect(after.installmentsDetail[0]).toMatchObject({ paidBy: 'notification', paidAmount: 351.2 });
  });

  it('reissues an unpaid boleto (the old one unpayable) and refuses a paid or missing one', async () => {
    const s = await seller();
    const plan = await createPlan(s);
    const old = plan.installmentsDetail[0];
    const url = `${BASE}/${plan.uuid}/installments/1/reissue`;
    const far = await post(s, url, { dueDate: addDays(today(), 91) });
    expect(far.status).toBe(400);
    expect(far.body.message[0]).toContain('dueDate must be from today');
    const newDue = addDays(today(), 20);
    const res = await post(s, url, { dueDate: newDue });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const copy = res.body.installmentsDetail[0];
    expect(copy).toMatchObject({ reissueCount: 1, status: 'scheduled', dueDate: old.dueDate });
    expect(copy.boleto.dueDate).toBe(newDue);
    expect(copy.boleto.barcodeLine).not.toBe(old.boleto.barcodeLine);
    expect(parseDigitableLine(copy.boleto.barcodeLine, today()).dueDate).toBe(newDue);
    expect((await get(s, `/api/transactions/${old.transactionId}`)).body.status).toBe('cancel');
    const payOld = await post(s, `/api/test-helpers/transactions/${old.transactionId}/pay`);
    expect(payOld.status).toBe(409);
    expect((await post(s, `${BASE}/${plan.uuid}/installments/2/reissue`)).status).toBe(409);
    await post(s, `/api/test-helpers/transactions/${copy.transactionId}/pay`);
    const paid = await post(s, url);
    expect(paid.status).toBe(409);
  });

  it('marks an installment failed when the provider reports its boleto failed; a second copy reopens it', async () => {
    const s = await seller();
    const plan = await createPlan(s);
    const first = plan.installmentsDetail[0];
    const failed = await post(s, `/api/test-helpers/transactions/${first.transactionId}/fail`);
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    const after = (await get(s, `${BASE}/${plan.uuid}`)).body;
    expect(after.status).toBe('pending_activation');
    expect(after.installmentsDetail[0].status).toBe('failed');
    expect((await post(s, `${BASE}/${plan.uuid}/installments/1/mark-paid`)).status).toBe(409);
    const copy = await post(s, `${BASE}/${plan.uuid}/installments/1/reissue`);
    expect(copy.status, JSON.stringify(copy.body)).toBe(200);
    expect(copy.body.installmentsDetail[0]).toMatchObject({ status: 'scheduled', reissueCount: 1 });
    const paid = await post(
      s,
      `/api/test-helpers/transactions/${copy.body.installmentsDetail[0].transactionId}/pay`,
    );
    expect(paid.status).toBe(200);
    expect((await get(s, `${BASE}/${plan.uuid}`)).body.status).toBe('active');
  });

  it('cancels a plan (its boleto unpayable) and answers 409 to cancel, reissue or mark-paid after', async () => {
    const s = await seller();
    const plan = await createPlan(s);
    const res = await post(s, `${BASE}/${plan.uuid}/cancel`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'canceled', cancelReason: 'seller' });
    expect(res.body.installmentsDetail.map((i: { status: string }) => i.status)).toEqual([
      'canceled',
      'canceled',
      'canceled',
    ]);
    const t = (await get(s, `/api/transactions/${plan.installmentsDetail[0].transactionId}`)).body;
    expect(t.status).toBe('cancel');
    const again = await post(s, `${BASE}/${plan.uuid}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Installment plan cannot be canceled in status canceled');
    expect((await post(s, `${BASE}/${plan.uuid}/installments/1/reissue`)).status).toBe(409);
    expect((await post(s, `${BASE}/${plan.uuid}/installments/1/mark-paid`)).status).toBe(409);
    expect((await get(s, `${BASE}?status=canceled`)).body.totalCount).toBe(1);
  });
});

describe('the grace of installment 1', () => {
  it('cancels the plan when installment 1 is unpaid at the start of the 10th day after its due date', async () => {
    const s = await seller();
    const plan = await createPlan(s, { firstDueDate: today() });
    const graceEnd = startOfSaoPauloDay(addDays(plan.firstDueDate, 10)).getTime();
    const advance = async (to: number) => {
      const seconds = Math.ceil((to - runtime.clock.now().getTime()) / 1000);
      if (seconds > 0) await api.post('/api/test-helpers/clock/advance', { seconds });
    };
    await advance(graceEnd - HOUR_MS);
    const before = (await get(s, `${BASE}/${plan.uuid}`)).body;
    expect(before.status).toBe('pending_activation');
    expect(before.installmentsDetail[0].status).toBe('overdue');
    await advance(graceEnd + 5 * 60_000);
    const after = (await get(s, `${BASE}/${plan.uuid}`)).body;
    expect(after).toMatchObject({ status: 'canceled', cancelReason: 'first_installment_unpaid' });
    expect(
      after.installmentsDetail.every((i: { boleto: unknown; status: string }) => i.status === 'canceled'),
    ).toBe(true);
    expect(after.installmentsDetail.slice(1).every((i: { boleto: unknown }) => i.boleto === null)).toBe(true);
    expect((await get(s, `/api/transactions/${plan.installmentsDetail[0].transactionId}`)).body.status).toBe(
      'cancel',
    );
    // The customer left the overdue list with it.
    expect((await get(s, '/api/v1/customers?status=overdue')).body.data).toEqual([]);
  });
});
