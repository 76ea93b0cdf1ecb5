import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { saoPauloDate } from '#shared/dates';
import { sellerFixtures } from '../support/fixtures';
import { type client, nextRateWindow, useTestRuntime } from '../support/runtime';
import { serviceTrips } from '../support/service-trips';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let serviceTripsOf: ReturnType<typeof serviceTrips>;

// No timeline ticks between requests, so the counts below are the requests' own, as in the bench.
useTestRuntime(
  (r, a) => {
    runtime = r;
    api = a;
    serviceTripsOf = serviceTrips(r);
  },
  { tickMs: 3_600_000 },
);

const MARIA = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '52998224725',
  phone: '11987654321',
};

/** DynamoDB requests of one request by command; an id block claimed ahead is not the request's. */
async function tripsOf(work: () => Promise<{ status: number; body: unknown }>, status = 200) {
  const before = { ...runtime.roundTrips.byCommand };
  const ahead = runtime.deps.table.aheadClaims;
  const res = await work();
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const claimedAhead = runtime.deps.table.aheadClaims - ahead;
  const by: Record<string, number> = {};
  for (const [k, v] of Object.entries(runtime.roundTrips.byCommand)) {
    const n = v - (before[k] ?? 0) - (k === 'UpdateItemCommand' ? claimedAhead : 0);
    if (n !== 0) by[k] = n;
  }
  return by;
}

const fixtures = sellerFixtures(() => ({ runtime, api }), 95_001);

/** A seller with a monthly price, Maria's two saved cards and a subscription on the first. */
async function setUp() {
  const { key, product } = await fixtures.seller({
    product: { name: 'Clube do livro', value: 49.9, installments: 1 },
  });
  const price = (
    await api.post(
      `/api/products/${product.id}/prices`,
      { name: 'Plano mensal', unitAmount: 49.9, billingInterval: 'month' },
      { token: key },
    )
  ).body;
  const customer = (await api.post('/api/v1/customers', { ...MARIA, personType: 'fisica' }, { token: key }))
    .body;
  const expiryYear = Number(saoPauloDate(runtime.clock.now()).slice(0, 4)) + 2;
  for (const number of ['4111111111111111', '5555555555554444']) {
    const sale = await api.post('/api/transactions', {
      productId: product.uuid,
      paymentMethod: 'creditcard',
      customer: MARIA,
      card: { number, holderName: 'MARIA SOUZA', expiryMonth: 12, expiryYear, cvv: '123' },
      saveCard: true,
    });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
  }
  const listed = await api.get(`/api/v1/customers/${customer.uuid}/payment-methods`, { token: key });
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  const cards = listed.body.data as { id: number; last4: string }[];
  const [first, second] = ['1111', '4444'].map((l) => cards.find((c) => c.last4 === l)?.id as number);
  const sub = await api.post(
    '/api/subscriptions',
    { customerId: customer.id, priceId: price.id, paymentMethodId: first },
    { token: key },
  );
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  await nextRateWindow(runtime, api);
  return { key, customer, subscriptionId: sub.body.id as number, secondCard: second };
}

describe('round trips of the customer portal (issue 17)', () => {
  it("authenticates a token with its rate count in one UpdateItem; an action reads its subscription, then that subscription's product's configuration", async () => {
    const s = await setUp();
    // The container's first session waits for its first block of ids; later ones take them from memory.
    await api.post('/api/portal/sessions', { customerId: s.customer.id }, { token: s.key });
    let token = '';
    const session = await tripsOf(async () => {
      const res = await api.post('/api/portal/sessions', { customerId: s.customer.id }, { token: s.key });
      token = res.body.token;
      return res;
    }, 201);
    // The API key's count, the customer's id pointer, the session.
    expect(session).toEqual({ UpdateItemCommand: 1, GetItemCommand: 1, PutItemCommand: 1 });

    const at = (path: string) => `${path}${path.includes('?') ? '&' : '?'}token=${token}`;
    const sub = (action: string) => at(`/api/portal/subscriptions/${s.subscriptionId}/${action}`);

    // The session's count; the two lists; then the profile and every configuration, in one read.
    expect(await tripsOf(() => api.get(at('/api/portal')))).toEqual({
      UpdateItemCommand: 1,
      BatchGetItemCommand: 1,
      QueryCommand: 2,
    });
    // The subscription, then its product's configuration (the product, its own and the seller's):
    // what the customer may do is the subscription's product's to say, whatever the session's.
    const write = {
      UpdateItemCommand: 1,
      GetItemCommand: 1,
      BatchGetItemCommand: 1,
      TransactWriteItemsCommand: 1,
    };
    expect(await tripsOf(() => api.post(sub('pause')))).toEqual(write);
    expect(await tripsOf(() => api.post(sub('resume')))).toEqual(write);
    // The subscription and the profile the e-mail goes to in one read, then the configuration.
    const withProfile = { UpdateItemCommand: 1, BatchGetItemCommand: 2, TransactWriteItemsCommand: 1 };
    expect(await tripsOf(() => api.post(sub('cancel'), { atPeriodEnd: true }))).toEqual(withProfile);
    expect(await tripsOf(() => api.post(sub('reactivate')))).toEqual(write);
    // The card joins the subscription's read; the switch writes the subscription alone (it emits no
    // event), so its one conditional write is a PutItem, not a transaction.
    expect(
      await tripsOf(() => api.post(sub('update-payment-method'), { paymentMethodId: s.secondCard })),
    ).toEqual({ UpdateItemCommand: 1, BatchGetItemCommand: 2, PutItemCommand: 1 });
    // The new card is written with the subscription's switch to it (the sandbox's tokenization apart).
    const card = { holderName: 'MARIA SOUZA', expiryMonth: 12, expiryYear: 2031, cvv: '123' };
    const added = await serviceTripsOf(() =>
      api.post(sub('add-card-and-update'), { ...card, cardNumber: '4242424242424242' }),
    );
    expect(added.result.status, JSON.stringify(added.result.body)).toBe(200);
    // 6: the card-testing guard reads its counters and holds first (one BatchGetItem), then counts the
    // client's attempt (one UpdateItem).
    expect(added).toMatchObject({ trips: 6, providerTrips: 1 });
    expect(await tripsOf(() => api.get(sub('events')))).toEqual({
      UpdateItemCommand: 1,
      GetItemCommand: 1,
      BatchGetItemCommand: 1,
      QueryCommand: 1,
    });
    expect(
      await tripsOf(() => api.call('PUT', at('/api/portal/customer-info'), { body: { name: 'Maria S.' } })),
    ).toEqual({ UpdateItemCommand: 2, BatchGetItemCommand: 1 });
  });

  it('answers an unknown or expired token 401 after one failed conditional UpdateItem, one read that tells them apart, and the count of failures of the client address', async () => {
    const s = await setUp();
    const token = (await api.post('/api/portal/sessions', { customerId: s.customer.id }, { token: s.key }))
      .body.token as string;
    expect(await tripsOf(() => api.get(`/api/portal?token=pt_${'A'.repeat(43)}`), 401)).toEqual({
      UpdateItemCommand: 2,
      GetItemCommand: 1,
    });
    // 61 minutes: past the token's hour, and an odd gap for the client's failure counter (after an
    // even gap its slot is reset first, one more UpdateItem: docs/data-model.md).
    await api.post('/api/test-helpers/clock/advance', { seconds: 3_660 });
    expect(await tripsOf(() => api.get(`/api/portal?token=${token}`), 401)).toEqual({
      UpdateItemCommand: 2,
      GetItemCommand: 1,
    });
  });
});
