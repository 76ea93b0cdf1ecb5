import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { buyer, card, prefill } from '../support/checkout-fixtures';
import { sellerFixtures } from '../support/fixtures';
import { type client, nextRateWindow, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 310_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const seller = () => fixtures.seller({ product: {} });

type Seller = Awaited<ReturnType<typeof seller>>;

async function session(s: Seller) {
  const res = await api.post(
    '/api/checkout/sessions',
    { product_id: s.product.id, customer: prefill, success_url: 'https://shop.example.com/ok' },
    { token: s.key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

const HSTS = 'max-age=63072000; includeSubDomains';

describe('idempotency keys of the anonymous sale', () => {
  const sale = (s: Seller) => ({ productId: s.product.uuid, paymentMethod: 'pix', customer: buyer });
  // Another CPF than the sale's buyer: registering it is a new customer (201) whatever the sale did.
  const customer = { ...buyer, document: '11144477735', personType: 'fisica' };

  it("does not reserve the seller's key: an anonymous sale with key K leaves K free for the seller", async () => {
    const s = await seller();
    const headers = { 'x-idempotency-key': `order-${s.sellerId}` };
    const anonymous = await api.post('/api/transactions', sale(s), { headers });
    expect(anonymous.status, JSON.stringify(anonymous.body)).toBe(201);
    const own = await api.post('/api/v1/customers', customer, { token: s.key, headers });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.headers.get('idempotent-replayed')).toBeNull();
  });

  it("does not see the seller's key: the seller's key K leaves K free for an anonymous sale", async () => {
    const s = await seller();
    const headers = { 'x-idempotency-key': `cust-${s.sellerId}` };
    const own = await api.post('/api/v1/customers', customer, { token: s.key, headers });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const anonymous = await api.post('/api/transactions', sale(s), { headers });
    expect(anonymous.status, JSON.stringify(anonymous.body)).toBe(201);
    expect(anonymous.body.id).toEqual(expect.any(Number));
  });

  it('still replays an anonymous sale repeated with its key', async () => {
    const s = await seller();
    const headers = { 'x-idempotency-key': `retry-${s.sellerId}` };
    const first = await api.post('/api/transactions', sale(s), { headers });
    const again = await api.post('/api/transactions', sale(s), { headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('the seller id claim of a dashboard token', () => {
  it.each([
    ['an exponent', '1e0'],
    ['a leading zero', '01'],
    ['a decimal point', '1.0'],
    ['a sign', '+1'],
    ['hexadecimal', '0x1'],
    ['spaces', ' 1 '],
    ['an empty string', ''],
    ['zero', '0'],
    ['a JSON number', 1],
    ['more digits than a safe integer', '9007199254740993'],
  ])('answers 401 for %s (%j)', async (_, claim) => {
    const token = await runtime.issuer.sign(1, {
      now: runtime.clock.now(),
      overrides: { 'custom:seller_id': claim },
    });
    const res = await api.get('/api/api-keys', { token });
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body.message).toBe('Unauthorized');
  });

  it('accepts digits', async () => {
    const token = await runtime.issuer.sign(1, {
      now: runtime.clock.now(),
      overrides: { 'custom:seller_id': '310999' },
    });
    expect((await api.get('/api/api-keys', { token })).status).toBe(200);
  });
});

describe('headers of every answer', () => {
  it('marks JSON answers no-store and every answer with HSTS', async () => {
    const s = await seller();
    const answers = [
      await api.get('/api/health'),
      await api.get('/api/webhook-endpoints', { token: s.key }),
      await api.get(`/api/public/checkout/${s.product.uuid}`),
      await api.post('/api/transactions', {
        productId: s.product.uuid,
        paymentMethod: 'pix',
        customer: buyer,
      }),
      await api.get('/api/no-such-route'),
      await api.get('/api/webhook-endpoints'),
      await api.post('/api/v1/customers', { name: 'x' }, { token: s.key }),
    ];
    for (const res of answers) {
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.headers.get('cache-control'), JSON.stringify(res.body)).toBe('no-store');
      expect(res.headers.get('strict-transport-security')).toBe(HSTS);
    }
  });

  it('marks the pages that show a buyer no-store, and keeps HSTS on pages, assets and PDFs', async () => {
    const s = await seller();
    const cs = await session(s);
    const page = await api.get(`/checkout/${cs.id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('strict-transport-security')).toBe(HSTS);
    const link = await api.get(`/pay/${s.product.uuid}`);
    expect(link.headers.get('cache-control')).toBe('no-store');
    expect(link.headers.get('strict-transport-security')).toBe(HSTS);
    const asset = await api.get('/pages/assets/checkout.css');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=300');
    expect(asset.headers.get('strict-transport-security')).toBe(HSTS);
    const boleto = await api.post('/api/transactions', {
      productId: s.product.uuid,
      paymentMethod: 'boleto',
      customer: buyer,
    });
    expect(boleto.status, JSON.stringify(boleto.body)).toBe(201);
    const pdfPath = new URL(boleto.body.boleto.pdfUrl).pathname + new URL(boleto.body.boleto.pdfUrl).search;
    const pdf = await api.get(pdfPath);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('cache-control')).toBe('no-store');
    expect(pdf.headers.get('strict-transport-security')).toBe(HSTS);
  });

  it("puts HSTS on the local gateway's own answers", async () => {
    const tooLarge = await api.call('POST', '/api/v1/customers', { raw: 'x'.repeat(1024 * 1024 + 1) });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get('strict-transport-security')).toBe(HSTS);
    expect(tooLarge.headers.get('cache-control')).toBe('no-store');
  });
});

describe("a closed checkout session's public answers", () => {
  const readPublic = async (id: string) => {
    const res = await api.get(`/api/public/checkout/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const noBuyer = {
    name: null,
    email: null,
    document: null,
    phone: null,
    zipCode: null,
    street: null,
    number: null,
    complement: null,
    neighborhood: null,
    city: null,
    state: null,
  };

  it('show the prefilled buyer while the session is open', async () => {
    const s = await seller();
    const cs = await session(s);
    expect((await readPublic(cs.id)).customer).toMatchObject({
      email: 'maria@example.com',
      document: '52998224725',
      phone: '11987654321',
    });
  });

  it('show no buyer data and no card once the session is complete; the seller still reads them', async () => {
    const s = await seller();
    const cs = await session(s);
    const paid = await api.post(`/api/public/checkout/${cs.id}/pay`, {
      paymentMethod: 'card',
      customer: buyer,
      card: card('4111 1111 1111 1111'),
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body).toMatchObject({ status: 'paid', card: { last4: '1111' } });

    const view = await readPublic(cs.id);
    expect(view.state).toBe('complete');
    expect(view.customer).toEqual(noBuyer);
    expect(view.payment).toMatchObject({ status: 'paid', card: null });
    const text = JSON.stringify(view);
    for (const secret of ['52998224725', 'maria@example.com', '11987654321', '1111', 'visa'])
      expect(text).not.toContain(secret);

    const polled = await api.get(`/api/public/checkout/${cs.id}/payments/${paid.body.paymentId}`);
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({ status: 'paid', card: null });

    const page = await api.get(`/checkout/${cs.id}`);
    expect(page.status).toBe(200);
    for (const secret of ['52998224725', 'maria@example.com', '11987654321', '"last4"'])
      expect(page.body).not.toContain(secret);

    const own = await api.get(`/api/checkout/sessions/${cs.id}`, { token: s.key });
    expect(own.body.data.customer).toMatchObject({
      'customer.email': 'maria@example.com',
      'customer.document': '52998224725',
      'customer.phone': '11987654321',
    });
  });

  it('show no buyer data once the session is expired', async () => {
    const s = await seller();
    const cs = await session(s);
    expect(
      (await api.post(`/api/checkout/sessions/${cs.id}/expire`, undefined, { token: s.key })).status,
    ).toBe(200);
    const view = await readPublic(cs.id);
    expect(view.state).toBe('expired');
    expect(view.customer).toEqual(noBuyer);
    const page = await api.get(`/checkout/${cs.id}`);
    for (const secret of ['52998224725', 'maria@example.com', '11987654321'])
      expect(page.body).not.toContain(secret);
  });
});

describe('caps per seller and environment', () => {
  it('refuses a 51st active API key with 409 limit_reached naming the cap; a revoked key frees its place', async () => {
    const jwt = await runtime.issuer.sign(fixtures.nextSellerId(), { now: runtime.clock.now() });
    const create = (name: string, environment = 'test') =>
      api.post('/api/api-keys', { name, environment }, { token: jwt });
    const made: string[] = [];
    for (let i = 1; i <= 50; i++) {
      const res = await create(`k${i}`);
      expect(res.status, `key ${i}: ${JSON.stringify(res.body)}`).toBe(201);
      made.push(res.body.id);
    }
    const refused = await create('k51');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'limit_reached' });
    expect(refused.body.message).toContain('50 active API keys');
    const listed = await api.get('/api/api-keys?environment=test', { token: jwt });
    expect(listed.body.data).toHaveLength(50);
    expect((await create('live-1', 'live')).status).toBe(201);
    expect((await api.del(`/api/api-keys/${made[0]}`, { token: jwt })).status).toBe(200);
    expect((await create('k51')).status).toBe(201);
  });

  it('refuses a 21st webhook endpoint with 409 limit_reached naming the cap; a deleted one frees its place', async () => {
    const s = await seller();
    const create = () =>
      api.post(
        '/api/webhook-endpoints',
        { url: 'http://127.0.0.1:4000/hook', events: ['*'] },
        { token: s.key },
      );
    const made: string[] = [];
    for (let i = 1; i <= 20; i++) {
      const res = await create();
      expect(res.status, `endpoint ${i}: ${JSON.stringify(res.body)}`).toBe(201);
      made.push(res.body.id);
    }
    const refused = await create();
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'limit_reached' });
    expect(refused.body.message).toContain('20 webhook endpoints');
    expect((await api.get('/api/webhook-endpoints?limit=100', { token: s.key })).body.data).toHaveLength(20);
    expect((await api.del(`/api/webhook-endpoints/${made[0]}`, { token: s.key })).status).toBe(200);
    expect((await create()).status).toBe(201);
  });
});

describe('the rate limit of a seller with several API keys', () => {
  const endpoints = '/api/webhook-endpoints';

  it('counts all the keys of a seller and environment together', async () => {
    const s = await seller();
    const second = await api.post('/api/api-keys', { name: 'k2', environment: 'test' }, { token: s.jwt });
    const other = await seller();
    await nextRateWindow(runtime, api);
    for (let i = 1; i <= 100; i++) {
      const res = await api.get(endpoints, { token: i % 2 === 0 ? s.key : second.body.key });
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(100 - i));
    }
    for (const key of [s.key, second.body.key]) {
      const limited = await api.get(endpoints, { token: key });
      expect(limited.status).toBe(429);
      expect(limited.body.message).toMatch(/muitas tentativas/i);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect((await api.get(endpoints, { token: other.key })).status).toBe(200);
    // The seller's live keys and its dashboard are counted apart.
    const live = await api.post('/api/api-keys', { name: 'live', environment: 'live' }, { token: s.jwt });
    expect((await api.get(endpoints, { token: live.body.key })).status).toBe(200);
    expect((await api.get('/api/api-keys', { token: s.jwt })).status).toBe(200);
  });
});
