import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { customerBody, sellerFixtures } from '../support/fixtures';
import { type client, useTestRuntime } from '../support/runtime';
import { freshRateWindow, serviceTrips } from '../support/service-trips';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let tripsOf: ReturnType<typeof serviceTrips>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 94_000);

useTestRuntime(
  (r, a) => {
    runtime = r;
    api = a;
    tripsOf = serviceTrips(r);
  },
  // No timeline ticks between requests, so the counts below are the requests' own, as in the bench.
  { tickMs: 3_600_000 },
);

/** A seller with a sandbox key, one registered customer with a saved card, a product and a monthly price. */
async function seller() {
  const { key, customer, product } = await fixtures.seller({
    customer: {},
    product: { name: 'Clube do livro', installments: 1 },
  });
  const price = (
    await api.post(
      `/api/products/${product.id}/prices`,
      { name: 'Mensal', unitAmount: 29.9, billingInterval: 'month' },
      { token: key },
    )
  ).body;
  const [y, m] = saoPauloDate(runtime.clock.now()).split('-').map(Number);
  const paid = await api.post('/api/transactions', {
    productId: product.uuid,
    paymentMethod: 'creditcard',
    customer: customerBody,
    card: {
      number: '4111111111111111',
      holderName: 'MARIA SOUZA',
      expiryMonth: m,
      expiryYear: y + 2,
      cvv: '123',
    },
    saveCard: true,
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  const cards = (await api.get(`/api/v1/customers/${customer.uuid}/payment-methods`, { token: key })).body
    .data;
  return { key, customer, product, price, card: cards[0] as { id: number } };
}
type Seller = Awaited<ReturnType<typeof seller>>;

const subscribe = (s: Seller) =>
  api.post(
    '/api/subscriptions',
    { customerId: s.customer.id, priceId: s.price.id, paymentMethodId: s.card.id },
    { token: s.key },
  );

async function subscribeTrips(s: Seller) {
  const { trips, result } = await tripsOf(() => subscribe(s));
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  expect(result.body.status).toBe('active');
  return { trips, body: result.body };
}

describe('round trips of POST /api/subscriptions (issue 17)', () => {
  it('costs 3 round trips with authentication: one read, the charge apart, one write', async () => {
    const s = await seller();
    await freshRateWindow(runtime, api);
    // The container's first subscription of this price learns the price's product (and claims id blocks).
    await subscribeTrips(s);
    const trips: number[] = [];
    for (let i = 0; i < 3; i++) trips.push((await subscribeTrips(s)).trips);
    expect(trips).toEqual([3, 3, 3]);
  });

  it('writes once more when the profile changed since its id pointer was written, and the next costs 3 again', async () => {
    const s = await seller();
    await freshRateWindow(runtime, api);
    await subscribeTrips(s);
    const renamed = await api.patch(
      `/api/v1/customers/${s.customer.uuid}`,
      { name: 'Maria Lima' },
      { token: s.key },
    );
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const stale = await subscribeTrips(s);
    expect(stale.trips).toBe(4);
    expect(stale.body.customer).toMatchObject({ name: 'Maria Lima' });
    const healed = await subscribeTrips(s);
    expect(healed.trips).toBe(3);
    expect(healed.body.customer).toMatchObject({ name: 'Maria Lima' });
  });
});

/** `count` more registered customers of the seller (documents the check digits accept). */
async function customers(s: Seller, count: number): Promise<{ id: number; uuid: string }[]> {
  const out: { id: number; uuid: string }[] = [];
  for (let i = 0; i < count; i++) {
    const base = String(100_000_000 + nextDocument++).slice(-9);
    const res = await api.post(
      '/api/v1/customers',
      { ...customerBody, name: `Cliente ${i}`, email: `c${i}@example.com`, document: cpf(base) },
      { token: s.key },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    out.push(res.body);
  }
  return out;
}
let nextDocument = 1;

/** A valid CPF from its first nine digits. */
function cpf(nine: string): string {
  const digit = (digits: string) => {
    const sum = [...digits].reduce((acc, d, i) => acc + Number(d) * (digits.length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  const ten = nine + digit(nine);
  return ten + digit(ten);
}

describe('round trips of POST /api/v1/scheduled-charges (issue 17)', () => {
  const charge = (s: Seller, customerId: number) =>
    api.post(
      '/api/v1/scheduled-charges',
      {
        customerId,
        productId: s.product.uuid,
        amount: 150.5,
        dueDate: addDays(saoPauloDate(runtime.clock.now()), 10),
        methods: ['pix', 'boleto'],
        type: 'one_time',
      },
      { token: s.key },
    );
  const chargeTrips = async (s: Seller, customerId: number) => {
    const { trips, result } = await tripsOf(() => charge(s, customerId));
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    return { trips, body: result.body };
  };

  it('costs 4 round trips with authentication for each new customer: one read, the late-charge defaults, one write', async () => {
    const s = await seller();
    const [first, ...others] = await customers(s, 4);
    await freshRateWindow(runtime, api);
    // The product is read by its uuid in the same BatchGetItem as the customer and the seller's
    // late-charge defaults, the first time too; the product's own defaults are one query beside it.
    const trips: number[] = [];
    for (const c of [first, ...others]) trips.push((await chargeTrips(s, c.id)).trips);
    expect(trips).toEqual([4, 4, 4, 4]);
  });

  it('writes once more when the profile changed since its id pointer was written, and the next costs 4 again', async () => {
    const s = await seller();
    const [c] = await customers(s, 1);
    await freshRateWindow(runtime, api);
    await chargeTrips(s, c.id);
    const renamed = await api.patch(`/api/v1/customers/${c.uuid}`, { name: 'Outro Nome' }, { token: s.key });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const stale = await chargeTrips(s, c.id);
    expect(stale.trips).toBe(5);
    expect(stale.body.customer).toMatchObject({ name: 'Outro Nome' });
    const healed = await chargeTrips(s, c.id);
    expect(healed.trips).toBe(4);
    expect(healed.body.customer).toMatchObject({ name: 'Outro Nome' });
  });
});

describe('round trips of POST /api/public/cobranca/{payToken}/card (issue 17)', () => {
  it('pays a one-time card charge in 6: the rate count, the charge with its cycles (the token names it), the card-testing counters and the client’s attempt, the payment attempt written ahead, one write; the timeline continues', async () => {
    const s = await seller();
    const today = saoPauloDate(runtime.clock.now());
    const [y, m] = today.split('-').map(Number);
    const card = {
      number: '4111111111111111',
      holderName: 'MARIA SOUZA',
      expiryMonth: m,
      expiryYear: y + 2,
      cvv: '123',
    };
    const newCharge = async () => {
      const created = await api.post(
        '/api/v1/scheduled-charges',
        {
          customerId: s.customer.id,
          productId: s.product.uuid,
          amount: 49.9,
          dueDate: addDays(today, 10),
          methods: ['card'],
          type: 'one_time',
        },
        { token: s.key },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const path = `/api/v1/scheduled-charges/${created.body.id}`;
      const before = (await api.get(path, { token: s.key })).body;
      return { path, before, token: (before.cycles[0].payUrl as string).split('/').pop() };
    };
    const warm = await newCharge();
    const measured = await newCharge();
    await freshRateWindow(runtime, api);
    // The container's first card payment waits for its first blocks of transaction and attempt ids.
    expect((await api.post(`/api/public/cobranca/${warm.token}/card`, { card })).status).toBe(201);

    const paid = await tripsOf(() => api.post(`/api/public/cobranca/${measured.token}/card`, { card }));

    expect(paid.result.status, JSON.stringify(paid.result.body)).toBe(201);
    expect(paid.result.body.status).toBe('paid');
    // The token names its charge (no pointer read), and the save continues the timeline from the read.
    // The card-testing guard reads its counters and holds in one BatchGetItem (they name the charge's
    // seller, so they cannot be read with the charge) and counts the client's attempt before the charge.
    expect(measured.token).toMatch(new RegExp(`^cob_\\d+_${measured.before.id}_[A-Za-z0-9]{32}$`));
    // One more than before: the payment attempt written before the provider is called (issue 34);
    // its settle is the reconciler's, off the buyer's wait.
    expect(paid.trips).toBe(6);
    const after = (await api.get(measured.path, { token: s.key })).body;
    expect(after.status).toBe('paid');
    const ids = (after.timeline as { id: number }[]).map((e) => e.id);
    expect(ids.length).toBeGreaterThan((measured.before.timeline as unknown[]).length);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('round trips of a scheduled charge’s reads and actions (issue 17)', () => {
  const batchReads = () => runtime.roundTrips.byCommand.BatchGetItemCommand ?? 0;

  it('reads the issued pix and boleto together: pay link 3, detail 4; mark-paid cancels them and answers the detail in 8', async () => {
    const s = await seller();
    const [c] = await customers(s, 1);
    const today = saoPauloDate(runtime.clock.now());
    /** A one-time pix and boleto charge due today (both issued when it is created): its path. */
    const dueToday = async () => {
      const created = await api.post(
        '/api/v1/scheduled-charges',
        { customerId: c.id, amount: 80, dueDate: today, methods: ['pix', 'boleto'], type: 'one_time' },
        { token: s.key },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return `/api/v1/scheduled-charges/${created.body.id}`;
    };
    const path = await dueToday();
    const issued = (await api.get(path, { token: s.key })).body;
    expect(issued.cycles[0].issued.map((t: { status: string }) => t.status).sort()).toEqual([
      'pendingBoleto',
      'pendingPix',
    ]);
    const token = (issued.cycles[0].payUrl as string).split('/').pop();
    await freshRateWindow(runtime, api);

    const before = batchReads();
    const link = await tripsOf(() => api.get(`/api/public/cobranca/${token}`));
    expect(link.result.status, JSON.stringify(link.result.body)).toBe(200);
    expect(link.result.body.pix).not.toBeNull();
    expect(link.result.body.boleto).not.toBeNull();
    // The rate count, the charge (the token names it), the two transactions in one BatchGetItem.
    expect(link.trips).toBe(3);
    expect(batchReads() - before).toBe(1);

    const detail = await tripsOf(() => api.get(path, { token: s.key }));
    expect(detail.result.body.cycles[0].issued).toHaveLength(2);
    // The rate count, the charge, its timeline, its transactions together.
    expect(detail.trips).toBe(4);

    // The container's first mark-paid waits for its first block of attempt ids.
    const warm = await dueToday();
    expect((await api.post(`${warm}/mark-paid`, { paymentDate: today }, { token: s.key })).status).toBe(200);
    const paid = await tripsOf(() => api.post(`${path}/mark-paid`, { paymentDate: today }, { token: s.key }));
    expect(paid.result.status, JSON.stringify(paid.result.body)).toBe(200);
    // The rate count, the charge, its write, the issued transactions read together, one cancel each
    // (the provider's cancels apart), then the detail it answers: its transactions and its timeline.
    expect(paid.trips).toBe(8);
    expect(paid.result.body.transactions).toEqual([]);
    const after = (await api.get(path, { token: s.key })).body;
    expect(after.status).toBe('paid');
    expect(after.transactions).toEqual([]);
    expect(after.cycles[0].issued.map((t: { status: string }) => t.status)).toEqual(['cancel', 'cancel']);
  });

  it('changes the card of a charge in 5: the charge and the card, one write, the detail’s timeline', async () => {
    const s = await seller();
    const created = await api.post(
      '/api/v1/scheduled-charges',
      {
        customerId: s.customer.id,
        amount: 80,
        dueDate: addDays(saoPauloDate(runtime.clock.now()), 10),
        methods: ['card'],
        type: 'one_time',
      },
      { token: s.key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await freshRateWindow(runtime, api);

    const changed = await tripsOf(() =>
      api.call('PUT', `/api/v1/scheduled-charges/${created.body.id}/payment-method`, {
        body: { paymentMethodId: s.card.id },
        token: s.key,
      }),
    );

    expect(changed.result.status, JSON.stringify(changed.result.body)).toBe(200);
    expect(changed.result.body.paymentMethod).toMatchObject({ id: s.card.id });
    expect(changed.result.body.timeline[0]).toMatchObject({ kind: 'payment_method_changed' });
    // The charge is read once (it was read twice): no second read before the write.
    expect(changed.trips).toBe(5);
  });
});

describe('round trips of POST /api/v1/installment-plans (issue 17)', () => {
  /** The seller's product accepting carnê. */
  async function carneProduct(s: Seller) {
    const res = await api.post(
      '/api/products',
      {
        name: 'Curso em carnê',
        image: 'https://cdn.example.com/c.png',
        value: 300,
        installments: 1,
        carne: { enabled: true, maxInstallments: 12 },
      },
      { token: s.key },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { uuid: string };
  }
  const plan = (s: Seller, productUuid: string, customerId: number) =>
    api.post(
      '/api/v1/installment-plans',
      {
        productId: productUuid,
        customerId,
        installments: 3,
        firstDueDate: addDays(saoPauloDate(runtime.clock.now()), 5),
      },
      { token: s.key },
    );
  const planTrips = async (s: Seller, productUuid: string, customerId: number, status = 201) => {
    const { trips, providerTrips, result } = await tripsOf(() => plan(s, productUuid, customerId));
    expect(result.status, JSON.stringify(result.body)).toBe(status);
    return { trips, providerTrips, body: result.body };
  };

  it('costs 5 round trips with authentication for each new customer: one read, the late-charge defaults, the boleto registration written ahead, one write', async () => {
    const s = await seller();
    const product = await carneProduct(s);
    const [first, ...others] = await customers(s, 4);
    await freshRateWindow(runtime, api);
    // The container's first plan of this product looks its uuid up before the read (the guard's key needs its id).
    expect((await planTrips(s, product.uuid, first.id)).trips).toBe(6);
    const trips: number[] = [];
    for (const c of others) trips.push((await planTrips(s, product.uuid, c.id)).trips);
    expect(trips).toEqual([5, 5, 5]);
  });

  it('refuses an identical plan from the read, before the provider is called', async () => {
    const s = await seller();
    const product = await carneProduct(s);
    const [c] = await customers(s, 1);
    await freshRateWindow(runtime, api);
    await planTrips(s, product.uuid, c.id);
    const again = await planTrips(s, product.uuid, c.id, 409);
    expect(again.body.message).toBe('An identical installment plan was just created for this customer');
    // The read and the product's late-charge defaults beside it.
    expect(again.trips).toBe(3);
    // The provider was not called.
    expect(again.providerTrips).toBe(0);
  });

  it('registers and writes once more when the profile changed since its id pointer was written', async () => {
    const s = await seller();
    const product = await carneProduct(s);
    const [c, d] = await customers(s, 2);
    await freshRateWindow(runtime, api);
    await planTrips(s, product.uuid, d.id);
    const renamed = await api.patch(`/api/v1/customers/${c.uuid}`, { name: 'Outro Nome' }, { token: s.key });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const stale = await planTrips(s, product.uuid, c.id);
    // The boleto names the customer as the write does: a second registration (written ahead) and write.
    expect(stale.trips).toBe(7);
    expect(stale.body.customer).toMatchObject({ name: 'Outro Nome' });
  });
});
