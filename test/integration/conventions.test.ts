import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { sellerFixtures } from '../support/fixtures';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 350_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const seller = () => fixtures.seller();

async function product(key: string, name: string, body: Record<string, unknown> = {}) {
  const res = await api.post(
    '/api/products',
    { name, image: 'https://cdn.example.com/p.png', value: 49.9, ...body },
    { token: key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; uuid: string };
}

describe('the URLs a newcomer guesses', () => {
  it('redirects / to the seller dashboard', async () => {
    const res = await fetch(`${runtime.baseUrl}/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/dashboard');
    expect(res.headers.get('content-type')).not.toMatch(/json/);
    const followed = await fetch(`${runtime.baseUrl}/`);
    expect(followed.status).toBe(200);
    expect(followed.url).toBe(`${runtime.baseUrl}/dashboard`);
    expect(followed.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it("answers GET /api/products with the seller's products, the same page as GET /api/products/seller", async () => {
    const s = await seller();
    const other = await seller();
    const a = await product(s.key, 'Curso de violão');
    const b = await product(s.key, 'Curso de piano');
    await product(other.key, 'Produto de outro vendedor');
    const archived = await product(s.key, 'Curso antigo');
    expect((await api.del(`/api/products/${archived.id}`, { token: s.key })).status).toBe(200);

    for (const query of ['', '?limit=1&page=2', '?tab=all', '?tab=archived', '?search=curso%20de%20p']) {
      const short = await api.get(`/api/products${query}`, { token: s.key });
      const seller = await api.get(`/api/products/seller${query}`, { token: s.key });
      expect(short.status, query).toBe(200);
      expect(short.body, query).toEqual(seller.body);
    }
    const all = await api.get('/api/products', { token: s.key });
    expect(all.body.data.map((p: { id: number }) => p.id).sort()).toEqual([a.id, b.id].sort());
    expect(
      await api.get('/api/products', { token: s.jwt, headers: { 'x-environment': 'test' } }),
    ).toMatchObject({
      status: 200,
      body: { count: 2 },
    });
    expect((await api.get('/api/products')).status).toBe(401);
    expect((await api.get('/api/products?limit=101', { token: s.key })).body.message).toEqual([
      'limit must be an integer from 1 to 100',
    ]);
  });
});

describe('one language per route family', () => {
  it("answers the seller's API in English, with the spec's Portuguese texts where it fixes them", async () => {
    const s = await seller();
    expect((await api.get('/api/subscriptions/999999', { token: s.key })).body).toMatchObject({
      statusCode: 404,
      message: 'Subscription not found',
    });
    expect((await api.get('/api/transactions/999999', { token: s.key })).body).toMatchObject({
      statusCode: 404,
      message: 'Transação não encontrada',
    });
    expect((await api.get('/api/transactions/status/999999')).body.message).toBe('Transação não encontrada');
    expect((await api.get('/api/v1/scheduled-charges')).body.message).toBe('API key is required');
  });

  it("answers the buyer's routes in Portuguese, with the same codes", async () => {
    const checkout = await api.get('/api/public/checkout/cs_test_nope');
    expect(checkout.body).toMatchObject({
      statusCode: 404,
      code: 'not_found',
      message: 'Link de pagamento não encontrado.',
    });
    const portal = await api.get(`/api/portal?token=pt_${'A'.repeat(43)}`);
    expect(portal.body).toMatchObject({
      statusCode: 401,
      code: 'token_invalid',
      message: 'Este link de acesso não é válido.',
    });
    const area = await api.get('/api/public/minha-area/charges');
    expect(area.body).toMatchObject({ statusCode: 401, code: 'authorization_missing' });
    expect(area.body.message).toMatch(/^Acesso não autorizado/);
    const forged = await api.patch(
      '/api/public/minha-area/profile',
      { sellerId: 1, billingEmailOverride: null },
      { token: 'x' },
    );
    expect(forged.body).toMatchObject({ statusCode: 401, message: 'Este link de acesso não é válido.' });
    const asset = await api.get('/pages/assets/nope.js');
    expect(asset.body).toMatchObject({ statusCode: 404, message: 'Arquivo não encontrado.' });
  });

  it('keeps validation answers as one sentence per field on every route, for the pages to word', async () => {
    const res = await api.post('/api/public/minha-area/request', { email: 'not-an-address' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.message).toEqual([expect.stringMatching(/^email /)]);
  });
});
