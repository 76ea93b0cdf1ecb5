import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, addMonthsAnchored, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { runJob } from '#shared/jobs';
import { sellerFixtures } from '../support/fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { type client, logLines, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 135_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const HOUR_MS = 3_600_000;

const seller = () => fixtures.seller({ customer: {} });
type Seller = Awaited<ReturnType<typeof seller>>;

const BASE = '/api/v1/scheduled-charges';
const today = () => saoPauloDate(runtime.clock.now());
const post = (s: Seller, path: string, body?: unknown) => api.post(path, body, { token: s.key });
const get = (s: Seller, path: string) => api.get(path, { token: s.key });
const detail = async (s: Seller, id: string) => (await get(s, `${BASE}/${id}`)).body;

/** Moves the runtime clock to `at` (running every schedule due on the way). */
async function advanceTo(at: Date) {
  const seconds = Math.ceil((at.getTime() - runtime.clock.now().getTime()) / 1000);
  if (seconds > 0) expect((await api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);
}
/** `hours` after 00:00 Sao Paulo of `date` (negative: before it). */
const spTime = (date: string, hours: number) =>
  new Date(startOfSaoPauloDay(date).getTime() + hours * HOUR_MS);

async function create(s: Seller, body: Record<string, unknown>) {
  const res = await post(s, BASE, {
    customerId: s.customer.id,
    amount: 80,
    methods: ['pix'],
    type: 'one_time',
    description: 'Consulta',
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** The seller's reminder e-mails, oldest first, with their bodies. */
async function reminders(s: Seller) {
  await api.post('/api/test-helpers/clock/advance', { seconds: 1 });
  const listed = (await get(s, '/api/test-helpers/mail?limit=100')).body.data as {
    id: string;
    to: string;
    subject: string;
    kind: string;
  }[];
  return listed.filter((m) => m.kind === 'scheduled_charge_reminder').reverse();
}

const overdueCustomers = async (s: Seller) =>
  (await get(s, '/api/v1/customers?status=overdue')).body.data.map((c: { id: number }) => c.id);

describe('a one-time pix charge through its days', () => {
  it('due_today at 00:00 SP (not at 23:59), reminders once, overdue the next day, postponed, marked paid', async () => {
    const s = await seller();
    const receiver = await new Receiver().start();
    const endpoint = await post(s, '/api/webhook-endpoints', {
      url: receiver.url,
      events: ['scheduled_charge.overdue', 'scheduled_charge.postponed', 'scheduled_charge.paid'],
    });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    try {
      const due = addDays(today(), 4);
      const charge = await create(s, { dueDate: due });
      expect((await detail(s, charge.id)).cycles[0].issued).toHaveLength(1);

      // The day before, 23:55 Sao Paulo: still scheduled; the before_3 reminder went out once.
      await advanceTo(spTime(due, -5 / 60));
      expect((await detail(s, charge.id)).status).toBe('scheduled');
      const before = await reminders(s);
      expect(before.map((m) => [m.to, m.subject])).toEqual([
        [
          'maria@example.com',
          `[TESTE] Sua cobrança vence em ${due.split('-').reverse().join('/')}: Consulta`,
        ],
      ]);
      const body = (await get(s, `/api/test-helpers/mail/${before[0].id}`)).body;
      expect(body.text).toContain('Valor: R$ 80,00');
      expect(body.text).toContain('/cobranca/cob_');
      expect(body.text).toContain('Pix copia e cola: ');

      // 00:05 of the due date: due_today; 09:05: the due-date reminder.
      await advanceTo(spTime(due, 5 / 60));
      expect((await detail(s, charge.id)).status).toBe('due_today');
      await advanceTo(spTime(due, 9 + 5 / 60));
      expect((await reminders(s)).map((m) => m.subject.split(':')[0])).toEqual([
        expect.stringContaining('vence em'),
        '[TESTE] Sua cobrança vence hoje',
      ]);

      // 23:55 still due_today; 00:05 the next day overdue, the customer in the overdue list.
      await advanceTo(spTime(due, 24 - 5 / 60));
      expect((await detail(s, charge.id)).status).toBe('due_today');
      expect(await overdueCustomers(s)).toEqual([]);
      await advanceTo(spTime(addDays(due, 1), 5 / 60));
      const overdue = await detail(s, charge.id);
      expect(overdue.status).toBe('overdue');
      expect(overdue.cycles[0].status).toBe('overdue');
      expect(await overdueCustomers(s)).toEqual([s.customer.id]);
      await waitFor(() => receiver.received.some((r) => r.json?.event === 'scheduled_charge.overdue'));

      // Postponed to the day after: scheduled again, out of the overdue list, the reminders start again.
      const newDue = addDays(today(), 1);
      const postponed = await post(s, `${BASE}/${charge.id}/postpone`, {
        newDueDate: newDue,
        reason: 'acordo',
      });
      expect(postponed.status, JSON.stringify(postponed.body)).toBe(200);
      expect(postponed.body).toMatchObject({ status: 'scheduled', dueDate: newDue });
      expect(await overdueCustomers(s)).toEqual([]);
      await advanceTo(spTime(newDue, 9 + 5 / 60));
      const after = await reminders(s);
      expect(after.filter((m) => m.subject === '[TESTE] Sua cobrança vence hoje: Consulta')).toHaveLength(2);
      expect((await detail(s, charge.id)).status).toBe('due_today');

      // Marked paid with its reference: paid, no transaction made by it, one webhook with the cycle.
      const paid = await post(s, `${BASE}/${charge.id}/mark-paid`, {
        paymentDate: today(),
        externalReference: 'TED 0042',
      });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      expect(paid.body.status).toBe('paid');
      const final = await detail(s, charge.id);
      expect(final.cycles[0]).toMatchObject({
        status: 'paid',
        paidBy: 'manual',
        externalReference: 'TED 0042',
      });
      // No transaction made by it: the payments stay empty, the issued pix is cancelled under its cycle.
      expect(final.transactions).toEqual([]);
      expect(final.cycles[0].issued.every((t: { status: string }) => t.status === 'cancel')).toBe(true);
      expect(paid.body.transactions).toEqual([]);
      expect(final.timeline.map((e: { kind: string }) => e.kind)).toEqual(
        expect.arrayContaining([
          'postponed',
          'manually_marked_paid',
          'overdue',
          'due_today',
          'reminder_sent',
        ]),
      );
      await waitFor(() => receiver.received.some((r) => r.json?.event === 'scheduled_charge.paid'));
      const webhook = receiver.received.find((r) => r.json?.event === 'scheduled_charge.paid')?.json.data;
      expect(webhook).toMatchObject({ id: charge.id, seriesId: charge.id, cycleNumber: 1, status: 'paid' });
      expect(receiver.received.some((r) => r.json?.event === 'scheduled_charge.postponed')).toBe(true);

      // The days after bring nothing more: no reminder for a paid charge.
      await advanceTo(spTime(addDays(newDue, 2), 10));
      expect(await reminders(s)).toHaveLength(after.length);
    } finally {
      await receiver.stop();
    }
  });
});

describe('a pix cycle paid by its transaction', () => {
  it('becomes paid with its transaction when the sandbox pays the pix; the boleto is cancelled', async () => {
    const s = await seller();
    const charge = await create(s, { dueDate: addDays(today(), 2), methods: ['pix', 'boleto'] });
    const before = await detail(s, charge.id);
    const pix = before.cycles[0].issued.find((t: { paymentMethod: string }) => t.paymentMethod === 'pix');
    const pay = await post(s, `/api/test-helpers/transactions/${pix.id}/pay`);
    expect(pay.status, JSON.stringify(pay.body)).toBe(200);
    const after = await detail(s, charge.id);
    expect(after.status).toBe('paid');
    expect(after.cycles[0]).toMatchObject({ status: 'paid', paidBy: 'transaction' });
    const statuses = Object.fromEntries(
      after.cycles[0].issued.map((t: { paymentMethod: string; status: string }) => [
        t.paymentMethod,
        t.status,
      ]),
    );
    expect(statuses).toEqual({ pix: 'payedPix', boleto: 'cancel' });
    // The paid pix is the charge's one payment.
    expect(after.transactions.map((t: { id: number; status: string }) => [t.id, t.status])).toEqual([
      [pix.id, 'payedPix'],
    ]);
    expect(after.timeline.filter((e: { kind: string }) => e.kind === 'paid')).toHaveLength(1);
    // A manual mark-paid of the paid charge is refused.
    const again = await post(s, `${BASE}/${charge.id}/mark-paid`, { paymentDate: today() });
    expect(again.status).toBe(409);
  });
});

describe('pause, resume and the due job fired twice', () => {
  it('a paused charge stays put; after resume two concurrent runs of its job move it once', async () => {
    const s = await seller();
    const due = addDays(today(), 1);
    const charge = await create(s, { dueDate: due });
    expect((await post(s, `${BASE}/${charge.id}/pause`)).body.status).toBe('paused');
    await advanceTo(spTime(addDays(due, 1), 1));
    const paused = await detail(s, charge.id);
    expect(paused.status).toBe('paused');
    expect(paused.cycles[0].status).toBe('scheduled');
    expect(await overdueCustomers(s)).toEqual([]);

    const resumed = await post(s, `${BASE}/${charge.id}/resume`);
    expect(resumed.body.status).toBe('scheduled');
    // Before the resume's schedule (a minute on) fires, the job runs twice at once.
    const job = { job: 'scheduled-charge-due', id: `${s.sellerId}:test:${charge.id}` };
    const outcomes = (await Promise.all([runJob(runtime.deps, job), runJob(runtime.deps, job)])) as {
      outcome: string;
    }[];
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['advanced', 'nothing_due']);
    await advanceTo(new Date(runtime.clock.now().getTime() + 120_000));
    const after = await detail(s, charge.id);
    expect(after.status).toBe('overdue');
    const kinds = after.timeline.map((e: { kind: string }) => e.kind);
    expect(kinds.filter((k: string) => k === 'due_today')).toHaveLength(1);
    expect(kinds.filter((k: string) => k === 'overdue')).toHaveLength(1);
    expect(await overdueCustomers(s)).toEqual([s.customer.id]);
    // Paying it takes the customer out of the overdue list.
    await post(s, `${BASE}/${charge.id}/mark-paid`, { paymentDate: today() });
    expect(await overdueCustomers(s)).toEqual([]);
  });
});

describe('resume', () => {
  it('resuming a recurring series twice within a minute keeps its one schedule and logs no error', async () => {
    const s = await seller();
    const due = addDays(today(), 1);
    const charge = await create(s, { dueDate: due, type: 'recurring', recurrence: { interval: 'month' } });
    expect((await post(s, `${BASE}/${charge.id}/pause`)).body.status).toBe('paused');
    await advanceTo(spTime(addDays(due, 1), 1));
    const logged = logLines.length;
    // The first resume schedules the work that fell due a minute on; a pause and a resume inside
    // that minute find its schedule still pending.
    for (const action of ['resume', 'pause', 'resume'])
      expect((await post(s, `${BASE}/${charge.id}/${action}`)).status).toBe(200);
    const errors = logLines.slice(logged).filter((l) => l.includes('"level":"error"'));
    expect(errors).toEqual([]);
    const pending = runtime.scheduler.pending().filter((e) => e.payload.id.endsWith(charge.id));
    expect(pending).toHaveLength(1);
    await advanceTo(new Date(runtime.clock.now().getTime() + 120_000));
    const after = await detail(s, charge.id);
    expect(after.status).toBe('overdue');
    const kinds = after.timeline.map((e: { kind: string }) => e.kind);
    expect(kinds.filter((k: string) => k === 'overdue')).toHaveLength(1);
  });
});

describe('a monthly series anchored on the 31st', () => {
  it('is due on the last day of a shorter month and on the 31st again after it', async () => {
    const s = await seller();
    // The next 31st whose following month is shorter (Jan→Feb, Mar→Apr, May→Jun, Aug→Sep, Oct→Nov).
    let anchor = today();
    for (;;) {
      anchor = addDays(anchor, 1);
      if (anchor.endsWith('-31') && addMonthsAnchored(anchor, 1).slice(8) !== '31') break;
    }
    const charge = await create(s, {
      dueDate: anchor,
      type: 'recurring',
      recurrence: { interval: 'month', endAfterCycles: 3 },
    });
    // Cycle 1 due: cycle 2 is created; paying cycle 2 early creates cycle 3.
    await advanceTo(spTime(anchor, 1));
    const first = await detail(s, charge.id);
    expect(first.cycles.map((c: { dueDate: string }) => c.dueDate)).toEqual([
      anchor,
      addMonthsAnchored(anchor, 1),
    ]);
    expect(first.cycles[1].dueDate.slice(8)).not.toBe('31');
    const paid = await post(s, `${BASE}/${charge.id}/mark-paid`, { paymentDate: anchor, cycleNumber: 1 });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    await advanceTo(spTime(addMonthsAnchored(anchor, 1), 1));
    const second = await detail(s, charge.id);
    expect(second.cycles.map((c: { dueDate: string }) => c.dueDate)).toEqual([
      anchor,
      addMonthsAnchored(anchor, 1),
      addMonthsAnchored(anchor, 2),
    ]);
    expect(second.cycles[2].dueDate.slice(8)).toBe('31');
    expect(second.status).toBe('due_today');
  });
});
