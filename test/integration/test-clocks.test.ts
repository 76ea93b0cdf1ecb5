import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { keys } from '#shared/adapters/dynamodb/keys';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { periodEnd } from '#shared/domain/subscriptions/periods';
import { customerBody, sellerFixtures } from '../support/fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 98_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const CLOCKS = '/api/test-helpers/test-clocks';
const OTHER_DOCUMENT = '11144477735';
const monthly = { name: 'Mensal', unitAmount: 29.9, billingInterval: 'month' };
const DAY_SECONDS = 86_400;
const DAY_MS = DAY_SECONDS * 1000;

type Seller = Awaited<ReturnType<typeof seller>>;
const seller = () => fixtures.seller({ product: { name: 'Clube do livro', installments: 1 } });
const post = (s: { key: string }, path: string, body?: unknown) => api.post(path, body, { token: s.key });
const get = (s: { key: string }, path: string) => api.get(path, { token: s.key });

/** A clock at the runtime's time (whole seconds), so that a card valid now is valid on it. */
async function createClock(s: Seller, name?: string) {
  const frozenTime = new Date(Math.floor(runtime.clock.now().getTime() / 1000) * 1000).toISOString();
  const res = await post(s, CLOCKS, { frozenTime, ...(name ? { name } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; frozenTime: string; status: string; deletesAfter: string };
}

async function customer(s: Seller, overrides: Record<string, unknown> = {}) {
  const res = await post(s, '/api/v1/customers', { ...customerBody, ...overrides });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; uuid: string; document: string; testClockId?: string };
}

/** The card expiry `ahead` months after the month of `at` (Sao Paulo). */
function expiryAhead(at: Date, ahead: number) {
  const [y, m] = saoPauloDate(at).split('-').map(Number);
  const index = y * 12 + (m - 1) + ahead;
  return { expiryMonth: (index % 12) + 1, expiryYear: Math.floor(index / 12) };
}

interface SavedCard {
  id: number;
  status: string;
  expiresAt: string;
  createdAt: string;
}

/** A card the customer saves with an approved card payment (by default valid for two years of the runtime's time). */
async function saveCard(
  s: Seller,
  c: { uuid: string; document: string },
  expiry = expiryAhead(runtime.clock.now(), 24),
): Promise<SavedCard> {
  const paid = await api.post('/api/transactions', {
    productId: s.product.uuid,
    paymentMethod: 'creditcard',
    customer: { ...customerBody, document: c.document },
    card: { number: '4111111111111111', holderName: 'MARIA SOUZA', ...expiry, cvv: '123' },
    saveCard: true,
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  const listed = await get(s, `/api/v1/customers/${c.uuid}/payment-methods`);
  return listed.body.data[0];
}

async function subscribe(s: Seller, c: { id: number; uuid: string; document: string }, priceId: number) {
  const card = await saveCard(s, c);
  const res = await post(s, '/api/subscriptions', { customerId: c.id, priceId, paymentMethodId: card.id });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function createPrice(s: Seller) {
  const res = await post(s, `/api/products/${s.product.id}/prices`, monthly);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number };
}

const advance = (s: Seller, id: string, frozenTime: string) =>
  post(s, `${CLOCKS}/${id}/advance`, { frozenTime });

describe('test clocks', () => {
  it('create, get, list and delete a clock; a live key finds no clock route', async () => {
    const s = await seller();
    const clock = await createClock(s, 'Renovações');
    expect(clock).toMatchObject({
      id: expect.stringMatching(/^clock_/),
      status: 'ready',
      name: 'Renovações',
    });
    expect((await get(s, `${CLOCKS}/${clock.id}`)).body).toEqual(clock);
    expect((await get(s, CLOCKS)).body.data.map((c: { id: string }) => c.id)).toContain(clock.id);

    const live = await fixtures.seller({ environment: 'live' });
    const sandboxOfLive = await fixtures.apiKey(live.jwt, { environment: 'test', name: 'sandbox' });
    const liveClock = await post(sandboxOfLive, CLOCKS, { frozenTime: clock.frozenTime });
    expect(liveClock.status).toBe(201);
    for (const [method, path] of [
      ['POST', CLOCKS],
      ['GET', CLOCKS],
      ['GET', `${CLOCKS}/${liveClock.body.id}`],
      ['DELETE', `${CLOCKS}/${liveClock.body.id}`],
      ['POST', `${CLOCKS}/${liveClock.body.id}/advance`],
    ] as const) {
      const body = method === 'POST' ? { frozenTime: clock.frozenTime } : undefined;
      const res =
        method === 'GET'
          ? await get(live, path)
          : method === 'DELETE'
            ? await api.del(path, { token: live.key })
            : await post(live, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toBe(`Cannot ${method} ${path}`);
    }
    // A live customer names no clock: the field is unknown there.
    const liveCustomer = await post(live, '/api/v1/customers', {
      ...customerBody,
      testClockId: liveClock.body.id,
    });
    expect(liveCustomer.status).toBe(400);
    expect(liveCustomer.body.message).toEqual(['testClockId is not allowed']);
    // Another seller's clock is no clock of this one.
    const other = await customer(s, { document: OTHER_DOCUMENT, testClockId: liveClock.body.id }).catch(
      () => null,
    );
    expect(other).toBeNull();
    const foreign = await post(s, '/api/v1/customers', { ...customerBody, testClockId: liveClock.body.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('testClockId names no test clock of this seller');

    const deleted = await api.del(`${CLOCKS}/${clock.id}`, { token: s.key });
    expect(deleted.body).toEqual({ id: clock.id, deleted: true });
    expect((await get(s, `${CLOCKS}/${clock.id}`)).status).toBe(404);
  });

  it('advances a monthly subscription three months in bounded steps: three renewals with their webhooks, nothing else moves', async () => {
    const s = await seller();
    const clock = await createClock(s);
    const onClock = await customer(s, { testClockId: clock.id });
    expect(onClock.testClockId).toBe(clock.id);
    const offClock = await customer(s, { document: OTHER_DOCUMENT, name: 'Joana' });
    expect(offClock.testClockId).toBeUndefined();
    const price = await createPrice(s);
    const receiver = await new Receiver().start();
    const endpoint = await post(s, '/api/webhook-endpoints', {
      url: receiver.url,
      events: ['subscription.renewed'],
    });
    expect(endpoint.status).toBe(201);
    // Another seller with the same schedule in real time.
    const neighbour = await seller();
    const neighbourCustomer = await customer(neighbour);
    const neighbourSub = await subscribe(neighbour, neighbourCustomer, (await createPrice(neighbour)).id);
    try {
      const sub = await subscribe(s, onClock, price.id);
      expect(sub).toMatchObject({ status: 'active', billingCycle: 1, testClockId: clock.id });
      expect(sub.currentPeriodStart).toBe(clock.frozenTime);
      const offSub = await subscribe(s, offClock, price.id);
      expect(offSub.testClockId).toBeUndefined();

      // At most two periods of the shortest subscription per advance.
      const beyond = await advance(s, clock.id, periodEnd(clock.frozenTime, 'month', 1, 3));
      expect(beyond.status).toBe(400);
      expect(beyond.body.message[0]).toMatch(/^frozenTime may be at most /);
      const backwards = await advance(s, clock.id, clock.frozenTime);
      expect(backwards.status).toBe(400);
      expect(backwards.body.message[0]).toMatch(/^frozenTime must be later/);

      const hour = 3_600_000;
      const steps = [1, 3].map((n) =>
        new Date(Date.parse(periodEnd(clock.frozenTime, 'month', 1, n)) + hour).toISOString(),
      );
      for (const frozenTime of steps) {
        const moved = await advance(s, clock.id, frozenTime);
        expect(moved.status, JSON.stringify(moved.body)).toBe(200);
        expect(moved.body).toMatchObject({ id: clock.id, frozenTime, status: 'ready' });
      }
      // The fourth period starts three months after the first.
      const renewed = (await get(s, `/api/subscriptions/${sub.id}`)).body;
      expect(renewed).toMatchObject({
        status: 'active',
        billingCycle: 4,
        currentPeriodStart: periodEnd(clock.frozenTime, 'month', 1, 3),
        failedPaymentCount: 0,
      });
      const payments = (await get(s, `/api/subscriptions/${sub.id}/events`)).body.filter(
        (e: { eventType: string }) => e.eventType === 'payment_success',
      );
      expect(
        payments.map((e: { eventData: { billingCycle: number } }) => e.eventData.billingCycle).sort(),
      ).toEqual([1, 2, 3, 4]);
      for (const p of payments.filter(
        (e: { eventData: { billingCycle: number } }) => e.eventData.billingCycle > 1,
      )) {
        const t = (await get(s, `/api/transactions/${p.eventData.transactionId}`)).body;
        expect(t).toMatchObject({ status: 'captured', subscriptionId: sub.id, isRecurring: true });
        expect(t.createdAt).toBe(periodEnd(clock.frozenTime, 'month', 1, p.eventData.billingCycle - 1));
      }
      await waitFor(
        () => receiver.received.filter((r) => r.json?.event === 'subscription.renewed').length === 3,
      );
      expect(
        receiver.received
          .filter((r) => r.json?.event === 'subscription.renewed')
          .map((r) => r.json.data.billingCycle)
          .sort(),
      ).toEqual([2, 3, 4]);

      // The customer off the clock, and the other seller's subscription, are where real time left them.
      expect((await get(s, `/api/subscriptions/${offSub.id}`)).body).toMatchObject({ billingCycle: 1 });
      expect((await get(neighbour, `/api/subscriptions/${neighbourSub.id}`)).body).toMatchObject({
        billingCycle: 1,
        currentPeriodEnd: neighbourSub.currentPeriodEnd,
      });
      // The clock's subscription is never fired by the real-time schedules.
      const dueJob = `${s.sellerId}:test:${sub.id}`;
      expect(
        runtime.scheduler
          .pending()
          .some((e) => e.payload.job === 'subscription-due' && e.payload.id === dueJob),
      ).toBe(false);
    } finally {
      await api.del(`/api/webhook-endpoints/${endpoint.body.id}`, { token: s.key });
      await receiver.stop();
    }
  });

  it('issues a scheduled charge and a carnê on the clock, with reminders, when it is advanced', async () => {
    const s = await seller();
    const clock = await createClock(s);
    const c = await customer(s, { testClockId: clock.id });
    const clockDay = saoPauloDate(new Date(clock.frozenTime));
    const product = await post(s, '/api/products', {
      name: 'Curso de Violão',
      image: 'https://cdn.example.com/v.png',
      value: 1000,
      boleto: true,
      carne: { enabled: true, maxInstallments: 6, interestFactors: { '3': 1.0349 } },
    });
    expect(product.status, JSON.stringify(product.body)).toBe(201);

    const charge = await post(s, '/api/v1/scheduled-charges', {
      customerId: c.id,
      amount: 80,
      methods: ['pix'],
      type: 'one_time',
      description: 'Consulta',
      dueDate: addDays(clockDay, 20),
    });
    expect(charge.status, JSON.stringify(charge.body)).toBe(201);
    expect(charge.body).toMatchObject({ testClockId: clock.id, createdAt: clock.frozenTime });
    const plan = await post(s, '/api/v1/installment-plans', {
      productId: product.body.uuid,
      customerId: c.id,
      installments: 3,
      firstDueDate: addDays(clockDay, 5),
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    expect(plan.body).toMatchObject({ testClockId: clock.id, createdAt: clock.frozenTime });
    expect(plan.body.installmentsDetail[1].boleto).toBeNull();
    // A second carnê whose first boleto is paid: active, its next boleto is issued ten days ahead.
    const paidPlan = await post(s, '/api/v1/installment-plans', {
      productId: product.body.uuid,
      customerId: c.id,
      installments: 2,
      firstDueDate: addDays(clockDay, 3),
    });
    expect(paidPlan.status, JSON.stringify(paidPlan.body)).toBe(201);
    const firstBoleto = paidPlan.body.installmentsDetail[0].transactionId;
    expect((await post(s, `/api/test-helpers/transactions/${firstBoleto}/pay`, {})).status).toBe(200);
    const before = (await get(s, `/api/v1/scheduled-charges/${charge.body.id}`)).body;
    expect(before.cycles[0].issued).toHaveLength(0);

    // No subscription on the clock: two years bound the advance, not a period.
    const frozenTime = new Date(Date.parse(clock.frozenTime) + 40 * 86_400_000).toISOString();
    const moved = await advance(s, clock.id, frozenTime);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);

    const after = (await get(s, `/api/v1/scheduled-charges/${charge.body.id}`)).body;
    expect(after.status).toBe('overdue');
    expect(after.cycles[0].issued).toHaveLength(1);
    const pix = (await get(s, `/api/transactions/${after.cycles[0].issued[0].id}`)).body;
    expect(Date.parse(pix.createdAt)).toBeGreaterThanOrEqual(Date.parse(clock.frozenTime) + 14 * 86_400_000);
    // Never activated (installment 1 unpaid): the carnê expired on the clock.
    const carne = (await get(s, `/api/v1/installment-plans/${plan.body.uuid}`)).body;
    expect(carne.status).toBe('canceled');
    const active = (await get(s, `/api/v1/installment-plans/${paidPlan.body.uuid}`)).body;
    expect(active.status, JSON.stringify(active)).toBe('active');
    expect(active.installmentsDetail[1].boleto).not.toBeNull();
    expect(active.installmentsDetail[1].status).toBe('overdue');
    const mail = (await get(s, '/api/test-helpers/mail?limit=100')).body.data as { kind: string }[];
    expect(mail.some((m) => m.kind === 'scheduled_charge_reminder')).toBe(true);
  });

  it("runs a saved card's expiry on its customer's clock: each warning, then the expiry, once; nothing else moves", async () => {
    const s = await seller();
    const clock = await createClock(s);
    const onClock = await customer(s, { testClockId: clock.id });
    const offClock = await customer(s, { document: OTHER_DOCUMENT, name: 'Joana' });
    const neighbour = await seller();
    // Valid through the month after next: the warnings 30, 14 and 7 days before are all ahead.
    const expiry = expiryAhead(new Date(clock.frozenTime), 2);
    const card = await saveCard(s, onClock, expiry);
    const offCard = await saveCard(s, offClock, expiry);
    const neighbourCard = await saveCard(neighbour, await customer(neighbour), expiry);
    // Saved in the clock's time, the card is on no real-time schedule nor in the heartbeat's sweep.
    expect(card).toMatchObject({ status: 'active', createdAt: clock.frozenTime });
    const scheduled = (id: number, sellerId = s.sellerId) =>
      runtime.scheduler.pending().some((e) => e.name.startsWith(`pm-expiry-test-${sellerId}-${id}-`));
    expect(scheduled(card.id)).toBe(false);
    expect(scheduled(offCard.id)).toBe(true);
    const afterExpiry = new Date(Date.parse(card.expiresAt) + 86_400_000);
    const swept = await runtime.deps.deps.paymentMethods.dueExpirySteps(afterExpiry, 3);
    expect(swept).toContain(`${s.sellerId}:test:${offCard.id}`);
    expect(swept).not.toContain(`${s.sellerId}:test:${card.id}`);

    // Events on the clock carry its time, later than now: the list reaches them with a later `to`.
    const eventsOf = async (seller: Seller) =>
      (await get(seller, '/api/events?limit=100&to=2100-01-01T00:00:00Z')).body.data as {
        event: string;
        data: Record<string, unknown>;
      }[];
    const expiryEvents = async () =>
      (await eventsOf(s)).filter((e) => e.event.startsWith('payment_method.')).reverse();
    const hour = 3_600_000;
    const stageDay = (n: number) =>
      startOfSaoPauloDay(addDays(saoPauloDate(new Date(card.expiresAt)), -n)).getTime();
    // No subscription on the clock: no period bounds the advance.
    const first = await advance(s, clock.id, new Date(stageDay(30) + hour).toISOString());
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await expiryEvents())[0]).toMatchObject({
      event: 'payment_method.expiring_soon',
      data: { id: card.id, status: 'active', stage: 30, daysUntilExpiry: 30, ...expiry },
    });

    for (const to of [Date.parse(card.expiresAt) + hour, Date.parse(card.expiresAt) + 40 * 86_400_000]) {
      const moved = await advance(s, clock.id, new Date(to).toISOString());
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    }
    const events = await expiryEvents();
    expect(events.map((e) => [e.event, e.data.id, e.data.stage ?? null])).toEqual([
      ['payment_method.expiring_soon', card.id, 30],
      ['payment_method.expiring_soon', card.id, 14],
      ['payment_method.expiring_soon', card.id, 7],
      ['payment_method.expired', card.id, null],
    ]);
    expect(events[3].data).toMatchObject({ status: 'expired', expiresAt: card.expiresAt });
    const stored = await get(s, `/api/v1/customers/${onClock.uuid}/payment-methods`);
    expect(stored.body.data[0]).toMatchObject({ id: card.id, status: 'expired' });

    // The same card off the clock, and the other seller's, are where real time left them.
    const off = await get(s, `/api/v1/customers/${offClock.uuid}/payment-methods`);
    expect(off.body.data[0]).toMatchObject({ id: offCard.id, status: 'active' });
    expect(scheduled(offCard.id)).toBe(true);
    const theirs = await eventsOf(neighbour);
    expect(theirs.filter((e) => e.event.startsWith('payment_method.'))).toEqual([]);
    expect(scheduled(neighbourCard.id, neighbour.sellerId)).toBe(true);

    // Once the clock is deleted, a sale to its customer is still made, but keeps no new card on it.
    expect((await api.del(`${CLOCKS}/${clock.id}`, { token: s.key })).status).toBe(200);
    await saveCard(s, onClock, expiryAhead(new Date(clock.frozenTime), 12));
    const kept = await get(s, `/api/v1/customers/${onClock.uuid}/payment-methods`);
    expect(kept.body.data.map((c: SavedCard) => c.id)).toEqual([card.id]);
  });
  it("starts a checkout session's subscription on its buyer's clock, paid at once or after a trial", async () => {
    const s = await seller();
    const clock = await createClock(s);
    const buyer = await customer(s, { testClockId: clock.id });
    const card = {
      number: '4111111111111111',
      holderName: 'MARIA SOUZA',
      expiryMonth: 12,
      expiryYear: 2040,
      cvv: '123',
    };
    const checkout = async (price: { id: number }) => {
      const session = await post(s, '/api/checkout/sessions', {
        product_id: s.product.id,
        price_id: String(price.id),
      });
      expect(session.status, JSON.stringify(session.body)).toBe(201);
      const paid = await post(s, `/api/test-helpers/checkout/sessions/${session.body.id}/pay`, {
        paymentMethod: 'card',
        card,
        customer: { ...customerBody, document: buyer.document },
      });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      const closed = await get(s, `/api/checkout/sessions/${session.body.id}`);
      return (await get(s, `/api/subscriptions/${closed.body.data.subscription_id}`)).body;
    };
    const paidNow = await checkout(await createPrice(s));
    expect(paidNow).toMatchObject({ status: 'active', billingCycle: 1, testClockId: clock.id });
    expect(paidNow.currentPeriodStart).toBe(clock.frozenTime);
    const trialPrice = await post(s, `/api/products/${s.product.id}/prices`, { ...monthly, trialDays: 7 });
    expect(trialPrice.status, JSON.stringify(trialPrice.body)).toBe(201);
    const trial = await checkout(trialPrice.body);
    expect(trial).toMatchObject({ status: 'active', billingCycle: 0, testClockId: clock.id });
    expect(trial.currentPeriodStart).toBe(clock.frozenTime);
    expect(Date.parse(trial.trialEndsAt)).toBeGreaterThanOrEqual(Date.parse(clock.frozenTime) + 7 * DAY_MS);

    // The clock renews the one and converts the other; real time moves neither.
    const frozenTime = new Date(
      Date.parse(periodEnd(clock.frozenTime, 'month', 1, 1)) + 3_600_000,
    ).toISOString();
    expect((await advance(s, clock.id, frozenTime)).status).toBe(200);
    expect((await get(s, `/api/subscriptions/${paidNow.id}`)).body).toMatchObject({
      status: 'active',
      billingCycle: 2,
    });
    expect((await get(s, `/api/subscriptions/${trial.id}`)).body).toMatchObject({
      status: 'active',
      billingCycle: 1,
    });
  });
});

describe('the limits of test clocks', () => {
  it('moves a clock with no subscription at most two years per advance', async () => {
    const s = await seller();
    const clock = await createClock(s);
    const twoYears = periodEnd(clock.frozenTime, 'year', 1, 2);
    const beyond = await advance(s, clock.id, new Date(Date.parse(twoYears) + 1000).toISOString());
    expect(beyond.status).toBe(400);
    expect(beyond.body.message).toEqual([
      `frozenTime may be at most ${twoYears}: with no subscription on the clock, an advance moves at most 2 years`,
    ]);
    const moved = await advance(s, clock.id, twoYears);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ frozenTime: twoYears, status: 'ready' });
  });

  it('keeps at most 100 clocks per seller environment, even when created at once; a deletion frees a slot', async () => {
    const s = await seller();
    const first = await createClock(s);
    // 97 more counted as if created: the real rule, without creating them.
    await runtime.deps.table.update({
      Key: keys.testClockCount(s.tenant),
      UpdateExpression: 'ADD clocks :n',
      ExpressionAttributeValues: { ':n': 97 },
    });
    const frozenTime = first.frozenTime;
    const racing = await Promise.all(Array.from({ length: 5 }, () => post(s, CLOCKS, { frozenTime })));
    const created = racing.filter((r) => r.status === 201).length;
    expect(created).toBeLessThanOrEqual(2);
    for (const r of racing.filter((r) => r.status !== 201)) {
      expect(r.status).toBe(409);
      expect(['limit_reached', 'concurrent_update']).toContain(r.body.code);
    }
    // One at a time up to the cap: 100 clocks counted, and exactly as many kept (no partial write).
    for (let i = created; i < 2; i += 1) expect((await post(s, CLOCKS, { frozenTime })).status).toBe(201);
    const refused = await post(s, CLOCKS, { frozenTime });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'limit_reached',
      message: 'A seller may have at most 100 test clocks in the sandbox; delete one before creating another',
    });
    expect((await get(s, `${CLOCKS}?limit=100`)).body.data).toHaveLength(3);

    expect((await api.del(`${CLOCKS}/${first.id}`, { token: s.key })).status).toBe(200);
    expect((await api.del(`${CLOCKS}/${first.id}`, { token: s.key })).status).toBe(404);
    expect((await post(s, CLOCKS, { frozenTime })).status).toBe(201);
    expect((await post(s, CLOCKS, { frozenTime })).status).toBe(409);
    // Another seller counts apart.
    const other = await seller();
    expect((await post(other, CLOCKS, { frozenTime })).status).toBe(201);
  });

  // Moves the runtime's clock 30 days: the last test of the file.
  it('deletes a clock 30 days after its creation, by its schedule or by the heartbeat when the schedule is lost; what lived on it stays, frozen', async () => {
    const s = await seller();
    const before = runtime.clock.now().getTime();
    const scheduled = await createClock(s);
    expect(Date.parse(scheduled.deletesAfter)).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(Date.parse(scheduled.deletesAfter)).toBeLessThanOrEqual(
      runtime.clock.now().getTime() + 30 * DAY_MS,
    );
    const job = (id: string) => ({ job: 'test-clock-deletion', id: `${s.sellerId}:test:${id}` });
    const schedule = runtime.scheduler
      .pending()
      .find((e) => e.name === `test-clock-deletion-${scheduled.id}`);
    expect(schedule?.payload).toEqual(job(scheduled.id));
    expect(schedule?.at).toBe(Date.parse(scheduled.deletesAfter));

    const c = await customer(s, { testClockId: scheduled.id });
    const clockDay = saoPauloDate(new Date(scheduled.frozenTime));
    const charge = await post(s, '/api/v1/scheduled-charges', {
      customerId: c.id,
      amount: 80,
      methods: ['pix'],
      type: 'one_time',
      description: 'Consulta',
      dueDate: addDays(clockDay, 10),
    });
    expect(charge.status, JSON.stringify(charge.body)).toBe(201);
    const chargeBefore = (await get(s, `/api/v1/scheduled-charges/${charge.body.id}`)).body;

    // Eight hours later, a clock whose schedule is lost: only the heartbeat's sweep can delete it,
    // and the sweep (six hours back) can no longer see the first one's deletion time.
    await api.post('/api/test-helpers/clock/advance', { seconds: 8 * 3600 });
    const lost = await createClock(s);
    await runtime.scheduler.cancel(`test-clock-deletion-${lost.id}`);

    // A day short of 30: both clocks are still there.
    await api.post('/api/test-helpers/clock/advance', { seconds: 29 * DAY_SECONDS });
    expect((await get(s, `${CLOCKS}/${scheduled.id}`)).status).toBe(200);
    expect((await get(s, `${CLOCKS}/${lost.id}`)).status).toBe(200);
    const untilLost = Date.parse(lost.deletesAfter) - runtime.clock.now().getTime();
    await api.post('/api/test-helpers/clock/advance', { seconds: Math.ceil(untilLost / 1000) + 60 });
    for (const clock of [scheduled, lost])
      expect((await get(s, `${CLOCKS}/${clock.id}`)).status, clock.id).toBe(404);
    expect((await get(s, CLOCKS)).body.data).toEqual([]);
    const count = async () =>
      (await runtime.deps.table.get<{ clocks: number }>(keys.testClockCount(s.tenant)))?.clocks;
    expect(await count()).toBe(0);

    // Fired again (its job once more, and the heartbeat that still sees its hour): nothing changes.
    await runtime.scheduler.scheduleAt(
      'again',
      new Date(runtime.clock.now().getTime() + 1000),
      job(scheduled.id),
    );
    await api.post('/api/test-helpers/clock/advance', { seconds: 600 });
    expect(await count()).toBe(0);

    // What lived on the clock stays as it was, and runs no more.
    expect((await get(s, `/api/v1/scheduled-charges/${charge.body.id}`)).body).toEqual(chargeBefore);
    const refused = await post(s, '/api/v1/scheduled-charges', {
      customerId: c.id,
      amount: 80,
      methods: ['pix'],
      type: 'one_time',
      description: 'Consulta',
      dueDate: addDays(clockDay, 10),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toEqual(['customerId names a customer whose test clock was deleted']);
  });
});
