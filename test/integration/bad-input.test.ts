import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { cpfCheckDigits } from '#shared/domain/documents';
import { sellerFixtures } from '../support/fixtures';
import { Receiver } from '../support/receiver';
import { client, nextRateWindow, startTestRuntime } from '../support/runtime';

/**
 * Malformed requests a probe sent to every route (issue 10): each must be a 4xx with the error
 * body, never a 500, and must leave nothing written.
 */
let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 93_000);

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = client(runtime.baseUrl);
});
afterAll(() => runtime?.stop());
// Public routes count per client IP: every test starts in a fresh rate window.
beforeEach(async () => {
  await nextRateWindow(runtime, api);
});

let nextDocument = 300_000_000 + Math.floor(Math.random() * 100_000_000);
const newCpf = () => {
  const base = String(nextDocument++);
  return `${base}${cpfCheckDigits(base)}`;
};

const seller = () => fixtures.seller({ product: {} });

const buyer = (document: string, extra: Record<string, unknown> = {}) => ({
  name: 'Maria Souza',
  email: 'maria@example.com',
  document,
  phone: '11987654321',
  ...extra,
});

/** `{"a":{"a":…1…}}`, `levels` objects deep. */
const deeplyNested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** About `kb` kilobytes of metadata in 500-character values. */
const bulkyMetadata = (kb: number) =>
  Object.fromEntries(
    Array.from({ length: Math.ceil((kb * 1024) / 510) }, (_, i) => [`k${i}`, 'x'.repeat(500)]),
  );

async function customersOf(key: string, document: string) {
  const res = await api.get(`/api/v1/customers?search=${document}`, { token: key });
  expect(res.status).toBe(200);
  return res.body.totalCount as number;
}

function expect400(res: { status: number; body: any }, pattern: RegExp) {
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(400);
  expect(res.body).toMatchObject({
    statusCode: 400,
    path: expect.any(String),
    timestamp: expect.any(String),
  });
  const messages: string[] = Array.isArray(res.body.message) ? res.body.message : [res.body.message];
  expect(messages.join(' | ')).toMatch(pattern);
}

describe('JSON bodies are bounded before anything runs', () => {
  it.each([
    ['POST /api/v1/customers', '/api/v1/customers'],
    ['POST /api/transactions', '/api/transactions'],
    ['POST /api/webhook-endpoints', '/api/webhook-endpoints'],
  ])('answers 400 for 5,000 levels of nesting with an idempotency key on %s', async (_, path) => {
    const s = await seller();
    const res = await api.call('POST', path, {
      raw: deeplyNested(5_000),
      token: path === '/api/transactions' ? undefined : s.key,
      headers: { 'x-idempotency-key': 'k1' },
    });
    expect400(res, /^a(\.a){15} must not be nested more than 16 levels deep$/);
  });

  it('accepts the same key again once the body is fixed (a refused body does not pin the key)', async () => {
    const s = await seller();
    const headers = { 'x-idempotency-key': 'k-fixed' };
    const refused = await api.call('POST', '/api/v1/customers', {
      raw: deeplyNested(40),
      token: s.key,
      headers,
    });
    expect(refused.status).toBe(400);
    const document = newCpf();
    const created = await api.post(
      '/api/v1/customers',
      { ...buyer(document), personType: 'fisica' },
      {
        token: s.key,
        headers,
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });

  it('refuses an empty key, a key with control characters and an overlong key, naming where', async () => {
    const s = await seller();
    const post = (raw: string) => api.call('POST', '/api/v1/customers', { raw, token: s.key });
    expect400(await post('{"name":"A","":1}'), /^body has an empty key$/);
    expect400(await post('{"street":{"a\\u0000b":1}}'), /^street has a key with control characters/);
    expect400(await post(`{"${'k'.repeat(129)}":1}`), /^body has a key longer than 128 characters/);
  });

  it('refuses a body larger than 64 KiB with 400', async () => {
    const s = await seller();
    const res = await api.post(
      '/api/v1/customers',
      { ...buyer(newCpf()), personType: 'fisica', street: 'x'.repeat(70_000) },
      { token: s.key },
    );
    expect400(res, /^body must be at most 65536 bytes$/);
  });
});

describe('transaction metadata is validated before any write', () => {
  const buy = (productUuid: string, document: string, metadata: unknown, raw?: string) =>
    raw === undefined
      ? api.post('/api/transactions', {
          productId: productUuid,
          paymentMethod: 'pix',
          customer: buyer(document),
          metadata,
        })
      : api.call('POST', '/api/transactions', { raw });

  it('refuses an empty metadata key and writes no customer', async () => {
    const s = await seller();
    const document = newCpf();
    expect400(await buy(s.product.uuid, document, { '': 'x' }), /^metadata has an empty key$/);
    expect(await customersOf(s.key, document)).toBe(0);
  });

  it('refuses about 900 KB of metadata and writes no customer', async () => {
    const s = await seller();
    const document = newCpf();
    expect400(await buy(s.product.uuid, document, bulkyMetadata(900)), /must be at most 65536 bytes/);
    expect(await customersOf(s.key, document)).toBe(0);
  });

  it.each([
    [
      '51 keys',
      Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])),
      /^metadata must have at most 50 keys$/,
    ],
    [
      'a 41-character key',
      { ['k'.repeat(41)]: 'v' },
      /^metadata key "k{20}…" must be at most 40 characters long$/,
    ],
    [
      'a 501-character value',
      { note: 'v'.repeat(501) },
      /^metadata\.note must be at most 500 characters long$/,
    ],
    ['a number value', { n: 1 }, /^metadata\.n must be a string$/],
    ['a nested value', { n: { a: 'b' } }, /^metadata\.n must be a string$/],
  ])('refuses %s and writes no customer', async (_, metadata, message) => {
    const s = await seller();
    const document = newCpf();
    expect400(await buy(s.product.uuid, document, metadata), message);
    expect(await customersOf(s.key, document)).toBe(0);
  });

  it('accepts 50 keys of 40 characters with 500-character values and returns them', async () => {
    const s = await seller();
    const metadata = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [
        `${String(i).padStart(2, '0')}${'k'.repeat(38)}`,
        'v'.repeat(500),
      ]),
    );
    const res = await buy(s.product.uuid, newCpf(), metadata);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    expect(res.body.metadata).toEqual(metadata);
  });
});

describe('page cursors are checked against the query they continue', () => {
  const forged = Buffer.from('{}').toString('base64url');

  async function endpointWithDeliveries(key: string, receiver: Receiver, count: number) {
    const created = await api.post(
      '/api/webhook-endpoints',
      { url: receiver.url, events: ['*'] },
      { token: key },
    );
    expect(created.status).toBe(201);
    for (let i = 0; i < count; i++) {
      expect(
        (await api.post('/api/test-helpers/events', { event: 'product.updated' }, { token: key })).status,
      ).toBe(201);
    }
    const deadline = Date.now() + 10_000;
    for (;;) {
      await runtime.timeline.advance(5);
      const log = await api.get(`/api/webhook-endpoints/${created.body.id}/deliveries`, { token: key });
      if (log.body.data.length >= count) break;
      if (Date.now() > deadline) throw new Error('deliveries did not appear in time');
      await new Promise((r) => setTimeout(r, 50));
    }
    return created.body.id as string;
  }

  it('answers 400 for the base64 of {} on every cursor list', async () => {
    const s = await seller();
    const receiver = await new Receiver().start();
    try {
      const id = await endpointWithDeliveries(s.key, receiver, 1);
      for (const path of [
        `/api/v1/charges?cursor=${forged}`,
        `/api/webhook-endpoints?cursor=${forged}`,
        `/api/webhook-endpoints/${id}/deliveries?cursor=${forged}`,
      ]) {
        expect400(await api.get(path, { token: s.key }), /^cursor is not valid$/);
      }
    } finally {
      await receiver.stop();
    }
  });

  it("answers 400 for another seller's cursor and for another list's cursor", async () => {
    const a = await seller();
    const b = await seller();
    for (let i = 0; i < 3; i++) {
      await api.post('/api/transactions', {
        productId: a.product.uuid,
        paymentMethod: 'pix',
        customer: buyer(newCpf()),
      });
    }
    const charges = await api.get('/api/v1/charges?limit=2', { token: a.key });
    expect(charges.body.nextCursor).toEqual(expect.any(String));
    expect400(
      await api.get(`/api/v1/charges?cursor=${charges.body.nextCursor}`, { token: b.key }),
      /^cursor is not valid$/,
    );

    const receiver = await new Receiver().start();
    try {
      const first = await endpointWithDeliveries(a.key, receiver, 2);
      const second = await endpointWithDeliveries(a.key, receiver, 0);
      const endpoints = await api.get('/api/webhook-endpoints?limit=1', { token: a.key });
      expect(endpoints.body.nextCursor).toEqual(expect.any(String));
      expect400(
        await api.get(`/api/webhook-endpoints?cursor=${endpoints.body.nextCursor}`, { token: b.key }),
        /^cursor is not valid$/,
      );
      // Same seller, same partition, another list: the sort key is outside the transactions' range.
      expect400(
        await api.get(`/api/v1/charges?cursor=${endpoints.body.nextCursor}`, { token: a.key }),
        /^cursor is not valid$/,
      );
      const log = await api.get(`/api/webhook-endpoints/${first}/deliveries?limit=1`, { token: a.key });
      expect(log.body.nextCursor).toEqual(expect.any(String));
      expect400(
        await api.get(`/api/webhook-endpoints/${second}/deliveries?cursor=${log.body.nextCursor}`, {
          token: a.key,
        }),
        /^cursor is not valid$/,
      );
      // The genuine cursors still page.
      const page2 = await api.get(
        `/api/webhook-endpoints/${first}/deliveries?limit=1&cursor=${log.body.nextCursor}`,
        {
          token: a.key,
        },
      );
      expect(page2.status).toBe(200);
      expect(page2.body.data).toHaveLength(1);
      const endpoints2 = await api.get(`/api/webhook-endpoints?limit=1&cursor=${endpoints.body.nextCursor}`, {
        token: a.key,
      });
      expect(endpoints2.status).toBe(200);
      expect(endpoints2.body.data).toHaveLength(1);
    } finally {
      await receiver.stop();
    }
  });
});

describe('test-helper events are bounded like every body', () => {
  it.each([
    ['an empty key', { '': 'x' }, /^data has an empty key$/],
    ['about 900 KB', bulkyMetadata(900), /^body must be at most 65536 bytes$/],
  ])('answers 400 for data with %s', async (_, data, message) => {
    const s = await seller();
    expect400(
      await api.post('/api/test-helpers/events', { event: 'product.updated', data }, { token: s.key }),
      message,
    );
  });

  it('answers 400 for deeply nested data', async () => {
    const s = await seller();
    const res = await api.call('POST', '/api/test-helpers/events', {
      raw: `{"event":"product.updated","data":${deeplyNested(5_000)}}`,
      token: s.key,
    });
    expect400(res, /^data(\.a){15} must not be nested more than 16 levels deep$/);
  });
});

describe('text fields refuse NUL and control characters', () => {
  it('refuses them in customer names and addresses', async () => {
    const s = await seller();
    const post = (extra: Record<string, unknown>) =>
      api.post('/api/v1/customers', { ...buyer(newCpf()), personType: 'fisica', ...extra }, { token: s.key });
    expect400(await post({ name: 'Ana\u0000Souza' }), /^name must not contain control characters$/);
    expect400(await post({ street: 'Rua\u0007 A' }), /^street must not contain control characters$/);
    expect400(await post({ city: 'São\nPaulo' }), /^city must not contain control characters$/);
    expect((await post({ name: 'Ana Souza  ' })).status).toBe(201);
  });

  it("refuses them in a transaction's buyer and writes no customer", async () => {
    const s = await seller();
    const document = newCpf();
    const res = await api.post('/api/transactions', {
      productId: s.product.uuid,
      paymentMethod: 'pix',
      customer: buyer(document, { name: 'Maria\u0000' + 'Souza' }),
    });
    expect400(res, /^customer\.name must not contain control characters$/);
    expect(await customersOf(s.key, document)).toBe(0);
  });

  it('refuses them in product names and descriptions, but keeps line breaks in descriptions', async () => {
    const s = await seller();
    const product = (extra: Record<string, unknown>) =>
      api.post(
        '/api/products',
        { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 10, ...extra },
        { token: s.key },
      );
    expect400(await product({ name: 'Cur\u0000so' }), /^name must not contain control characters$/);
    expect400(
      await product({ description: 'a\u0000b' }),
      /^description must not contain control characters$/,
    );
    const ok = await product({ description: 'Linha 1\nLinha 2\tfim' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it('refuses them in webhook endpoint descriptions and API key names', async () => {
    const s = await seller();
    const receiver = await new Receiver().start();
    try {
      expect400(
        await api.post(
          '/api/webhook-endpoints',
          { url: receiver.url, events: ['*'], description: 'x\u0000' },
          { token: s.key },
        ),
        /^description must not contain control characters$/,
      );
    } finally {
      await receiver.stop();
    }
    expect400(
      await api.post('/api/api-keys', { name: 'k\u0001', environment: 'test' }, { token: s.jwt }),
      /^name must not contain control characters$/,
    );
  });

  it('refuses a product value of -0', async () => {
    const s = await seller();
    const res = await api.call('POST', '/api/products', {
      raw: '{"name":"Curso","image":"https://cdn.example.com/c.png","value":-0}',
      token: s.key,
    });
    expect400(res, /^value must be a non-negative amount/);
  });
});

describe('content types', () => {
  const customer = () => JSON.stringify({ ...buyer(newCpf()), personType: 'fisica' });

  it.each([
    ['text/plain', 'text/plain'],
    ['text/plain with a charset', 'text/plain;charset=UTF-8'],
    ['multipart/form-data', 'multipart/form-data; boundary=x'],
  ])('answers 415 for a JSON body sent as %s', async (_, type) => {
    const s = await seller();
    const res = await api.call('POST', '/api/v1/customers', {
      raw: customer(),
      token: s.key,
      headers: { 'content-type': type },
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ statusCode: 415, message: 'Content-Type must be application/json' });
  });

  it('answers 415 for a body without a content type', async () => {
    const s = await seller();
    const res = await fetch(`${runtime.baseUrl}/api/v1/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key}` },
      body: Buffer.from(customer()),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ message: 'Content-Type must be application/json' });
  });

  it.each([
    ['application/json; charset=utf-8', 'application/json; charset=utf-8'],
    ['a +json type', 'application/vnd.api+json'],
    ["curl -d's default form type (README examples)", 'application/x-www-form-urlencoded'],
  ])('accepts %s', async (_, type) => {
    const s = await seller();
    const res = await api.call('POST', '/api/v1/customers', {
      raw: customer(),
      token: s.key,
      headers: { 'content-type': type },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('answers 400 for a form body that is not JSON', async () => {
    const s = await seller();
    const res = await api.call('POST', '/api/v1/customers', {
      raw: 'name=Ana&email=a%40example.com',
      token: s.key,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect400(res, /^Request body is not valid JSON$/);
  });

  it('does not ask for a content type when there is no body', async () => {
    const s = await seller();
    const res = await fetch(`${runtime.baseUrl}/api/webhook-endpoints`, {
      headers: { authorization: `Bearer ${s.key}` },
    });
    expect(res.status).toBe(200);
  });
});

describe('sandbox gateway ids', () => {
  it('are large random safe integers, not a sequence, and the public status still finds them', async () => {
    const s = await seller();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.post('/api/transactions', {
        productId: s.product.uuid,
        paymentMethod: 'boleto',
        customer: buyer(newCpf()),
      });
      expect(res.status).toBe(201);
      ids.push(res.body.gatewayPayId);
      const pdf = await fetch(res.body.boleto.pdfUrl);
      expect(pdf.status).toBe(200);
    }
    for (const id of ids) {
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(String(id)).toMatch(/^[1-9]\d{14}$/);
      expect((await api.get(`/api/transactions/status/${id}`)).body).toBe('pendingBoleto');
    }
    const gaps = [ids[1] - ids[0], ids[2] - ids[1]].map(Math.abs);
    expect(gaps.some((gap) => gap > 1_000)).toBe(true);
  });
});
