import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  createPaymentService,
  NotFoundError,
  RateLimitError,
  ServerError,
  verifyWebhook,
  WebhookVerificationError,
} from '@payment-service/node';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { nextPageQuery } from '../../packages/node/src/pagination';
import { retryAfterMs } from '../../packages/node/src/transport';
import { SDK_ROUTES_FILE, SDK_TYPES_FILE, sdkRoutes, sdkTypes } from '../../scripts/dashboard-types';

describe('the SDK types', () => {
  it('are what openapi-typescript makes of docs/openapi.json (run `npm run openapi` after a route change)', async () => {
    expect(readFileSync(SDK_TYPES_FILE, 'utf8')).toBe(await sdkTypes());
    expect(readFileSync(SDK_ROUTES_FILE, 'utf8')).toBe(sdkRoutes());
  });

  it('type each method from the generated paths: path parameters, body or query, answer', () => {
    const client = createPaymentService('sk_test_x', { baseUrl: 'http://127.0.0.1:1' });
    type Create = typeof client.transactions.create;
    expectTypeOf<Parameters<Create>[0]>().toHaveProperty('productId');
    expectTypeOf<Awaited<ReturnType<Create>>>().toHaveProperty('status');
    expectTypeOf<Parameters<typeof client.transactions.refund>[0]>().toEqualTypeOf<string | number>();
    expectTypeOf<ReturnType<typeof client.transactions.list>>().toHaveProperty('autoPaginate');
    expectTypeOf<ReturnType<typeof client.transactions.retrieve>>().not.toHaveProperty('autoPaginate');
    // @ts-expect-error a product needs its name, image and value
    void (() => client.products.create({ nme: 'x' }));
    // @ts-expect-error retrieve needs the id
    void (() => client.transactions.retrieve());
  });

  it("are shown in the README by the package's type-checked examples, verbatim", () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## SDK for Node'), readme.indexOf('## Layout'));
    for (const example of ['first-sale.ts', 'express-webhooks.ts']) {
      const code = readFileSync(`packages/node/examples/${example}`, 'utf8');
      expect(section, example).toContain(`\`\`\`ts\n${code}\`\`\``);
    }
  });
});

/** A scripted server: each call answers the next of `answers` and records the request. */
function scripted(answers: Array<Response | Error>) {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request);
    const next = answers.shift();
    if (next === undefined) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  };
  return { requests, fetch };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const failure = (status: number, code: string, message: string | string[]) =>
  json(status, { statusCode: status, code, message, timestamp: '2026-01-01T00:00:00.000Z', path: '/x' });

const sale = {
  productId: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
  paymentMethod: 'pix' as const,
  customer: {
    name: 'Maria Souza',
    email: 'maria@example.com',
    document: '52998224725',
    phone: '11987654321',
  },
};

function clientOn(answers: Array<Response | Error>, maxRetries = 2) {
  const server = scripted(answers);
  const client = createPaymentService('sk_test_abc', {
    baseUrl: 'http://127.0.0.1:1',
    fetch: server.fetch,
    maxRetries,
    initialRetryDelayMs: 0,
  });
  return { client, requests: server.requests };
}

describe('retries', () => {
  it('retries a POST that honours idempotency keys after 503s, with one key for every attempt', async () => {
    const { client, requests } = clientOn([
      failure(503, 'service_unavailable', 'x'),
      new TypeError('fetch failed'),
      json(201, { id: 1 }),
    ]);
    expect(await client.transactions.create(sale)).toEqual({ id: 1 });
    expect(requests).toHaveLength(3);
    const keys = requests.map((r) => r.headers.get('x-idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(requests.map((r) => r.headers.get('authorization'))).toEqual(Array(3).fill('Bearer sk_test_abc'));
    expect(await requests[2].json()).toEqual(sale);
  });

  it("sends the caller's idempotency key, and a new one per call otherwise", async () => {
    const { client, requests } = clientOn([json(201, { id: 1 }), json(201, { id: 2 }), json(201, { id: 3 })]);
    await client.transactions.create(sale, { idempotencyKey: 'order-42' });
    await client.transactions.create(sale);
    await client.transactions.create(sale);
    const keys = requests.map((r) => r.headers.get('x-idempotency-key'));
    expect(keys[0]).toBe('order-42');
    expect(keys[1]).not.toBe(keys[2]);
  });

  it('never repeats a POST the service does not replay (a refund) after a 5xx or a lost connection', async () => {
    const { client, requests } = clientOn([failure(503, 'service_unavailable', 'down')]);
    await expect(client.transactions.refund(7, {})).rejects.toBeInstanceOf(ServerError);
    expect(requests).toHaveLength(1);
    const lost = clientOn([new TypeError('socket hang up')]);
    const error = await lost.client.transactions.refund(7, {}).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/got no answer: socket hang up\. It may have run/);
    expect(lost.requests).toHaveLength(1);
  });

  it('retries a 429 everywhere (the service refused it unrun) after its Retry-After', async () => {
    const { client, requests } = clientOn([
      failure(429, 'rate_limited', 'slow down'),
      json(200, { id: 7, status: 'reversed' }),
    ]);
    expect(await client.transactions.refund(7, {})).toMatchObject({ status: 'reversed' });
    expect(requests).toHaveLength(2);
  });

  it('gives up with the error class of the last answer after maxRetries, and a call can override it', async () => {
    const { client, requests } = clientOn([
      failure(500, 'internal', 'a'),
      failure(502, 'bad_gateway', 'b'),
      failure(503, 'service_unavailable', 'c'),
    ]);
    const error = await client.transactions.retrieve(1).catch((e) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', message: 'c' });
    expect(requests).toHaveLength(3);
    const once = clientOn([failure(500, 'internal', 'a'), json(200, {})]);
    await expect(once.client.transactions.retrieve(1, { maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(once.requests).toHaveLength(1);
  });

  it('does not wait for a Retry-After longer than the limit: the RateLimitError says when to come back', async () => {
    const { client, requests } = clientOn([
      json(
        429,
        { statusCode: 429, code: 'card_attempts_blocked', message: 'wait', timestamp: '', path: '' },
        { 'retry-after': '3600' },
      ),
    ]);
    const error = await client.transactions.create(sale).catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterSeconds).toBe(3600);
    expect(requests).toHaveLength(1);
  });

  it('retries a 409 idempotency_in_progress (the first attempt still runs), not another 409', async () => {
    const { client, requests } = clientOn([
      failure(409, 'idempotency_in_progress', 'still running'),
      json(201, { id: 1 }),
    ]);
    expect(await client.transactions.create(sale)).toEqual({ id: 1 });
    expect(requests).toHaveLength(2);
    const other = clientOn([failure(409, 'invalid_state', 'already refunded')]);
    await expect(other.client.transactions.refund(1, {})).rejects.toBeInstanceOf(ConflictError);
    expect(other.requests).toHaveLength(1);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});

describe('errors', () => {
  it('are classes by status with the code, every message and the invalid fields', async () => {
    const { client } = clientOn([
      failure(400, 'validation_failed', [
        'customer.email must be an e-mail address',
        'installments must be 1 to 12',
      ]),
      failure(401, 'api_key_invalid', 'Unauthorized'),
      failure(404, 'not_found', 'Transaction not found'),
    ]);
    const bad = await client.transactions.create(sale).catch((e) => e);
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad.fieldErrors).toEqual([
      { field: 'customer.email', message: 'customer.email must be an e-mail address' },
      { field: 'installments', message: 'installments must be 1 to 12' },
    ]);
    expect(await client.transactions.retrieve(1).catch((e) => e)).toBeInstanceOf(AuthenticationError);
    const missing = await client.transactions.retrieve(1).catch((e) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', message: 'Transaction not found' });
    expect(missing.fieldErrors).toEqual([]);
  });
});

describe('pagination', () => {
  it('follows nextCursor, then numbered pages while totalPages says there are more', () => {
    expect(nextPageQuery({ limit: 2 }, { data: [], nextCursor: 'abc' })).toEqual({ limit: 2, cursor: 'abc' });
    expect(nextPageQuery({ limit: 2, cursor: 'abc' }, { data: [], nextCursor: null })).toBeNull();
    expect(nextPageQuery({ limit: 2 }, { data: [], totalPages: 3, count: 2 })).toEqual({ limit: 2, page: 2 });
    expect(nextPageQuery({ limit: 2, page: 3 }, { data: [], totalPages: 3 })).toBeNull();
    expect(nextPageQuery(undefined, { data: [], nextCursor: null, page: null, totalPages: null })).toBeNull();
  });

  it('iterates every item of every page, fetching each page when the loop reaches it', async () => {
    const { client, requests } = clientOn([
      json(200, { data: [{ id: 'e1' }, { id: 'e2' }], nextCursor: 'c2' }),
      json(200, { data: [{ id: 'e3' }], nextCursor: null }),
    ]);
    const ids: string[] = [];
    for await (const event of client.events.list({ limit: 2 }).autoPaginate()) ids.push(event.id);
    expect(ids).toEqual(['e1', 'e2', 'e3']);
    expect(new URL(requests[1].url).searchParams.get('cursor')).toBe('c2');
    expect(new URL(requests[1].url).searchParams.get('limit')).toBe('2');
  });
});

describe('verifyWebhook', () => {
  const secret = 'whsec_unit';
  const body = JSON.stringify({ id: 'evt_1', event: 'product.updated', timestamp: '', data: {} });
  const now = new Date('2026-05-01T12:00:00Z');
  const t = Math.floor(now.getTime() / 1000);
  const sign = (key: string, at: number, raw: string) =>
    `t=${at},v1=${createHmac('sha256', key).update(`${at}.${raw}`).digest('hex')}`;
  const refusal = (options: Parameters<typeof verifyWebhook>[0]) => {
    try {
      verifyWebhook(options);
    } catch (error) {
      expect(error).toBeInstanceOf(WebhookVerificationError);
      return { code: (error as WebhookVerificationError).code, message: (error as Error).message };
    }
    throw new Error('accepted');
  };

  it('accepts a delivery as a string or a Buffer, and any v1 of a rotation', () => {
    const header = `${sign('whsec_old', t, body)},${sign(secret, t, body).split(',')[1]}`;
    expect(verifyWebhook({ payload: body, header, secret, now }).id).toBe('evt_1');
    expect(verifyWebhook({ payload: Buffer.from(body), header, secret: 'whsec_old', now }).id).toBe('evt_1');
  });

  it('names the check that failed', () => {
    const header = sign(secret, t, body);
    expect(refusal({ payload: body, header: undefined, secret, now }).code).toBe('missing_signature_header');
    expect(refusal({ payload: JSON.parse(body), header, secret, now })).toMatchObject({
      code: 'body_parsed_before_verification',
      message: expect.stringContaining('parsed before the signature check'),
    });
    expect(refusal({ payload: body, header, secret: 'sk_test_abc', now })).toMatchObject({
      code: 'wrong_secret',
      message: expect.stringMatching(/does not start with "whsec_".*looks like an API key/),
    });
    expect(refusal({ payload: body, header, secret: '', now }).code).toBe('wrong_secret');
    expect(refusal({ payload: body, header: sign(secret, t - 301, body), secret, now })).toMatchObject({
      code: 'timestamp_outside_tolerance',
      message: expect.stringContaining('301 s old, outside the 300 s tolerance'),
    });
    expect(refusal({ payload: `${body} `, header, secret, now }).code).toBe('signature_mismatch');
    expect(refusal({ payload: body, header, secret: 'whsec_other', now }).code).toBe('signature_mismatch');
    expect(refusal({ payload: body, header: 'v1=abc', secret, now }).code).toBe('malformed_signature_header');
  });
});
