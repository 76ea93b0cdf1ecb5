import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { saoPauloDate } from '#shared/dates';
import { periodEnd } from '#shared/domain/subscriptions/periods';
import { customerBody, sellerFixtures } from '../support/fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { type client, logLines, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 93_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const DAY_S = 86_400;
const OTHER_DOCUMENT = '11144477735';
const monthly = { name: 'Mensal', unitAmount: 29.9, billingInterval: 'month' };

/** The expiry a year after the runtime clock's month (Sao Paulo): a card that stays valid in these tests. */
function validExpiry() {
  const [y, m] = saoPauloDate(runtime.clock.now()).split('-').map(Number);
  return { expiryMonth: m, expiryYear: y + 2 };
}

/** A seller with a sandbox key, one customer and one product. */
const seller = () => fixtures.seller({ customer: {}, product: { name: 'Clube do livro', installments: 1 } });
type Seller = Awaited<ReturnType<typeof seller>>;

/**
 * A card saved the way a buyer saves it: a card payment with `saveCard: true` by a registered
 * customer of the seller (the seller's first one unless another is given). Answers the saved method
 * as the customer's list shows it.
 */
async function saveCard(
  s: Seller,
  number = '4111111111111111',
  customer: { uuid: string; document: string } = s.customer,
) {
  const paid = await api.post('/api/transactions', {
    productId: s.product.uuid,
    paymentMethod: 'creditcard',
    customer: { ...customerBody, document: customer.document },
    card: { number, holderName: 'MARIA SOUZA', ...validExpiry(), cvv: '123' },
    saveCard: true,
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  const listed = await get(s, `/api/v1/customers/${customer.uuid}/payment-methods`);
  const card = listed.body.data.find((m: { last4: string }) => m.last4 === number.slice(-4));
  if (!card) throw new Error(`the card was not saved: ${JSON.stringify(listed.body)}`);
  return card as { id: number; last4: string; brand: string; customerId: number };
}

/** Another registered customer of the seller (another document). */
async function otherCustomer(s: Seller) {
  const res = await post(s, '/api/v1/customers', {
    ...customerBody,
    document: OTHER_DOCUMENT,
    name: 'Joana',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; uuid: string; document: string };
}

async function createPrice(s: Seller, body: Record<string, unknown> = monthly) {
  const res = await api.post(`/api/products/${s.product.id}/prices`, body, { token: s.key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function subscribe(s: Seller, body: Record<string, unknown>) {
  const res = await api.post('/api/subscriptions', body, { token: s.key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A seller with a price and a saved card, subscribed: the usual start of an action test. */
async function subscribed(priceBody: Record<string, unknown> = monthly) {
  const s = await seller();
  const price = await createPrice(s, priceBody);
  const card = await saveCard(s);
  const sub = await subscribe(s, { customerId: s.customer.id, priceId: price.id, paymentMethodId: card.id });
  return { s, price, card, sub };
}

const post = (s: Seller, path: string, body?: unknown) => api.post(path, body, { token: s.key });
const get = (s: Seller, path: string) => api.get(path, { token: s.key });
const eventTypes = async (s: Seller, id: number) =>
  (await get(s, `/api/subscriptions/${id}/events`)).body.map((e: { eventType: string }) => e.eventType);

/** Moves the runtime clock to `at` (running everything due on the way). */
async function advanceTo(at: Date) {
  const seconds = Math.ceil((at.getTime() - runtime.clock.now().getTime()) / 1000);
  if (seconds > 0) expect((await api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);
}

/** One seller for the many refused bodies (nothing is written for any of them). */
let badInputSeller: Promise<Seller> | undefined;

describe('prices', () => {
  it('creates a price of the product by id or uuid and answers it in Reais', async () => {
    const s = await seller();
    const res = await api.post(
      `/api/products/${s.product.uuid}/prices`,
      { name: 'Trimestral', unitAmount: 79.9, billingInterval: 'month', intervalCount: 3, trialDays: 7 },
      { token: s.jwt, headers: { 'x-environment': 'test' } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: 'subscription_price',
      productId: s.product.id,
      productUuid: s.product.uuid,
      product: { id: s.product.id, name: 'Clube do livro' },
      name: 'Trimestral',
      unitAmount: 79.9,
      billingInterval: 'month',
      intervalCount: 3,
      trialDays: 7,
      isActive: true,
      environment: 'test',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const defaults = await createPrice(s, { name: 'Semanal', unitAmount: 5, billingInterval: 'week' });
    expect(defaults).toMatchObject({ unitAmount: 5, intervalCount: 1, trialDays: 0 });
  });

  it.each([
    [{ ...monthly, unitAmount: 0 }, 'unitAmount must be at least 5'],
    [{ ...monthly, unitAmount: 4.99 }, 'unitAmount must be at least 5'],
    [
      { ...monthly, unitAmount: 9.999 },
      'unitAmount must be a non-negative amount in Reais with at most 2 decimal places',
    ],
    [{ name: 'Mensal', billingInterval: 'month' }, 'unitAmount must be a number'],
    [{ unitAmount: 10, billingInterval: 'month' }, 'name is required'],
    [{ ...monthly, billingInterval: 'day' }, 'billingInterval must be one of: week, month, year'],
    [{ ...monthly, intervalCount: 13 }, 'intervalCount must be at most 12 when billingInterval is month'],
    [
      { ...monthly, billingInterval: 'year', intervalCount: 2 },
      'intervalCount must be at most 1 when billingInterval is year',
    ],
    [{ ...monthly, trialDays: 731 }, 'trialDays must be at most 730'],
    [{ ...monthly, isActive: false }, 'isActive is not allowed'],
  ])('answers 400 for %j naming the field', async (body, message) => {
    badInputSeller ??= seller();
    const s = await badInputSeller;
    const res = await post(s, `/api/products/${s.product.id}/prices`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect((await get(s, `/api/products/${s.product.id}/prices`)).body).toEqual({ data: [] });
  });

  it('lists the prices newest first, filtered by active, and deactivates one (twice answers it unchanged)', async () => {
    const s = await seller();
    const first = await createPrice(s);
    const second = await createPrice(s, { ...monthly, name: 'Anual', billingInterval: 'year' });
    const deactivated = await api.del(`/api/products/${s.product.id}/prices/${first.uuid}`, { token: s.key });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body).toMatchObject({ id: first.id, isActive: false });
    const again = await api.del(`/api/products/${s.product.uuid}/prices/${first.id}`, { token: s.key });
    expect(again.body).toEqual(deactivated.body);
    const ids = async (query = '') =>
      (await get(s, `/api/products/${s.product.id}/prices${query}`)).body.data.map(
        (p: { id: number }) => p.id,
      );
    expect(await ids()).toEqual([second.id, first.id]);
    expect(await ids('?active=true')).toEqual([second.id]);
    expect(await ids('?active=false')).toEqual([first.id]);
    const bad = await get(s, `/api/products/${s.product.id}/prices?active=yes`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(['active must be true or false']);
  });

  it("answers 404 for another seller's product or price, and for ids that name nothing", async () => {
    const owner = await seller();
    const other = await seller();
    const price = await createPrice(owner);
    for (const ref of [owner.product.id, owner.product.uuid, 'not-an-id']) {
      for (const res of [
        await post(other, `/api/products/${ref}/prices`, monthly),
        await get(other, `/api/products/${ref}/prices`),
        await api.del(`/api/products/${ref}/prices/${price.id}`, { token: other.key }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.message).toBe('Product not found');
      }
    }
    for (const ref of [price.id, price.uuid, 'price_1', 999_999])
      expect(
        (await api.del(`/api/products/${other.product.id}/prices/${ref}`, { token: other.key })).body,
      ).toMatchObject({
        statusCode: 404,
        message: 'Price not found',
      });
    expect((await get(owner, `/api/products/${owner.product.id}/prices`)).body.data[0].isActive).toBe(true);
  });
});

describe('POST /api/subscriptions', () => {
  it("charges the customer's saved card and answers every field of the spec's Subscription", async () => {
    const s = await seller();
    const price = await createPrice(s);
    const card = await saveCard(s);
    const res = await api.post(
      '/api/subscriptions',
      {
        customerId: s.customer.id,
        priceId: price.uuid,
        paymentMethodId: card.id,
        metadata: { plan: 'gold' },
      },
      { token: s.key, headers: { 'x-idempotency-key': `sub-${s.sellerId}` } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const sub = res.body;
    expect(sub).toEqual({
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: 'subscription',
      customerId: s.customer.id,
      subscriptionPriceId: price.id,
      sellerId: s.sellerId,
      paymentMethodId: card.id,
      status: 'active',
      collectionMethod: 'card',
      currentPeriodStart: expect.any(String),
      currentPeriodEnd: periodEnd(sub.currentPeriodStart, 'month', 1, 1),
      billingCycle: 1,
      trialEndsAt: null,
      cancelAt: null,
      cancelledAt: null,
      cancelAtPeriodEnd: false,
      cancelReason: null,
      pauseCollection: null,
      lastPaymentAt: sub.currentPeriodStart,
      nextPaymentAt: sub.currentPeriodEnd,
      failedPaymentCount: 0,
      checkoutSessionId: null,
      metadata: { plan: 'gold' },
      environment: 'test',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      subscriptionPrice: {
        id: price.id,
        uuid: price.uuid,
        name: 'Mensal',
        unitAmount: 29.9,
        billingInterval: 'month',
        intervalCount: 1,
        product: { id: s.product.id, name: 'Clube do livro' },
      },
      customer: { id: s.customer.id, name: 'Maria Souza', email: 'maria@example.com' },
      paymentMethod: { id: card.id, cardLast4: '1111', cardBrand: 'visa' },
    });
    // The same key answers the same subscription; nothing is charged twice.
    const replay = await api.post(
      '/api/subscriptions',
      {
        customerId: s.customer.id,
        priceId: price.uuid,
        paymentMethodId: card.id,
        metadata: { plan: 'gold' },
      },
      { token: s.key, headers: { 'x-idempotency-key': `sub-${s.sellerId}` } },
    );
    expect(replay.body.id).toBe(sub.id);
    expect((await get(s, '/api/subscriptions')).body.totalCount).toBe(1);

    const read = await get(s, `/api/subscriptions/${sub.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(sub);

    const events = (await get(s, `/api/subscriptions/${sub.id}/events`)).body;
    expect(events.map((e: { eventType: string }) => e.eventType)).toEqual([
      'payment_success',
      'subscription.activated',
      'subscription.created',
    ]);
    const payment = events[0];
    expect(payment).toEqual({
      id: expect.any(Number),
      subscriptionId: sub.id,
      eventType: 'payment_success',
      eventData: {
        amount: 29.9,
        transactionId: expect.any(Number),
        paidAt: sub.lastPaymentAt,
        billingCycle: 1,
      },
      createdAt: expect.any(String),
    });
    expect(events[2].eventData).toEqual({ priceId: price.id, trialDays: 0 });
    const charge = await get(s, `/api/transactions/${payment.eventData.transactionId}`);
    expect(charge.body).toMatchObject({
      status: 'captured',
      value: 29.9,
      isRecurring: true,
      subscriptionId: sub.id,
      billingCycle: 1,
      card: { brand: 'visa', last4: '1111' },
    });
  });

  it('answers 201 with status failed when the first charge is declined', async () => {
    const s = await seller();
    const price = await createPrice(s);
    const card = await saveCard(s);
    const outcome = await post(s, `/api/test-helpers/payment-methods/${card.id}/outcome`, {
      outcome: 'declined',
      failureCode: 'insufficient_funds',
    });
    expect(outcome.status).toBe(200);
    const sub = await subscribe(s, {
      customerId: s.customer.id,
      priceId: price.id,
      paymentMethodId: card.id,
    });
    expect(sub).toMatchObject({
      status: 'failed',
      failedPaymentCount: 1,
      billingCycle: 0,
      nextPaymentAt: null,
    });
    const events = (await get(s, `/api/subscriptions/${sub.id}/events`)).body;
    expect(events.map((e: { eventType: string }) => e.eventType)).toEqual([
      'payment_failed',
      'subscription.created',
    ]);
    expect(events[0].eventData).toMatchObject({
      failureCode: 'insufficient_funds',
      attempt: 1,
      nextRetryAt: null,
    });
  });

  it("starts the price's trial without a charge", async () => {
    const s = await seller();
    const price = await createPrice(s, { ...monthly, trialDays: 14 });
    const card = await saveCard(s);
    const sub = await subscribe(s, {
      customerId: s.customer.id,
      priceId: price.id,
      paymentMethodId: card.id,
    });
    expect(sub).toMatchObject({ status: 'active', billingCycle: 0, lastPaymentAt: null });
    expect(sub.trialEndsAt).toBe(sub.currentPeriodEnd);
    expect(sub.nextPaymentAt).toBe(sub.trialEndsAt);
    expect(await eventTypes(s, sub.id)).toEqual([
      'trial_started',
      'subscription.activated',
      'subscription.created',
    ]);
  });

  it('answers 404 for what the seller does not have, 400 for bad fields and a deactivated price', async () => {
    const s = await seller();
    const other = await seller();
    const price = await createPrice(s);
    const card = await saveCard(s);
    const joana = await otherCustomer(s);
    const otherCard = await saveCard(s, '5555555555554444', joana);
    const body = { customerId: s.customer.id, priceId: price.id, paymentMethodId: card.id };
    const cases: [Seller, Record<string, unknown>, number, string | string[]][] = [
      [s, { ...body, customerId: 999_999 }, 404, 'Customer not found'],
      [s, { ...body, priceId: 999_999 }, 404, 'Price not found'],
      [s, { ...body, paymentMethodId: otherCard.id }, 404, 'Payment method not found'],
      // Joana is a customer of the first seller only (customer ids are the global customer's).
      [other, { ...body, customerId: joana.id }, 404, 'Customer not found'],
      [other, body, 404, 'Price not found'],
      [s, { ...body, priceId: 'price_1' }, 400, ['priceId must be a price id or uuid']],
      [s, { ...body, trialDays: -1 }, 400, ['trialDays must be at least 0']],
      [s, { priceId: price.id }, 400, ['customerId is required', 'paymentMethodId is required']],
    ];
    for (const [who, input, status, message] of cases) {
      const res = await post(who, '/api/subscriptions', input);
      expect([res.status, res.body.message], JSON.stringify(input)).toEqual([status, message]);
    }
    await api.del(`/api/products/${s.product.id}/prices/${price.id}`, { token: s.key });
    const res = await post(s, '/api/subscriptions', body);
    expect([res.status, res.body.message]).toEqual([400, ['priceId names a deactivated price']]);
    expect((await get(s, '/api/subscriptions')).body.totalCount).toBe(0);
  });
});

describe('reads', () => {
  it("answers 404 for another seller's subscription and for ids that name none", async () => {
    const { s, sub } = await subscribed();
    const other = await seller();
    for (const path of [`/api/subscriptions/${sub.id}`, `/api/subscriptions/${sub.id}/events`]) {
      expect((await get(other, path)).body).toMatchObject({
        statusCode: 404,
        message: 'Subscription not found',
      });
    }
    for (const id of ['999999', sub.uuid, 'abc'])
      expect((await get(s, `/api/subscriptions/${id}`)).body).toMatchObject({
        statusCode: 404,
        message: 'Subscription not found',
      });
    const live = await api.get(`/api/subscriptions/${sub.id}`, {
      token: s.jwt,
      headers: { 'x-environment': 'live' },
    });
    expect(live.status).toBe(404);
  });

  it('filters by status, customer and product, newest first, in pages with totals', async () => {
    const s = await seller();
    const price = await createPrice(s);
    const card = await saveCard(s);
    const secondProduct = (
      await post(s, '/api/products', { name: 'Outro', image: 'https://cdn.example.com/o.png', value: 100 })
    ).body;
    const otherPrice = (
      await post(s, `/api/products/${secondProduct.id}/prices`, { ...monthly, name: 'Outro mensal' })
    ).body;
    const body = { customerId: s.customer.id, paymentMethodId: card.id };
    const subs = [];
    for (const priceId of [price.id, price.id, otherPrice.id, price.id])
      subs.push(await subscribe(s, { ...body, priceId }));
    await post(s, `/api/subscriptions/${subs[1].id}/cancel`);
    const ids = async (query: string) => {
      const res = await get(s, `/api/subscriptions${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return [
        res.body.data.map((x: { id: number }) => x.id),
        res.body.count,
        res.body.totalCount,
        res.body.totalPages,
      ];
    };
    const [a, b, c, d] = subs.map((x) => x.id);
    expect(await ids('')).toEqual([[d, c, b, a], 4, 4, 1]);
    expect(await ids('?limit=2')).toEqual([[d, c], 2, 4, 2]);
    expect(await ids('?limit=2&page=2')).toEqual([[b, a], 2, 4, 2]);
    expect(await ids('?status=active')).toEqual([[d, c, a], 3, 3, 1]);
    expect(await ids('?status=canceled')).toEqual([[b], 1, 1, 1]);
    expect(await ids(`?productId=${s.product.id}`)).toEqual([[d, b, a], 3, 3, 1]);
    expect(await ids(`?productId=${s.product.id}&status=active&limit=1&page=2`)).toEqual([[a], 1, 2, 2]);
    expect(await ids(`?customerId=${s.customer.id}&productId=${secondProduct.id}`)).toEqual([[c], 1, 1, 1]);
    expect(await ids('?customerId=999999')).toEqual([[], 0, 0, 0]);
    for (const [query, message] of [
      ['?status=paused', 'status must be one of: pending, active, pending_cancellation, canceled, failed'],
      ['?limit=101', 'limit must be an integer from 1 to 100'],
      ['?customerId=x', 'customerId must be a customer id (a positive integer)'],
    ]) {
      const res = await get(s, `/api/subscriptions${query}`);
      expect([res.status, res.body.message]).toEqual([400, [message]]);
    }
  });
});

describe('actions', () => {
  it('cancels at period end, reactivates, pauses, resumes, cancels now; history newest first', async () => {
    const { s, sub } = await subscribed();
    const path = `/api/subscriptions/${sub.id}`;

    const atEnd = await post(s, `${path}/cancel`, { atPeriodEnd: true, reason: 'Caro demais' });
    expect(atEnd.status, JSON.stringify(atEnd.body)).toBe(200);
    expect(atEnd.body).toMatchObject({
      status: 'pending_cancellation',
      cancelAtPeriodEnd: true,
      cancelAt: sub.currentPeriodEnd,
      cancelReason: 'Caro demais',
    });
    const twice = await post(s, `${path}/cancel`, { atPeriodEnd: true });
    expect([twice.status, twice.body.message]).toEqual([
      409,
      'Subscription cannot be canceled at period end: it is pending_cancellation',
    ]);

    const back = await post(s, `${path}/reactivate`);
    expect(back.body).toMatchObject({
      status: 'active',
      cancelAt: null,
      cancelAtPeriodEnd: false,
      billingCycle: 1,
    });

    const paused = await post(s, `${path}/pause`);
    expect(paused.body).toMatchObject({
      status: 'active',
      pauseCollection: { behavior: 'void', pausedAt: expect.any(String) },
    });
    expect((await post(s, `${path}/pause`)).body).toMatchObject({
      statusCode: 409,
      message: 'Subscription cannot be paused: it is paused',
    });
    expect((await post(s, `${path}/resume`)).body).toMatchObject({ status: 'active', pauseCollection: null });
    expect((await post(s, `${path}/resume`)).body).toMatchObject({
      statusCode: 409,
      message: 'Subscription cannot be resumed: it is not paused',
    });
    expect((await post(s, `${path}/reactivate`)).body).toMatchObject({
      statusCode: 409,
      message: 'Subscription cannot be reactivated: it is active',
    });

    const now = await post(s, `${path}/cancel`);
    expect(now.body).toMatchObject({ status: 'canceled', nextPaymentAt: null, cancelReason: null });
    expect(now.body.cancelledAt).toBe(now.body.cancelAt);
    expect((await post(s, `${path}/cancel`)).body).toMatchObject({
      statusCode: 409,
      message: 'Subscription cannot be canceled: it is canceled',
    });
    expect((await post(s, `${path}/pause`)).body.message).toBe(
      'Subscription cannot be paused: it is canceled',
    );

    // Canceled within a paid period: active again without a charge.
    const again = await post(s, `${path}/reactivate`);
    expect(again.body).toMatchObject({
      status: 'active',
      billingCycle: 1,
      nextPaymentAt: sub.currentPeriodEnd,
    });

    expect(await eventTypes(s, sub.id)).toEqual([
      'subscription.activated',
      'subscription.canceled',
      'subscription.resumed',
      'subscription.paused',
      'subscription.activated',
      'subscription.canceled',
      'payment_success',
      'subscription.activated',
      'subscription.created',
    ]);
    const history = (await get(s, `${path}/events`)).body;
    expect(history[5].eventData).toEqual({ atPeriodEnd: true, reason: 'Caro demais', by: 'seller' });
    const cancelBad = await post(s, `${path}/cancel`, { atPeriodEnd: 'yes' });
    expect([cancelBad.status, cancelBad.body.message]).toEqual([400, ['atPeriodEnd must be a boolean']]);
  });

  it("moves renewals to another card of the customer, and answers 404 for another customer's card", async () => {
    const { s, sub } = await subscribed();
    const mastercard = await saveCard(s, '5555555555554444');
    const changed = await post(s, `/api/subscriptions/${sub.id}/payment-method`, {
      paymentMethodId: mastercard.id,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      paymentMethodId: mastercard.id,
      paymentMethod: { id: mastercard.id, cardLast4: '4444', cardBrand: 'mastercard' },
    });
    const strangers = await saveCard(s, '4242424242424242', await otherCustomer(s));
    const refused = await post(s, `/api/subscriptions/${sub.id}/payment-method`, {
      paymentMethodId: strangers.id,
    });
    expect([refused.status, refused.body.message]).toEqual([404, 'Payment method not found']);
    const bad = await post(s, `/api/subscriptions/${sub.id}/payment-method`, { paymentMethodId: 'x' });
    expect([bad.status, bad.body.message]).toEqual([
      400,
      ['paymentMethodId must be a payment method id (a positive integer)'],
    ]);
    expect((await get(s, `/api/subscriptions/${sub.id}`)).body.paymentMethodId).toBe(mastercard.id);
  });

  it("answers 404 to every action on another seller's subscription", async () => {
    const { sub } = await subscribed();
    const other = await seller();
    for (const action of ['cancel', 'pause', 'resume', 'reactivate'])
      expect((await post(other, `/api/subscriptions/${sub.id}/${action}`)).status).toBe(404);
    expect(
      (await post(other, `/api/subscriptions/${sub.id}/payment-method`, { paymentMethodId: 1 })).status,
    ).toBe(404);
  });
});

describe('renewal by the test clock', () => {
  it('charges the saved card at the period end, sends subscription.renewed, then retries a declined renewal', async () => {
    const { s, card, sub } = await subscribed({ name: 'Semanal', unitAmount: 9.9, billingInterval: 'week' });
    const receiver = await new Receiver().start();
    const endpoint = await post(s, '/api/webhook-endpoints', {
      url: receiver.url,
      events: ['subscription.renewed', 'transaction.payment.failed'],
    });
    expect(endpoint.status).toBe(201);
    try {
      const firstEnd = new Date(sub.currentPeriodEnd);
      // Generous margins: the local clock also moves at wall-clock speed during an advance.
      await advanceTo(new Date(firstEnd.getTime() - 3_600_000));
      expect((await get(s, `/api/subscriptions/${sub.id}`)).body.billingCycle).toBe(1);

      await advanceTo(new Date(firstEnd.getTime() + 3_600_000));
      const renewed = (await get(s, `/api/subscriptions/${sub.id}`)).body;
      expect(renewed).toMatchObject({
        status: 'active',
        billingCycle: 2,
        currentPeriodStart: sub.currentPeriodEnd,
        currentPeriodEnd: periodEnd(sub.currentPeriodStart, 'week', 1, 2),
        failedPaymentCount: 0,
      });
      const payment = (await get(s, `/api/subscriptions/${sub.id}/events`)).body[0];
      expect(payment).toMatchObject({
        eventType: 'payment_success',
        eventData: { amount: 9.9, billingCycle: 2 },
      });
      expect((await get(s, `/api/transactions/${payment.eventData.transactionId}`)).body).toMatchObject({
        status: 'captured',
        isRecurring: true,
        subscriptionId: sub.id,
        billingCycle: 2,
      });
      await waitFor(() => receiver.received.some((r) => r.json?.event === 'subscription.renewed'));
      expect(
        receiver.received.find((r) => r.json?.event === 'subscription.renewed')?.json.data,
      ).toMatchObject({
        id: sub.id,
        billingCycle: 2,
        status: 'active',
      });

      await post(s, `/api/test-helpers/payment-methods/${card.id}/outcome`, { outcome: 'declined' });
      const secondEnd = new Date(renewed.currentPeriodEnd);
      await advanceTo(new Date(secondEnd.getTime() + 3_600_000));
      const retrying = (await get(s, `/api/subscriptions/${sub.id}`)).body;
      expect(retrying).toMatchObject({ status: 'active', billingCycle: 2, failedPaymentCount: 1 });
      const retryAt = Date.parse(retrying.nextPaymentAt);
      expect(retryAt).toBeGreaterThan(secondEnd.getTime() + 3 * DAY_S * 1000 - 60_000);
      expect(retryAt).toBeLessThan(secondEnd.getTime() + 3 * DAY_S * 1000 + 2 * 3_600_000);
      expect((await get(s, `/api/subscriptions/${sub.id}/events`)).body[0]).toMatchObject({
        eventType: 'payment_failed',
        eventData: { attempt: 1, failureCode: 'card_declined', nextRetryAt: retrying.nextPaymentAt },
      });
      await waitFor(() => receiver.received.some((r) => r.json?.event === 'transaction.payment.failed'));
      expect(JSON.stringify(receiver.received)).not.toContain('tok_');
    } finally {
      await api.del(`/api/webhook-endpoints/${endpoint.body.id}`, { token: s.key });
      await receiver.stop();
    }
    expect(logLines.join('\n')).not.toContain('4111111111111111');
  });
});
