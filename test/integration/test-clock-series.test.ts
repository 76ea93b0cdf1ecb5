import { describe, expect, it, vi } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { ATTEMPT_RECONCILE_JOB, REGISTRATION_RECONCILE_AFTER_MS } from '#shared/domain/attempts/attempt';
import { customerBody, sellerFixtures } from '../support/fixtures';
import { eventually } from '../support/receiver';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 396_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const CLOCKS = '/api/test-helpers/test-clocks';
const DAY = 86_400_000;

type Seller = Awaited<ReturnType<typeof fixtures.seller>>;
const post = (s: { key: string }, path: string, body?: unknown) => api.post(path, body, { token: s.key });
const get = (s: { key: string }, path: string) => api.get(path, { token: s.key });

/**
 * A clock `behindMs` behind the service's time (whole seconds): as the CLI's, made at its own
 * Date.now() while the local runtime's clock had been moved ahead, or one a seller starts in the past.
 */
async function clockAt(s: Seller, behindMs: number) {
  const frozen = Math.floor((runtime.clock.now().getTime() - behindMs) / 1000) * 1000;
  const res = await post(s, CLOCKS, { frozenTime: new Date(frozen).toISOString() });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const c = await post(s, '/api/v1/customers', { ...customerBody, testClockId: res.body.id });
  expect(c.status, JSON.stringify(c.body)).toBe(201);
  return { clock: res.body as { id: string; frozenTime: string }, customer: c.body as { id: number } };
}

/** Moves the clock to `days` after its start; answers the clock. */
async function advance(s: Seller, clock: { id: string; frozenTime: string }, days: number) {
  const frozenTime = new Date(Date.parse(clock.frozenTime) + days * DAY).toISOString();
  const moved = await post(s, `${CLOCKS}/${clock.id}/advance`, { frozenTime });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  expect(moved.body).toMatchObject({ frozenTime, status: 'ready' });
  return moved.body;
}

/** The seller's events of `type` about the object `id`, those stamped ahead on a clock included. */
async function eventsOf(s: Seller, type: string, id: string) {
  const to = new Date(runtime.clock.now().getTime() + 400 * DAY).toISOString();
  const res = await get(s, `/api/events?type=${type}&resourceId=${id}&to=${to}&limit=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { data: Record<string, unknown> }[];
}

async function carneProduct(s: Seller) {
  const res = await post(s, '/api/products', {
    name: 'Curso de Violão',
    image: 'https://cdn.example.com/v.png',
    value: 300,
    boleto: true,
    carne: { enabled: true, maxInstallments: 3 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string };
}

/** A carnê of two boletos, the first due 3 days after the clock's day, its first boleto paid: active. */
async function activeCarne(s: Seller, behindMs: number) {
  const { clock, customer } = await clockAt(s, behindMs);
  const product = await carneProduct(s);
  // The boleto is registered, its reconciler scheduled; before the carnê is saved, the runtime's
  // due real-time work runs (its schedules, the heartbeat's sweeps), as it may on a busy machine.
  const plans = runtime.deps.repos.installmentPlans;
  const create = plans.create.bind(plans);
  const before = new Set(runtime.scheduler.pending().map((e) => e.name));
  const reconcilerIn: number[] = [];
  const saving = vi.spyOn(plans, 'create').mockImplementation(async (...args) => {
    const now = runtime.clock.now().getTime();
    for (const e of runtime.scheduler.pending())
      if (e.payload.job === ATTEMPT_RECONCILE_JOB && !before.has(e.name)) reconcilerIn.push(e.at - now);
    await runtime.timeline.tick();
    return create(...args);
  });
  const plan = await post(s, '/api/v1/installment-plans', {
    productId: product.uuid,
    customerId: customer.id,
    installments: 2,
    firstDueDate: addDays(saoPauloDate(new Date(clock.frozenTime)), 3),
  }).finally(() => saving.mockRestore());
  // The registration's reconciler waits out the save in real time, whatever the clock's time is.
  expect(reconcilerIn).toHaveLength(1);
  expect(reconcilerIn[0]).toBeGreaterThan(REGISTRATION_RECONCILE_AFTER_MS - 60_000);
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
  const path = `/api/v1/installment-plans/${plan.body.uuid}`;
  const first = plan.body.installmentsDetail[0].transactionId;
  const paid = await post(s, `/api/test-helpers/transactions/${first}/pay`, {});
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  expect(paid.body.status).toBe('payedBoleto');
  await eventually(async () => (await get(s, path)).body.status === 'active');
  return { clock, path, uuid: plan.body.uuid as string };
}

describe('a carnê on a test clock', () => {
  it('a carnê on a clock behind the service: installment 2 overdue once past its due date, completed once both are paid', async () => {
    const s = await fixtures.seller();
    const hour = 3_600_000;
    const { clock, path, uuid } = await activeCarne(s, hour);
    // Installment 2 (due 33 days after the start) is registered 10 days before its due date.
    await advance(s, clock, 25);
    const issued = (await get(s, path)).body.installmentsDetail[1];
    expect(issued).toMatchObject({ status: 'scheduled' });
    expect(issued.boleto).not.toBeNull();
    // Past its due date: overdue, once, however often the clock moves on.
    await advance(s, clock, 35);
    await advance(s, clock, 36);
    const again = await post(s, `${CLOCKS}/${clock.id}/advance`, {
      frozenTime: new Date(Date.parse(clock.frozenTime) + 36 * DAY).toISOString(),
    });
    expect(again.status).toBe(400);
    expect((await get(s, path)).body.installmentsDetail[1].status).toBe('overdue');
    expect(await eventsOf(s, 'installment_plan.installment_overdue', uuid)).toHaveLength(1);

    const paid = await post(s, `/api/test-helpers/transactions/${issued.transactionId}/pay`, {});
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    await eventually(async () => (await get(s, path)).body.status === 'completed');
    await advance(s, clock, 40);
    expect(await eventsOf(s, 'installment_plan.completed', uuid)).toHaveLength(1);
  });
});

describe('a card series on a test clock', () => {
  it('a cycle whose saved card is declined fails once its retries are exhausted: cycle_failed once', async () => {
    const s = await fixtures.seller();
    const { clock, customer } = await clockAt(s, 0);
    const clockDay = saoPauloDate(new Date(clock.frozenTime));
    const created = await post(s, '/api/v1/scheduled-charges', {
      customerId: customer.id,
      amount: 59.9,
      dueDate: addDays(clockDay, 1),
      methods: ['card'],
      description: 'Assinatura',
      type: 'recurring',
      recurrence: { interval: 'month', endAfterCycles: 3 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const path = `/api/v1/scheduled-charges/${created.body.id}`;
    const { payUrl } = (await get(s, path)).body.cycles[0];
    const token = new URL(payUrl, 'http://x').pathname.split('/').pop();
    const [y] = clockDay.split('-').map(Number);
    const paidOnLink = await api.post(`/api/public/cobranca/${token}/card`, {
      card: {
        number: '4000000000000341',
        holderName: 'MARIA SOUZA',
        expiryMonth: 12,
        expiryYear: y + 3,
        cvv: '123',
      },
    });
    expect(paidOnLink.status, JSON.stringify(paidOnLink.body)).toBeLessThan(300);
    expect((await get(s, path)).body.paymentMethod).toMatchObject({ cardLast4: '0341' });

    // Cycle 2 (due a month after the first) is charged at its due date and retried 3, 5 and 7 days
    // after each decline: 34 days in, two attempts were declined and the cycle has not failed yet.
    await advance(s, clock, 34);
    const attempts = async () =>
      ((await get(s, `${path}/attempts?cycleNumber=2`)).body.data as { status: string; source: string }[])
        .map((a) => `${a.source}:${a.status}`)
        .reverse();
    expect(await attempts()).toEqual(['silent_charge:declined', 'card_retry:declined']);
    expect(await eventsOf(s, 'scheduled_charge.cycle_failed', created.body.id)).toHaveLength(0);
    // The fourth attempt, the last, is declined: the cycle failed, once however often the clock moves on.
    await advance(s, clock, 50);
    await advance(s, clock, 55);
    expect(await attempts()).toEqual([
      'silent_charge:declined',
      'card_retry:declined',
      'card_retry:declined',
      'card_retry:declined',
    ]);
    expect((await get(s, path)).body.cycles[1]).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
    });
    const failed = await eventsOf(s, 'scheduled_charge.cycle_failed', created.body.id);
    expect(failed).toHaveLength(1);
    expect(failed[0].data).toMatchObject({ cycleNumber: 2, failureCode: 'card_declined' });
  });
});

describe("a charge's pix on a test clock", () => {
  it('expires when the clock passes its expiry, never by a real-time schedule or sweep', async () => {
    const s = await fixtures.seller();
    // A clock 40 days behind the service: the pix's expiry (due date + 30 days) is real time's past.
    const { clock, customer } = await clockAt(s, 40 * DAY);
    const created = await post(s, '/api/v1/scheduled-charges', {
      customerId: customer.id,
      amount: 80,
      methods: ['pix'],
      type: 'one_time',
      description: 'Consulta',
      dueDate: addDays(saoPauloDate(new Date(clock.frozenTime)), 1),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const path = `/api/v1/scheduled-charges/${created.body.id}`;
    // Issued 5 days before its due date: at once.
    await advance(s, clock, 1 / 24);
    const pixId = (await get(s, path)).body.cycles[0].issued[0].id;
    const pix = async () => (await get(s, `/api/transactions/${pixId}`)).body.status;
    // The service's own time moves an hour: its schedules and the heartbeat's sweeps run.
    expect(runtime.scheduler.pending().some((e) => e.name === `txn-expiry-test-${pixId}`)).toBe(false);
    expect((await api.post('/api/test-helpers/clock/advance', { seconds: 3_600 })).status).toBe(200);
    expect(await pix()).toBe('pendingPix');

    // Payable to the end of its due date + 29 days (day 30 of the clock), expired the next day.
    await advance(s, clock, 30);
    expect(await pix()).toBe('pendingPix');
    await advance(s, clock, 32);
    expect(await pix()).toBe('cancel');
    expect((await get(s, path)).body.status).toBe('overdue');
  });
});
