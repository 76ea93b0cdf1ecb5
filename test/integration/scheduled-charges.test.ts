import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { sellerFixtures } from '../support/fixtures';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 130_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

/** A seller with a sandbox key, one customer and one product. */
const seller = () =>
  fixtures.seller({ customer: {}, product: { name: 'Mensalidade <Escola>', installments: 1 } });
type Seller = Awaited<ReturnType<typeof seller>>;

const today = () => saoPauloDate(runtime.clock.now());
const post = (s: Seller, path: string, body?: unknown, headers?: Record<string, string>) =>
  api.post(path, body, { token: s.key, headers });
const get = (s: Seller, path: string) => api.get(path, { token: s.key });
const BASE = '/api/v1/scheduled-charges';

async function create(s: Seller, body: Record<string, unknown> = {}) {
  const res = await post(s, BASE, {
    customerId: s.customer.id,
    amount: 150.5,
    dueDate: addDays(today(), 10),
    methods: ['pix', 'boleto'],
    type: 'one_time',
    description: 'Aula particular',
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('create', () => {
  it('answers the charge with its customer and product loaded, cycle 1 scheduled', async () => {
    const s = await seller();
    const due = addDays(today(), 10);
    const res = await post(s, BASE, {
      customerId: s.customer.id,
      amount: 150.5,
      dueDate: due,
      methods: ['pix', 'boleto'],
      type: 'one_time',
      productId: s.product.uuid,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^sch_test_[A-Za-z0-9]{24}$/),
      object: 'scheduled_charge',
      customerId: s.customer.id,
      amount: 150.5,
      dueDate: due,
      methods: ['pix', 'boleto'],
      status: 'scheduled',
      type: 'one_time',
      recurrence: null,
      customer: {
        id: s.customer.id,
        name: 'Maria Souza',
        email: 'maria@example.com',
        document: '52998224725',
      },
      product: { id: s.product.id, uuid: s.product.uuid, name: 'Mensalidade <Escola>' },
      environment: 'test',
    });
    const detail = (await get(s, `${BASE}/${res.body.id}`)).body;
    expect(detail.cycles).toEqual([
      expect.objectContaining({
        cycleId: `${res.body.id}_c1`,
        cycleNumber: 1,
        dueDate: due,
        amount: 150.5,
        status: 'scheduled',
        payUrl: expect.stringMatching(/\/cobranca\/cob_\d+_sch_test_[A-Za-z0-9]{24}_[A-Za-z0-9]{32}$/),
        issued: [],
      }),
    ]);
    expect(detail.transactions).toEqual([]);
    expect(detail.timeline.map((e: { kind: string }) => e.kind)).toEqual(['created']);
  });

  it('issues the pix and boleto at once when the due date is within 5 days, under their cycle', async () => {
    const s = await seller();
    const charge = await create(s, { dueDate: addDays(today(), 2) });
    const detail = (await get(s, `${BASE}/${charge.id}`)).body;
    const issued = detail.cycles[0].issued;
    expect(issued.map((t: { paymentMethod: string; status: string }) => [t.paymentMethod, t.status])).toEqual(
      [
        ['pix', 'pendingPix'],
        ['boleto', 'pendingBoleto'],
      ],
    );
    expect(issued[1].boleto.dueDate).toBe(addDays(today(), 2));
    expect(issued[0].value).toBe(150.5);
    // Instruments, not payments: the charge's payments are none yet.
    expect(detail.transactions).toEqual([]);
    expect(detail.timeline.map((e: { kind: string }) => e.kind)).toContain('issued');
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    const s = await seller();
    const base = {
      customerId: s.customer.id,
      amount: 10,
      dueDate: addDays(today(), 3),
      methods: ['pix'],
      type: 'one_time',
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 4.99 }, 'amount must be at least 5'],
      [{ dueDate: addDays(today(), -1) }, 'dueDate must be today or later (America/Sao_Paulo)'],
      [{ dueDate: '2026-02-30' }, 'dueDate must be a date YYYY-MM-DD'],
      [{ methods: [] }, 'methods must not be empty'],
      [{ methods: ['pix', 'pix'] }, 'methods must not repeat a method'],
      [{ methods: ['cash'] }, 'methods'],
      [{ type: 'recurring' }, 'recurrence is required for a recurring charge'],
      [{ recurrence: { interval: 'month' } }, 'recurrence is not allowed for a one_time charge'],
      [
        {
          type: 'recurring',
          recurrence: { interval: 'month', endAfterCycles: 3, endDate: addDays(today(), 90) },
        },
        'recurrence takes at most one of endAfterCycles and endDate',
      ],
      [{ trialDays: 7 }, 'trialDays applies to a recurring charge with methods [card] only'],
      [{ productId: 'nope' }, 'productId must be the product uuid'],
      [{ description: 'x'.repeat(501) }, 'description'],
    ];
    for (const [patch, message] of cases) {
      const res = await post(s, BASE, { ...base, ...patch });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(patch)).toContain(message);
    }
    expect((await get(s, BASE)).body.totalCount).toBe(0);
  });

  it('404s a customer or product of another seller', async () => {
    const s = await seller();
    const other = await seller();
    const res = await post(s, BASE, {
      customerId: other.customer.id + 1_000_000,
      amount: 10,
      dueDate: today(),
      methods: ['pix'],
      type: 'one_time',
    });
    expect(res.status).toBe(404);
    expect(res.body.message ?? res.body.error).toContain('Customer not found');
    const product = await post(s, BASE, {
      customerId: s.customer.id,
      amount: 10,
      dueDate: today(),
      methods: ['pix'],
      type: 'one_time',
      productId: other.product.uuid,
    });
    expect(product.status).toBe(404);
  });

  it('returns the original charge for a repeated X-Idempotency-Key', async () => {
    const s = await seller();
    const body = {
      customerId: s.customer.id,
      amount: 20,
      dueDate: addDays(today(), 9),
      methods: ['pix'],
      type: 'one_time',
    };
    const first = await post(s, BASE, body, { 'x-idempotency-key': 'sch-1' });
    const again = await post(s, BASE, body, { 'x-idempotency-key': 'sch-1' });
    expect(first.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect((await get(s, BASE)).body.totalCount).toBe(1);
  });
});

describe('list', () => {
  it('filters by status, type, customer and due date bounds, and pages', async () => {
    const s = await seller();
    const a = await create(s, { dueDate: addDays(today(), 10) });
    const b = await create(s, {
      dueDate: addDays(today(), 20),
      type: 'recurring',
      recurrence: { interval: 'month', endAfterCycles: 3 },
    });
    await post(s, `${BASE}/${a.id}/cancel`);
    const ids = async (query: string) => {
      const res = await get(s, `${BASE}${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((c: { id: string }) => c.id).sort();
    };
    const both = [a.id, b.id].sort();
    expect(await ids('')).toEqual(both);
    expect(await ids('?status=canceled')).toEqual([a.id]);
    expect(await ids('?status=canceled&status=scheduled')).toEqual(both);
    expect(await ids('?type=recurring')).toEqual([b.id]);
    expect(await ids(`?customerId=${s.customer.id}`)).toEqual(both);
    expect(await ids(`?dueDateFrom=${addDays(today(), 15)}`)).toEqual([b.id]);
    expect(await ids(`?dueDateTo=${addDays(today(), 15)}`)).toEqual([a.id]);
    const page = (await get(s, `${BASE}?limit=1&page=2`)).body;
    expect(page).toMatchObject({ count: 1, totalCount: 2, totalPages: 2 });
    const first = (await get(s, `${BASE}?limit=1&page=1`)).body;
    expect([first.data[0].id, page.data[0].id].sort()).toEqual(both);
    expect((await get(s, `${BASE}?status=late`)).status).toBe(400);
    expect((await get(s, `${BASE}?limit=101`)).status).toBe(400);
  });
});

describe('actions and their refusals', () => {
  it('mark-paid refuses a scheduled one-time charge, a future paymentDate, a cycleNumber, and a long reference', async () => {
    const s = await seller();
    const c = await create(s);
    const markPaid = (body: unknown) => post(s, `${BASE}/${c.id}/mark-paid`, body);
    const scheduled = await markPaid({ paymentDate: today() });
    expect(scheduled.status).toBe(409);
    expect(JSON.stringify(scheduled.body)).toContain(
      'Scheduled charge cannot be marked paid in status scheduled',
    );
    const future = await markPaid({ paymentDate: addDays(today(), 1) });
    expect(future.status).toBe(400);
    expect(JSON.stringify(future.body)).toContain('paymentDate must be today or earlier (America/Sao_Paulo)');
    const cycle = await markPaid({ paymentDate: today(), cycleNumber: 1 });
    expect(JSON.stringify(cycle.body)).toContain('cycleNumber is not allowed for a one_time charge');
    const long = await markPaid({ paymentDate: today(), externalReference: 'x'.repeat(256) });
    expect(JSON.stringify(long.body)).toContain('externalReference must be at most 255 characters');
  });

  it('mark-paid of a recurring charge requires cycleNumber and 404s an unknown cycle', async () => {
    const s = await seller();
    const c = await create(s, { type: 'recurring', recurrence: { interval: 'week' }, dueDate: today() });
    const missing = await post(s, `${BASE}/${c.id}/mark-paid`, { paymentDate: today() });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('cycleNumber is required for a recurring charge');
    const unknown = await post(s, `${BASE}/${c.id}/mark-paid`, { paymentDate: today(), cycleNumber: 9 });
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.body)).toContain('Cycle not found');
  });

  it('postpones (also on the unversioned path), refusing a past date and a cancelled charge', async () => {
    const s = await seller();
    const c = await create(s);
    const past = await post(s, `${BASE}/${c.id}/postpone`, { newDueDate: addDays(today(), -1) });
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.body)).toContain('newDueDate must be today or later (America/Sao_Paulo)');
    const moved = await post(s, `/api/scheduled-charges/${c.id}/postpone`, {
      newDueDate: addDays(today(), 30),
      reason: 'pedido do cliente',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ status: 'scheduled', dueDate: addDays(today(), 30) });
    const today0 = await post(s, `${BASE}/${c.id}/postpone`, { newDueDate: today() });
    expect(today0.body).toMatchObject({ status: 'due_today', dueDate: today() });
    const detail = (await get(s, `${BASE}/${c.id}`)).body;
    expect(detail.timeline[detail.timeline.length - 2]).toBeDefined();
    expect(detail.timeline.find((e: { kind: string }) => e.kind === 'postponed').data).toMatchObject({
      to: expect.any(String),
    });
    await post(s, `${BASE}/${c.id}/cancel`);
    const refused = await post(s, `${BASE}/${c.id}/postpone`, { newDueDate: addDays(today(), 3) });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('Scheduled charge cannot be postponed in status canceled');
  });

  it('cancels a one-time charge (its issued pix and boleto canceled) and refuses a second cancel', async () => {
    const s = await seller();
    const c = await create(s, { dueDate: addDays(today(), 1) });
    const res = await post(s, `${BASE}/${c.id}/cancel`, { reason: 'desistiu' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'canceled', canceledAt: expect.any(String) });
    const detail = (await get(s, `${BASE}/${c.id}`)).body;
    expect(detail.cycles[0].status).toBe('canceled');
    expect(detail.cycles[0].issued.map((t: { status: string }) => t.status)).toEqual(['cancel', 'cancel']);
    expect(detail.transactions).toEqual([]);
    const again = await post(s, `${BASE}/${c.id}/cancel`);
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).toContain('Scheduled charge cannot be canceled in status canceled');
  });

  it('cancels a recurrence, sets and clears cancel at period end, pauses and resumes, updates the amount', async () => {
    const s = await seller();
    const c = await create(s, { type: 'recurring', recurrence: { interval: 'month', endAfterCycles: 6 } });
    const set = await post(s, `${BASE}/${c.id}/cancel-at-period-end`);
    expect(set.body.cancelAtPeriodEnd).toBe(true);
    const cleared = await api.del(`${BASE}/${c.id}/cancel-at-period-end`, { token: s.key });
    expect(cleared.body.cancelAtPeriodEnd).toBe(false);
    const paused = await post(s, `${BASE}/${c.id}/pause`);
    expect(paused.body).toMatchObject({ status: 'paused', pausedAt: expect.any(String) });
    expect((await post(s, `${BASE}/${c.id}/pause`)).status).toBe(409);
    const resumed = await post(s, `${BASE}/${c.id}/resume`);
    expect(resumed.body).toMatchObject({ status: 'scheduled', pausedAt: null });
    const resumedAgain = await post(s, `${BASE}/${c.id}/resume`);
    expect(JSON.stringify(resumedAgain.body)).toContain(
      'Scheduled charge cannot be resumed in status scheduled',
    );
    const patched = await api.patch(
      `${BASE}/${c.id}`,
      { amount: 99.9, description: 'Nova' },
      { token: s.key },
    );
    expect(patched.body).toMatchObject({ amount: 99.9, description: 'Nova' });
    const detail = (await get(s, `${BASE}/${c.id}`)).body;
    expect(detail.cycles[0].amount).toBe(150.5);
    const canceled = await post(s, `${BASE}/${c.id}/cancel`);
    expect(canceled.body.status).toBe('recurrence_canceled');
    const oneTime = await create(s);
    const refused = await post(s, `${BASE}/${oneTime.id}/cancel-at-period-end`);
    expect(refused.status).toBe(409);
    expect(
      (await get(s, `${BASE}/${c.id}`)).body.timeline.map((e: { kind: string }) => e.kind).reverse(),
    ).toEqual([
      'created',
      'cancel_at_period_end_set',
      'cancel_at_period_end_cleared',
      'paused',
      'resumed',
      'updated',
      'recurrence_canceled',
    ]);
  });

  it("answers another seller's charge exactly like a missing one", async () => {
    const s = await seller();
    const other = await seller();
    const c = await create(s);
    const missing = 'sch_test_AAAAAAAAAAAAAAAAAAAAAAAA';
    for (const id of [c.id, missing]) {
      for (const [method, path] of [
        ['GET', `${BASE}/${id}`],
        ['POST', `${BASE}/${id}/postpone`],
        ['POST', `${BASE}/${id}/cancel`],
        ['POST', `${BASE}/${id}/pause`],
      ] as const) {
        const res =
          method === 'GET'
            ? await get(other, path)
            : await post(other, path, path.endsWith('postpone') ? { newDueDate: today() } : undefined);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(JSON.stringify(res.body)).toContain('Scheduled charge not found');
      }
    }
    expect((await get(other, BASE)).body.totalCount).toBe(0);
    expect((await get(s, `${BASE}/sch_nope`)).status).toBe(404);
  });
});
