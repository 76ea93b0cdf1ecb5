import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { buyer, card } from '../support/checkout-fixtures';
import { sellerFixtures } from '../support/fixtures';
import { client, startTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }));

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = client(runtime.baseUrl);
});
afterAll(() => runtime?.stop());

/** A registered seller (as Cognito sign-up creates one) with its dashboard token and a sandbox key. */
async function seller(name: string) {
  const s = await fixtures.seller({ named: name });
  // The dashboard token reads sandbox data with `x-environment: test`.
  return { ...s, dashboard: { token: s.jwt, headers: { 'x-environment': 'test' } } };
}

async function product(key: string) {
  const res = await api.post(
    '/api/products',
    { name: 'Curso de Violão', image: 'https://cdn.example.com/v.png', value: 100 },
    { token: key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; uuid: string };
}

const affiliates = (ref: number | string) => `/api/products/${ref}/affiliates`;

describe('product affiliates over HTTP', () => {
  it('adds, lists and ends an affiliation (by id and by uuid, API key and dashboard token)', async () => {
    const owner = await seller('Produtora');
    const affiliate = await seller('Afiliada');
    const other = await seller('Outra afiliada');
    const p = await product(owner.key);

    const added = await api.post(
      affiliates(p.id),
      { affiliateId: affiliate.sellerId, commissionPercent: 12.5 },
      { token: owner.key },
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toEqual({
      productId: p.id,
      affiliateId: affiliate.sellerId,
      commissionPercent: 12.5,
      status: 'active',
      createdAt: expect.any(String),
      updatedAt: added.body.createdAt,
      endedAt: null,
    });
    const second = await api.post(
      affiliates(p.uuid),
      { affiliateId: other.sellerId, commissionPercent: 0.01 },
      owner.dashboard,
    );
    expect(second.status, JSON.stringify(second.body)).toBe(201);

    const listed = await api.get(affiliates(p.id), { token: owner.key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((a: { affiliateId: number }) => a.affiliateId)).toEqual([
      affiliate.sellerId,
      other.sellerId,
    ]);

    const ended = await api.del(`${affiliates(p.uuid)}/${other.sellerId}`, { token: owner.key });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body).toMatchObject({
      affiliateId: other.sellerId,
      status: 'ended',
      commissionPercent: 0.01,
    });
    expect(ended.body.endedAt).toEqual(expect.any(String));

    // Ending it again answers the same affiliation, unchanged.
    const again = await api.del(`${affiliates(p.id)}/${other.sellerId}`, { token: owner.key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(ended.body);

    const active = await api.get(`${affiliates(p.uuid)}?status=active`, owner.dashboard);
    expect(active.body).toEqual({ data: [added.body] });
    const endedList = await api.get(`${affiliates(p.id)}?status=ended`, { token: owner.key });
    expect(endedList.body).toEqual({ data: [ended.body] });
  });

  it('answers 409 for an affiliate already active on the product, and starts an ended one again', async () => {
    const owner = await seller('Produtora');
    const affiliate = await seller('Afiliada');
    const p = await product(owner.key);
    const body = { affiliateId: affiliate.sellerId, commissionPercent: 10 };
    expect((await api.post(affiliates(p.id), body, { token: owner.key })).status).toBe(201);
    const conflict = await api.post(
      affiliates(p.id),
      { ...body, commissionPercent: 20 },
      { token: owner.key },
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe('The affiliate already has an active affiliation on this product');

    await api.del(`${affiliates(p.id)}/${affiliate.sellerId}`, { token: owner.key });
    const restarted = await api.post(
      affiliates(p.id),
      { ...body, commissionPercent: 20 },
      { token: owner.key },
    );
    expect(restarted.status).toBe(201);
    expect(restarted.body).toMatchObject({ status: 'active', commissionPercent: 20, endedAt: null });
  });

  it("answers 404 Product not found for another seller's product, on every affiliate route", async () => {
    const owner = await seller('Produtora');
    const intruder = await seller('Intrusa');
    const affiliate = await seller('Afiliada');
    const p = await product(owner.key);
    await api.post(
      affiliates(p.id),
      { affiliateId: affiliate.sellerId, commissionPercent: 10 },
      { token: owner.key },
    );

    for (const ref of [p.id, p.uuid]) {
      const add = await api.post(
        affiliates(ref),
        { affiliateId: affiliate.sellerId, commissionPercent: 10 },
        { token: intruder.key },
      );
      const list = await api.get(affiliates(ref), { token: intruder.key });
      const end = await api.del(`${affiliates(ref)}/${affiliate.sellerId}`, { token: intruder.key });
      for (const res of [add, list, end]) {
        expect(res.status, JSON.stringify(res.body)).toBe(404);
        expect(res.body.message).toBe('Product not found');
      }
    }
    // The owner's own production key sees another environment: the sandbox product is not there.
    const live = await api.post('/api/api-keys', { name: 'live', environment: 'live' }, owner.dashboard);
    expect(live.status).toBe(201);
    const fromLive = await api.get(affiliates(p.id), { token: live.body.key });
    expect(fromLive.status).toBe(404);
    expect(fromLive.body.message).toBe('Product not found');
    // The owner's affiliation is untouched.

    const listed = await api.get(affiliates(p.id), { token: owner.key });
    expect(listed.body.data).toEqual([expect.objectContaining({ status: 'active' })]);
  });

  it('answers 404 Affiliation not found for an affiliate the product does not have', async () => {
    const owner = await seller('Produtora');
    const p = await product(owner.key);
    for (const raw of ['123456789', 'abc']) {
      const res = await api.del(`${affiliates(p.id)}/${raw}`, { token: owner.key });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Affiliation not found');
    }
  });

  it('refuses self-affiliation, an unknown seller and a bad percent with a 400 naming the field', async () => {
    const owner = await seller('Produtora');
    const affiliate = await seller('Afiliada');
    const p = await product(owner.key);
    const cases: [Record<string, unknown>, string][] = [
      [
        { affiliateId: owner.sellerId, commissionPercent: 10 },
        "affiliateId cannot be the product's own seller",
      ],
      [
        { affiliateId: 987_654_321, commissionPercent: 10 },
        'affiliateId must be the id of an existing seller',
      ],
      [
        { affiliateId: affiliate.sellerId, commissionPercent: 0 },
        'commissionPercent must be between 0.01 and 90 with at most 2 decimal places',
      ],
      [
        { affiliateId: affiliate.sellerId, commissionPercent: 90.5 },
        'commissionPercent must be between 0.01 and 90 with at most 2 decimal places',
      ],
      [
        { affiliateId: affiliate.sellerId, commissionPercent: 12.345 },
        'commissionPercent must be between 0.01 and 90 with at most 2 decimal places',
      ],
      [{ affiliateId: affiliate.sellerId, commissionPercent: '10' }, 'commissionPercent must be a number'],
      [{ affiliateId: affiliate.sellerId }, 'commissionPercent is required'],
    ];
    for (const [body, message] of cases) {
      const res = await api.post(affiliates(p.id), body, { token: owner.key });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toEqual([message]);
    }
    // Nothing was written by the refused requests.
    expect((await api.get(affiliates(p.id), { token: owner.key })).body).toEqual({ data: [] });
    expect((await api.get(`${affiliates(p.id)}?status=paused`, { token: owner.key })).status).toBe(400);
  });
});

describe("an affiliate's commission follows refunds and chargebacks", () => {
  /** A card sale of R$ 100 (net R$ 95.62 after 3.99 % + R$ 0.39) made through a 12.5 % affiliate. */
  async function affiliateCardSale() {
    const owner = await seller('Produtora');
    const affiliate = await seller('Afiliada');
    const p = await product(owner.key);
    const added = await api.post(
      affiliates(p.id),
      { affiliateId: affiliate.sellerId, commissionPercent: 12.5 },
      { token: owner.key },
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const sale = await api.post('/api/transactions', {
      productId: p.uuid,
      paymentMethod: 'creditcard',
      customer: buyer,
      card: card('4111111111111111'),
      affiliateId: affiliate.sellerId,
    });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    // 12.5 % of R$ 95.62 = R$ 11.9525, half up: R$ 11.95.
    expect(sale.body.affiliate).toEqual({
      affiliateId: affiliate.sellerId,
      commissionPercent: 12.5,
      commission: 11.95,
      commissionReversed: 0,
      net: 11.95,
    });
    return { owner, id: sale.body.id as number };
  }

  it('takes back the refunded share on a partial refund, the rest on the refund that completes it', async () => {
    const { owner, id } = await affiliateCardSale();
    const partial = await api.post(`/api/transactions/${id}/refund`, { amount: 33.33 }, { token: owner.key });
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    // floor(1195 × 3333 / 10000) = 398 centavos.
    expect(partial.body.affiliate).toMatchObject({ commission: 11.95, commissionReversed: 3.98, net: 7.97 });
    const rest = await api.post(`/api/transactions/${id}/refund`, {}, { token: owner.key });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.status).toBe('reversed');
    expect(rest.body.affiliate).toMatchObject({ commission: 11.95, commissionReversed: 11.95, net: 0 });
    const read = await api.get(`/api/transactions/${id}`, { token: owner.key });
    expect(read.body.affiliate).toMatchObject({ commissionReversed: 11.95, net: 0 });
  });

  it('takes all of it back on a chargeback and restores it when the chargeback is won', async () => {
    const { owner, id } = await affiliateCardSale();
    const helper = (action: string) =>
      api.post(`/api/test-helpers/transactions/${id}/${action}`, {}, { token: owner.key });
    const back = await helper('chargeback');
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.affiliate).toMatchObject({ commission: 11.95, commissionReversed: 11.95, net: 0 });
    const won = await helper('chargeback-reversal');
    expect(won.status, JSON.stringify(won.body)).toBe(200);
    expect(won.body.affiliate).toMatchObject({ commission: 11.95, commissionReversed: 0, net: 11.95 });
  });
});
