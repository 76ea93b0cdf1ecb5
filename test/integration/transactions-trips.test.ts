import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { sellerFixtures } from '../support/fixtures';
import { type client, useTestRuntime } from '../support/runtime';
import { freshRateWindow, serviceTrips } from '../support/service-trips';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }));
let tripsOf: ReturnType<typeof serviceTrips>;

useTestRuntime(
  (r, a) => {
    runtime = r;
    api = a;
    tripsOf = serviceTrips(r);
    // No timeline ticks between requests (the stream drains on the clock advances), so the counts
    // below are the requests' own, as in the bench.
  },
  { tickMs: 3_600_000 },
);

const buyer = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '11987654321',
};

/** A seller with a test key and a product; its customers are registered by API, not by a sale. */
const seller = (sellerId: number) => fixtures.seller({ sellerId, product: {} });

describe('round trips of a sale (issue 17)', () => {
  it('costs 5 round trips for every boleto sale across id blocks (one is its attempt, written ahead; one its late-charge defaults): the next block is claimed ahead, not waited for', async () => {
    const { product } = await seller(90_001);
    const sell = async () => {
      const res = await api.post('/api/transactions', {
        productId: product.uuid,
        paymentMethod: 'boleto',
        customer: buyer,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as number;
    };
    await freshRateWindow(runtime, api);
    // The container's first sale claims its first block and registers the buyer.
    const first = await sell();
    const ids = [first];
    const trips: number[] = [];
    let claimedAhead = 0;
    // 150 more sales: past a half-block (a claim ahead) and over the end of a block of 100.
    for (let i = 0; i < 150; i++) {
      if (i % 90 === 0) await freshRateWindow(runtime, api);
      const measured = await tripsOf(async () => ids.push(await sell()));
      trips.push(measured.trips);
      claimedAhead += measured.claimedAhead;
    }
    // The reads, a boleto's late-charge defaults (the product's and the seller's configurations, one
    // batch), the payment attempt written before the provider is called (issue 34), the sale's write.
    expect(Math.max(...trips)).toBe(5);
    expect(claimedAhead).toBeGreaterThanOrEqual(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1])).toBe(true);
  });

  it('costs 4 round trips for a returning buyer the container never saw, for its seller and for another seller', async () => {
    const mine = await seller(90_011);
    const theirs = await seller(90_012);
    const returning = {
      ...buyer,
      name: 'Joana Lima',
      email: 'joana@example.com',
      document: '111.444.777-35',
    };
    const registered = await api.post(
      '/api/v1/customers',
      { ...returning, personType: 'fisica', city: 'Campinas' },
      { token: mine.key },
    );
    expect(registered.status).toBe(201);
    const sell = (product: { uuid: string }, customer = returning) =>
      api.post('/api/transactions', { productId: product.uuid, paymentMethod: 'pix', customer });
    await freshRateWindow(runtime, api);
    // The container's first sale claims its first block of transaction ids (one UpdateItem, once).
    expect((await sell(mine.product, buyer)).status).toBe(201);

    const answers: Awaited<ReturnType<typeof sell>>[] = [];
    const ownTrips = await tripsOf(async () => answers.push(await sell(mine.product)));
    const otherTrips = await tripsOf(async () => answers.push(await sell(theirs.product)));
    const [own, other] = answers;

    expect(own?.status, JSON.stringify(own?.body)).toBe(201);
    expect(own?.body.customer).toMatchObject({ id: registered.body.id });
    expect(ownTrips.trips).toBe(4);
    expect(other?.status, JSON.stringify(other?.body)).toBe(201);
    // The other seller's new profile of the same global customer.
    expect(other?.body.customer).toMatchObject({ id: registered.body.id });
    expect(otherTrips.trips).toBe(4);
    // The registered profile kept its address and was not rewritten.
    const stored = await runtime.deps.repos.customers.findProfile(
      { sellerId: 90_011, environment: 'test' },
      registered.body.uuid,
    );
    expect(stored).toMatchObject({ city: 'Campinas', updatedAt: registered.body.updatedAt });
  });

  it('reads a checkout session with its product in one read, and pays it in one read, its attempt and one write', async () => {
    const { key, product } = await seller(90_021);
    const session = (
      await api.post(
        '/api/checkout/sessions',
        { product_id: product.id, success_url: 'https://shop.example.com/ok' },
        { token: key },
      )
    ).body;
    await freshRateWindow(runtime, api);
    // The container's first sale claims its first blocks of transaction and customer ids (once).
    const warmUp = await api.post('/api/transactions', {
      productId: product.uuid,
      paymentMethod: 'pix',
      customer: buyer,
    });
    expect(warmUp.status).toBe(201);
    const answers: { status: number; body: Record<string, unknown> }[] = [];
    const page = `/api/public/checkout/${session.id}`;
    const payer = { ...buyer, name: 'Rita Alves', email: 'rita@example.com', document: '390.533.447-05' };

    const view = await tripsOf(async () => answers.push(await api.get(page)));
    const pay = await tripsOf(async () =>
      answers.push(await api.post(`${page}/pay`, { paymentMethod: 'pix', customer: payer })),
    );
    const paymentId = answers[1]?.body.paymentId as string;
    const poll = await tripsOf(async () => answers.push(await api.get(`${page}/payments/${paymentId}`)));

    expect(answers.map((a) => a.status)).toEqual([200, 201, 200]);
    // The session with its product, then the seller's business profile (name, logo, colour).
    expect(view.trips).toBe(3);
    expect(pay.trips).toBe(4);
    // The poll reads the payment by its uuid (an index) after the session: one read over the budget.
    expect(poll.trips).toBe(3);
    const stored = await api.get(page);
    expect((stored.body.payment as { paymentId: string }).paymentId).toBe(paymentId);
  });

  it("counts the sandbox's notification of a pay helper as the webhook route's request, apart from the helper's own trips", async () => {
    const { key, product } = await seller(90_031);
    const sale = await api.post('/api/transactions', {
      productId: product.uuid,
      paymentMethod: 'pix',
      customer: buyer,
    });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    await freshRateWindow(runtime, api);

    const paid = await tripsOf(() =>
      api.post(`/api/test-helpers/transactions/${sale.body.id}/pay`, {}, { token: key }),
    );

    expect(paid.result.status, JSON.stringify(paid.result.body)).toBe(200);
    expect(paid.result.body.status).toBe('payedPix');
    // The key's count, the transaction before and after; the notification (authenticated by its
    // signature, no count): its lookup and write.
    expect(paid).toMatchObject({ trips: 3, nestedTrips: 2 });
    expect(paid.providerTrips).toBeGreaterThan(0);
  });
});
