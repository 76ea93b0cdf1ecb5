import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { parseDigitableLine } from '#shared/domain/payments/boleto';
import { Receiver, waitFor } from '../support/receiver';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const BASE = '/api/v1/installment-plans';
const HOUR_MS = 3_600_000;
const today = () => saoPauloDate(runtime.clock.now());
/** `hours` after 00:00 Sao Paulo of `date`. */
const spTime = (date: string, hours: number) =>
  new Date(startOfSaoPauloDay(date).getTime() + hours * HOUR_MS);

async function advanceTo(at: Date) {
  const seconds = Math.ceil((at.getTime() - runtime.clock.now().getTime()) / 1000);
  if (seconds > 0) expect((await api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);
}

/** The next 31st within the 90-day window. */
function next31st(): string {
  for (let d = addDays(today(), 1); ; d = addDays(d, 1)) if (d.endsWith('-31')) return d;
}

describe('a 3-installment carnê anchored on the 31st, from creation to completion', () => {
  it('issues month by month, pays late above face value, flips the overdue marker, reminds and completes', async () => {
    const now = runtime.clock.now();
    const sellerId = await runtime.deps.repos.sellers.create('Loja', now);
    const jwt = await runtime.issuer.sign(sellerId, { now });
    const key = (await api.post('/api/api-keys', { name: 'k', environment: 'test' }, { token: jwt })).body
      .key as string;
    const post = (path: string, body?: unknown) => api.post(path, body, { token: key });
    const get = (path: string) => api.get(path, { token: key });
    const customer = (
      await post('/api/v1/customers', {
        name: 'Maria Souza',
        email: 'maria@example.com',
        document: '52998224725',
        phone: '11987654321',
        personType: 'fisica',
      })
    ).body;
    const product = (
      await post('/api/products', {
        name: 'Curso de Violão',
        image: 'https://cdn.example.com/v.png',
        value: 300,
        boleto: true,
        carne: { enabled: true, interestFactors: { '3': 1.05 } },
      })
    ).body;
    const receiver = await new Receiver().start();
    const endpoint = await post('/api/webhook-endpoints', { url: receiver.url, events: ['*'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const events = () => receiver.received.map((r) => r.json?.event as string);
    const overdueCustomers = async () =>
      (await get('/api/v1/customers?status=overdue')).body.data.map((c: { id: number }) => c.id);
    const plan = async (uuid: string) => (await get(`${BASE}/${uuid}`)).body;
    try {
      const anchor = next31st();
      const created = await post(BASE, {
        productId: product.uuid,
        customerId: customer.id,
        installments: 3,
        firstDueDate: anchor,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const uuid = created.body.uuid;
      // 300 × 1.05 / 3 = 105.00 each.
      expect(created.body).toMatchObject({ installmentAmount: 105, totalScheduled: 315, fator: 1.05 });
      const [i1, i2, i3] = created.body.installmentsDetail;
      expect([i2.boleto, i3.boleto]).toEqual([null, null]);
      expect(parseDigitableLine(i1.boleto.barcodeLine, today())).toMatchObject({
        amountCentavos: 10_500,
        dueDate: anchor,
      });

      // Installment 1 paid with the helper (face value): active, nothing else issued yet.
      const paid1 = await post(`/api/test-helpers/transactions/${i1.transactionId}/pay`);
      expect(paid1.status, JSON.stringify(paid1.body)).toBe(200);
      const active = await plan(uuid);
      expect(active).toMatchObject({ status: 'active', installmentsPaid: 1, totalCollected: 105 });
      expect(active.installmentsDetail[1].boleto).toBeNull();

      // 10 days before installment 2's due date, 00:05 Sao Paulo: its own boleto; installment 3 still none.
      await advanceTo(spTime(addDays(i2.dueDate, -10), -1));
      expect((await plan(uuid)).installmentsDetail[1].boleto).toBeNull();
      await advanceTo(spTime(addDays(i2.dueDate, -10), 5 / 60));
      const issued = await plan(uuid);
      const second = issued.installmentsDetail[1];
      expect(second.boleto).not.toBeNull();
      expect(issued.installmentsDetail[2].boleto).toBeNull();
      expect(second.boleto.barcodeLine).not.toBe(i1.boleto.barcodeLine);
      expect(parseDigitableLine(second.boleto.barcodeLine, today())).toMatchObject({
        amountCentavos: 10_500,
        dueDate: i2.dueDate,
      });
      expect((await fetch(second.boleto.pdfUrl)).status).toBe(200);

      // Not paid at the bank: mark-paid is refused.
      const refused = await post(`${BASE}/${uuid}/installments/2/mark-paid`);
      expect(refused.status).toBe(409);

      // Due date: due_today; the day after: overdue, the customer in the overdue list.
      await advanceTo(spTime(i2.dueDate, 5 / 60));
      expect((await plan(uuid)).installmentsDetail[1].status).toBe('due_today');
      expect(await overdueCustomers()).toEqual([]);
      await advanceTo(spTime(addDays(i2.dueDate, 1), 9 + 5 / 60));
      expect((await plan(uuid)).installmentsDetail[1].status).toBe('overdue');
      expect(await overdueCustomers()).toEqual([customer.id]);

      // Reminders (before_3, due, after_1) with the boleto's line and PDF link.
      const mail = (await get('/api/test-helpers/mail?limit=100')).body.data.filter(
        (m: { kind: string }) => m.kind === 'installment_plan_reminder',
      );
      expect(mail.length).toBeGreaterThanOrEqual(3);
      const body = (await get(`/api/test-helpers/mail/${mail[0].id}`)).body;
      expect(body.to).toBe('maria@example.com');
      expect(body.subject).toContain('parcela 2/3');
      expect(body.text).toContain(`Linha digitável do boleto: ${second.boleto.barcodeLine}`);
      expect(body.text).toContain(`Pagar agora: ${second.boleto.pdfUrl}`);
      expect(body.text).toContain('R$ 105,00');

      // Paid late with fine and interest: what cleared counts, the customer leaves the overdue list.
      const late = await post(`/api/test-helpers/transactions/${second.transactionId}/pay`, {
        paidAmount: 107.35,
      });
      expect(late.status, JSON.stringify(late.body)).toBe(200);
      const afterLate = await plan(uuid);
      expect(afterLate).toMatchObject({ installmentsPaid: 2, totalCollected: 212.35, totalScheduled: 315 });
      expect(afterLate.installmentsDetail[1]).toMatchObject({
        status: 'paid',
        paidAmount: 107.35,
        amount: 105,
      });
      expect(await overdueCustomers()).toEqual([]);

      // Installment 3 (on the anchor's day, or its month's last day), issued 10 days ahead; the bank
      // clears it without a notification and mark-paid records it: completed.
      expect(Number(i3.dueDate.slice(8))).toBeLessThanOrEqual(31);
      await advanceTo(spTime(addDays(i3.dueDate, -10), 5 / 60));
      const third = (await plan(uuid)).installmentsDetail[2];
      expect(third.boleto).not.toBeNull();
      await post(`/api/test-helpers/transactions/${third.transactionId}/pay`, { notify: false });
      const marked = await post(`${BASE}/${uuid}/installments/3/mark-paid`);
      expect(marked.status, JSON.stringify(marked.body)).toBe(200);
      const done = await plan(uuid);
      expect(done).toMatchObject({ status: 'completed', installmentsPaid: 3, totalCollected: 317.35 });
      expect(done.totalCollected).toBeGreaterThan(done.totalScheduled);
      expect((await post(`${BASE}/${uuid}/cancel`)).status).toBe(409);

      await waitFor(() => events().includes('installment_plan.completed'));
      for (const name of [
        'installment_plan.created',
        'installment_plan.installment_issued',
        'installment_plan.activated',
        'installment_plan.installment_paid',
        'installment_plan.installment_overdue',
        'transaction.payment.succeeded',
      ])
        expect(events()).toContain(name);
      // Deliveries run side by side (the queue's batches and pollers): wait for all three, in any order.
      const paidEvents = () =>
        receiver.received
          .filter((r) => r.json?.event === 'installment_plan.installment_paid')
          .map((r) => [r.json.data.number, r.json.data.paidAmount])
          .sort((a, b) => a[0] - b[0]);
      await waitFor(() => paidEvents().length >= 3);
      expect(paidEvents()).toEqual([
        [1, 105],
        [2, 107.35],
        [3, 105],
      ]);
    } finally {
      await receiver.stop();
    }
  });
});
