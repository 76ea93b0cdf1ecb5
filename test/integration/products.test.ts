import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { sellerFixtures } from '../support/fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { client, startTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 50_000);

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = client(runtime.baseUrl);
});
afterAll(() => runtime?.stop());

/** A seller of its own per test, with a sandbox key: lists hold only what the test made. */
const seller = (permissions: 'write' | 'read' = 'write') => fixtures.seller({ permissions });

const valid = { name: 'Curso de Violão', image: 'https://cdn.example.com/v.png', value: 49.9 };

async function createProduct(key: string, body: Record<string, unknown> = {}) {
  const res = await api.post('/api/products', { ...valid, ...body }, { token: key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('creating products', () => {
  it('answers the product with id, uuid, isActive, paymentLink and timestamps', async () => {
    const { key, sellerId } = await seller();
    const product = await createProduct(key);
    expect(product).toMatchObject({
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sellerId,
      name: 'Curso de Violão',
      value: 49.9,
      isActive: true,
      pix: true,
      creditCard: true,
      boleto: true,
      installments: 1,
      carne: { enabled: false, maxInstallments: 12, interestFactors: {} },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(product.paymentLink).toBe(`${runtime.baseUrl}/pay/${product.uuid}`);
  });

  it.each([
    [4.99, 400],
    [5, 201],
    [0, 201],
    [5.001, 400],
    [-1, 400],
  ])('value %s answers %s', async (value, status) => {
    const { key } = await seller();
    const res = await api.post('/api/products', { ...valid, value }, { token: key });
    expect(res.status).toBe(status);
  });

  it('refuses 4.99 saying the value must be at least 5', async () => {
    const { key } = await seller();
    const res = await api.post('/api/products', { ...valid, value: 4.99 }, { token: key });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('value must be at least 5');
  });

  it.each([1, 12])('installments %s answers 201', async (installments) => {
    const { key } = await seller();
    const res = await api.post('/api/products', { ...valid, installments }, { token: key });
    expect(res.status).toBe(201);
  });

  it.each([0, 13, 2.5])('installments %s answers 400 about installments', async (installments) => {
    const { key } = await seller();
    const res = await api.post('/api/products', { ...valid, installments }, { token: key });
    expect(res.status).toBe(400);
    expect(res.body.message.join(' ')).toMatch(/^installments/);
  });

  it('refuses a product with no payment method enabled', async () => {
    const { key } = await seller();
    const res = await api.post(
      '/api/products',
      { ...valid, pix: false, creditCard: false, boleto: false },
      { token: key },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual([
      'at least one payment method (pix, creditCard, boleto) must be enabled',
    ]);
  });

  it('names each missing required field', async () => {
    const { key } = await seller();
    const res = await api.post('/api/products', {}, { token: key });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(
      expect.arrayContaining(['name is required', 'image is required', 'value is required']),
    );
  });

  it('refuses isActive in the body', async () => {
    const { key } = await seller();
    const res = await api.post('/api/products', { ...valid, isActive: false }, { token: key });
    expect(res.status).toBe(400);
    expect(res.body.message[0]).toMatch(/isActive/);
  });

  it('keeps carne settings with interest factors per number of installments', async () => {
    const { key } = await seller();
    const product = await createProduct(key, {
      carne: { enabled: true, maxInstallments: 6, interestFactors: { '2': 1.0349, '6': 1.1 } },
    });
    expect(product.carne).toEqual({
      enabled: true,
      maxInstallments: 6,
      interestFactors: { '2': 1.0349, '6': 1.1 },
    });
    const bad = await api.post('/api/products', { ...valid, carne: { maxInstallments: 13 } }, { token: key });
    expect(bad.status).toBe(400);
    const beyond = await api.post(
      '/api/products',
      { ...valid, carne: { maxInstallments: 3, interestFactors: { '4': 1.2 } } },
      { token: key },
    );
    expect(beyond.status).toBe(400);
  });

  it('emits product.created with exactly {id, name, value, uuid, sellerId}', async () => {
    const { key, sellerId } = await seller();
    const receiver = await new Receiver().start();
    try {
      await api.post(
        '/api/webhook-endpoints',
        { url: receiver.url, events: ['product.created'] },
        { token: key },
      );
      const product = await createProduct(key);
      await waitFor(() => receiver.received.length === 1);
      expect(receiver.received[0].json.event).toBe('product.created');
      expect(receiver.received[0].json.data).toEqual({
        id: product.id,
        name: product.name,
        value: 49.9,
        uuid: product.uuid,
        sellerId,
      });
    } finally {
      await receiver.stop();
    }
  });
});

describe('reading and updating', () => {
  it('reads by id and by uuid, and hides another seller’s or environment’s product', async () => {
    const { key, jwt } = await seller();
    const product = await createProduct(key);
    expect((await api.get(`/api/products/${product.id}`, { token: key })).body.uuid).toBe(product.uuid);
    expect((await api.get(`/api/products/uuid/${product.uuid}`, { token: key })).body.id).toBe(product.id);
    const other = await seller();
    const foreign = await api.get(`/api/products/${product.id}`, { token: other.key });
    expect(foreign).toMatchObject({ status: 404, body: { message: 'Product not found' } });
    expect((await api.get(`/api/products/uuid/${product.uuid}`, { token: other.key })).status).toBe(404);
    expect((await api.get(`/api/products/${product.id}`, { token: jwt })).status).toBe(404);
    expect(
      (await api.get(`/api/products/${product.id}`, { token: jwt, headers: { 'x-environment': 'test' } }))
        .status,
    ).toBe(200);
  });

  it('updates partially and checks the price only when value is sent', async () => {
    const { key, sellerId } = await seller();
    const product = await createProduct(key);
    const changed = await api.patch(`/api/products/${product.id}`, { name: 'Novo nome' }, { token: key });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Novo nome', value: 49.9 });
    expect(
      (await api.patch(`/api/products/${product.id}`, { value: 4.99 }, { token: key })).body.message,
    ).toContain('value must be at least 5');
    expect((await api.patch(`/api/products/${product.id}`, { isActive: false }, { token: key })).status).toBe(
      400,
    );

    // A legacy product priced 3.00 (created before the minimum) keeps selling and can be edited.
    const legacy = { ...product, id: 990_000 + sellerId, uuid: crypto.randomUUID() };
    await runtime.deps.repos.products.create(
      {
        ...legacy,
        tenant: { sellerId, environment: 'test' },
        value: 300,
        description: null,
        carne: { enabled: false, maxInstallments: 12, interestFactors: {} },
        version: 1,
      },
      [],
    );
    const edited = await api.patch(`/api/products/${legacy.id}`, { name: 'Legado' }, { token: key });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Legado', value: 3 });
    expect((await api.get(`/api/payment-links/${legacy.uuid}`)).status).toBe(200);
  });

  it('lists with tabs, search and the list envelope', async () => {
    const { key } = await seller();
    const a = await createProduct(key, { name: 'Camiseta Azul' });
    await createProduct(key, { name: 'Caneca' });
    const c = await createProduct(key, { name: 'Camisa Pólo' });
    await api.del(`/api/products/${a.id}`, { token: key });
    const active = await api.get('/api/products/seller', { token: key });
    expect(active.body).toMatchObject({ count: 2, page: 1, totalCount: 2, totalPages: 1 });
    expect(active.body.data[0].id).toBe(c.id);
    const archived = await api.get('/api/products/seller?tab=archived', { token: key });
    expect(archived.body.data.map((p: { id: number }) => p.id)).toEqual([a.id]);
    const all = await api.get('/api/products/seller?tab=all&limit=2&page=2', { token: key });
    expect(all.body).toMatchObject({ count: 1, page: 2, totalCount: 3, totalPages: 2 });
    const search = await api.get('/api/products/seller?tab=all&search=camis', { token: key });
    expect(search.body.totalCount).toBe(2);
    const accents = await api.get('/api/products/seller?search=POLO', { token: key });
    expect(accents.body.data.map((p: { id: number }) => p.id)).toEqual([c.id]);
    expect((await api.get('/api/products/seller?limit=101', { token: key })).status).toBe(400);
    expect((await api.get('/api/products/seller?tab=deleted', { token: key })).status).toBe(400);
  });

  it('pages GET /api/v1/products by cursor, newest first, each with its uuid, only the seller’s own', async () => {
    const { key } = await seller();
    const other = await seller();
    await createProduct(other.key, { name: 'De outro vendedor' });
    const made = [];
    for (const name of ['A', 'B', 'C', 'D', 'E']) made.push(await createProduct(key, { name }));
    await api.del(`/api/products/${made[1].id}`, { token: key });

    const uuids: string[][] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await api.get(`/api/v1/products?limit=2${query}`, { token: key });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
      uuids.push(res.body.data.map((p: { uuid: string }) => p.uuid));
      cursor = res.body.nextCursor;
    } while (cursor && uuids.length < 5);
    const newestFirst = [...made].reverse().map((p) => p.uuid);
    expect(uuids).toEqual([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)]);

    const active = await api.get('/api/v1/products?isActive=true', { token: key });
    expect(active.body.data.map((p: { name: string }) => p.name)).toEqual(['E', 'D', 'C', 'A']);
    const archived = await api.get('/api/v1/products?isActive=false', { token: key });
    expect(archived.body).toMatchObject({
      data: [{ uuid: made[1].uuid, isActive: false }],
      nextCursor: null,
    });

    const first = await api.get('/api/v1/products?limit=1', { token: key });
    const foreign = await api.get(`/api/v1/products?cursor=${encodeURIComponent(first.body.nextCursor)}`, {
      token: other.key,
    });
    expect(foreign.status).toBe(400);
    for (const bad of ['limit=0', 'limit=101', 'isActive=yes', 'cursor=garbage']) {
      const res = await api.get(`/api/v1/products?${bad}`, { token: key });
      expect(res.status, bad).toBe(400);
      expect(JSON.stringify(res.body), bad).toMatch(bad.split('=')[0]);
    }
  });
});

describe('deactivation', () => {
  it('is final, stops the payment link, keeps the data and emits product.deleted', async () => {
    const { key } = await seller();
    const receiver = await new Receiver().start();
    try {
      await api.post(
        '/api/webhook-endpoints',
        { url: receiver.url, events: ['product.deleted'] },
        { token: key },
      );
      const product = await createProduct(key);
      expect((await api.get(`/api/payment-links/${product.uuid}`)).status).toBe(200);
      const res = await api.del(`/api/products/${product.id}`, { token: key });
      expect(res.status).toBe(200);
      expect(res.body.isActive).toBe(false);
      await waitFor(() => receiver.received.length === 1);
      expect(receiver.received[0].json).toMatchObject({
        event: 'product.deleted',
        data: { id: product.id, isActive: false },
      });
      expect((await api.get(`/api/products/${product.id}`, { token: key })).status).toBe(404);
      const archived = await api.get(`/api/products/${product.id}?includeArchived=true`, { token: key });
      expect(archived.body).toMatchObject({ isActive: false, name: product.name });
      expect((await api.get(`/api/payment-links/${product.uuid}`)).status).toBe(404);
      expect(
        (await api.patch(`/api/products/${product.id}`, { isActive: true }, { token: key })).status,
      ).toBe(400);
      const again = await api.del(`/api/products/${product.id}`, { token: key });
      expect(again.body.isActive).toBe(false);
    } finally {
      await receiver.stop();
    }
  });

  it('answers the v1 form by uuid with {uuid, name, value, isActive, updatedAt}', async () => {
    const { key } = await seller();
    const product = await createProduct(key);
    const res = await api.del(`/api/v1/products/${product.uuid}`, { token: key });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['isActive', 'name', 'updatedAt', 'uuid', 'value']);
    expect(res.body).toMatchObject({ uuid: product.uuid, isActive: false, value: 49.9 });
    const other = await seller();
    expect((await api.del(`/api/v1/products/${crypto.randomUUID()}`, { token: key })).body.message).toBe(
      'Product not found',
    );
    expect((await api.del(`/api/v1/products/${product.uuid}`, { token: other.key })).status).toBe(404);
  });

  it('answers 403 Insufficient permissions to a read-only key', async () => {
    const writer = await seller();
    const product = await createProduct(writer.key);
    const jwt = await runtime.issuer.sign(writer.sellerId);
    const ro = await api.post(
      '/api/api-keys',
      { name: 'ro', environment: 'test', permissions: 'read' },
      { token: jwt },
    );
    const res = await api.del(`/api/v1/products/${product.uuid}`, { token: ro.body.key });
    expect(res).toMatchObject({ status: 403, body: { message: 'Insufficient permissions' } });
  });

  it('does not sell a product priced 0 through its link', async () => {
    const { key } = await seller();
    const product = await createProduct(key, { value: 0 });
    const res = await api.get(`/api/payment-links/${product.uuid}`);
    expect(res.status).toBe(400);
  });
});

describe('portal configuration', () => {
  it('falls back from product to seller to defaults', async () => {
    const { key } = await seller();
    const product = await createProduct(key);
    const path = `/api/products/${product.uuid}/portal-config`;
    expect((await api.get(path, { token: key })).body).toBeNull();
    const defaults = await api.get(`${path}/effective`, { token: key });
    expect(defaults.body).toMatchObject({
      source: 'default',
      primaryColor: '#257264',
      allowCancelSubscription: true,
      allowUpdatePaymentMethod: true,
      allowUpdateBillingInfo: true,
      allowViewInvoices: true,
    });
    expect((await api.get('/api/portal/configuration/effective', { token: key })).body).toMatchObject({
      source: 'default',
      primaryColor: '#257264',
      businessName: null,
    });
    const sellerLevel = await api.call('PUT', '/api/portal/configuration', {
      token: key,
      body: { businessName: 'Loja', primaryColor: '#000000' },
    });
    expect(sellerLevel.status).toBe(200);
    expect((await api.get('/api/portal/configuration', { token: key })).body.businessName).toBe('Loja');
    expect((await api.get('/api/portal/configuration/effective', { token: key })).body).toMatchObject({
      source: 'seller',
      businessName: 'Loja',
      primaryColor: '#000000',
      allowViewInvoices: true,
    });
    // Another seller's portal is untouched by this one's configuration.
    const other = await seller();
    expect((await api.get('/api/portal/configuration/effective', { token: other.key })).body).toMatchObject({
      source: 'default',
      businessName: null,
    });
    expect((await api.get(`${path}/effective`, { token: key })).body).toMatchObject({
      source: 'seller',
      primaryColor: '#000000',
      businessName: 'Loja',
    });
    const own = await api.post(
      `/api/products/${product.id}/portal-config`,
      { primaryColor: '#fff', allowCancelSubscription: false },
      { token: key },
    );
    expect(own.status).toBe(200);
    expect((await api.get(`${path}/effective`, { token: key })).body).toMatchObject({
      source: 'product',
      primaryColor: '#fff',
      allowCancelSubscription: false,
      businessName: null,
    });
    const patched = await api.patch(path, { businessName: 'Produto' }, { token: key });
    expect(patched.body).toMatchObject({
      businessName: 'Produto',
      primaryColor: '#fff',
      allowCancelSubscription: false,
    });
    const replaced = await api.post(path, { businessName: 'Só isto' }, { token: key });
    expect(replaced.body.primaryColor).toBeUndefined();
    expect((await api.del(path, { token: key })).status).toBe(200);
    expect((await api.get(path, { token: key })).body).toBeNull();
    expect((await api.get(`${path}/effective`, { token: key })).body.source).toBe('seller');
  });

  it('refuses a colour that is not hex and a logo that is not a URL', async () => {
    const { key } = await seller();
    const product = await createProduct(key);
    const res = await api.post(
      `/api/products/${product.id}/portal-config`,
      { primaryColor: 'green', logoUrl: 'not a url' },
      { token: key },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toHaveLength(2);
  });

  it('answers 404 for the configuration of another seller’s product', async () => {
    const { key } = await seller();
    const product = await createProduct(key);
    const other = await seller();
    expect((await api.get(`/api/products/${product.id}/portal-config`, { token: other.key })).status).toBe(
      404,
    );
  });
});
