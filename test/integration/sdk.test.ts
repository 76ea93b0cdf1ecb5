import { execFile, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import {
  AuthenticationError,
  BadRequestError,
  createPaymentService,
  NotFoundError,
  type PaymentService,
  verifyRequest,
  type WebhookEvent,
  WebhookVerificationError,
  webhookHandler,
} from '@payment-service/node';
import { webhookMiddleware } from '@payment-service/node/express';
import { fastifyWebhookPreHandler, fastifyWebhooks } from '@payment-service/node/fastify';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#infra/local/dynamodb-local';
import type { Runtime } from '#infra/local/runtime';
import { customerBody, sellerFixtures } from '../support/fixtures';
import { eventually, waitFor } from '../support/receiver';
import { client, startTestRuntime } from '../support/runtime';

/**
 * The Node SDK (packages/node) against the local runtime, as a seller's server uses it: a sale, a
 * list across pages, the error classes, a retried POST that makes one sale only, and the webhook
 * middleware of Express, Fastify and the Fetch API accepting a real delivery and refusing each
 * failure with its own code and message.
 */

const run = promisify(execFile);

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 71_000);

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = client(runtime.baseUrl);
});
afterAll(() => runtime?.stop());

/** A seller of its own (its lists hold only what the test made) and the SDK on its sandbox key. */
async function sdkSeller(options: { fetch?: (request: Request) => Promise<Response> } = {}) {
  const { key } = await fixtures.seller();
  const sdk = createPaymentService(key, { baseUrl: runtime.baseUrl, initialRetryDelayMs: 1, ...options });
  return { key, sdk };
}

const product = { name: 'Curso de violão', image: 'https://cdn.example.com/v.png', value: 49.9 };
const buyer = {
  name: customerBody.name,
  email: customerBody.email,
  document: customerBody.document,
  phone: customerBody.phone,
};

async function sell(sdk: PaymentService, productId: string) {
  return sdk.transactions.create({ productId, paymentMethod: 'pix', customer: buyer });
}

describe('the SDK against the local runtime', () => {
  it('makes the first sale: a product, a pix payment, paid in the sandbox', async () => {
    const { sdk } = await sdkSeller();
    const created = await sdk.products.create(product);
    expect(created).toMatchObject({ name: product.name, value: 49.9, isActive: true });
    const sale = await sell(sdk, created.uuid);
    expect(sale).toMatchObject({ status: 'pendingPix' });
    const paid = await sdk.testHelpers.payTransaction(sale.id);
    expect(paid).toMatchObject({ id: sale.id, status: 'payedPix' });
    expect(await sdk.transactions.retrieve(sale.id)).toMatchObject({ status: 'payedPix' });
  });

  it("runs the README's first sale (packages/node/examples/first-sale.ts) as it is", async () => {
    const { key } = await fixtures.seller();
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'packages/node/examples/first-sale.ts'],
      {
        env: { ...process.env, PAYMENT_SERVICE_KEY: key, PAYMENT_SERVICE_URL: runtime.baseUrl },
      },
    );
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^pendingPix \S+/);
    expect(lines[1]).toMatch(/^\d+ payedPix$/);
    expect(lines.slice(2).join('\n')).toMatch(/^validation_failed .*field: 'value'/s);
  });

  it("runs the README's Express webhook handler (packages/node/examples/express-webhooks.ts): a paid sale's delivery verifies", async () => {
    const { sdk } = await sdkSeller();
    const port = await freePort();
    const endpoint = await sdk.webhookEndpoints.create({
      url: `http://127.0.0.1:${port}/webhooks`,
      events: ['transaction.payment.succeeded'],
    });
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/node/examples/express-webhooks.ts'], {
      env: { ...process.env, WEBHOOK_SECRET: endpoint.secret as string, PORT: String(port) },
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    try {
      await eventually(
        () =>
          fetch(`http://127.0.0.1:${port}/`).then(
            () => true,
            () => false,
          ),
        30_000,
      );
      const { uuid } = await sdk.products.create(product);
      const sale = await sell(sdk, uuid);
      await sdk.testHelpers.payTransaction(sale.id);
      await waitFor(() => stdout.includes('paid'), 30_000);
      expect(stdout).toMatch(/^paid /);
      const last = async () => (await sdk.webhookEndpoints.listDeliveries(endpoint.id)).data[0];
      await eventually(async () => (await last())?.lastStatusCode === 200);
    } finally {
      child.kill();
    }
  });

  it('iterates a list across pages: cursor pages (products) and numbered pages (transactions)', async () => {
    const { sdk } = await sdkSeller();
    const made: string[] = [];
    for (const name of ['A', 'B', 'C']) made.push((await sdk.products.create({ ...product, name })).uuid);
    const pages = [];
    for await (const page of sdk.products.list({ limit: 2 }).pages()) pages.push(page);
    expect(pages.length).toBeGreaterThan(1);
    const listed: string[] = [];
    for await (const p of sdk.products.list({ limit: 2 }).autoPaginate()) listed.push(p.uuid);
    expect([...listed].sort()).toEqual([...made].sort());

    for (let i = 0; i < 3; i++) await sell(sdk, made[0]);
    const firstPage = await sdk.transactions.list({ limit: 2 });
    expect(firstPage.data).toHaveLength(2);
    const sales = await sdk.transactions.list({ limit: 2 }).toArray({ limit: 100 });
    expect(sales).toHaveLength(3);
    expect(new Set(sales.map((s) => s.id)).size).toBe(3);
  });

  it('throws an error class by status, with the code and the invalid fields', async () => {
    const { sdk } = await sdkSeller();
    const bad = await sdk.products.create({ ...product, value: -1 }).catch((e) => e);
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad.status).toBe(400);
    expect(bad.code).toBe('validation_failed');
    expect(bad.fieldErrors.map((f: { field: string }) => f.field)).toContain('value');
    const missing = await sdk.transactions.retrieve(987_654_321).catch((e) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: expect.any(String) });
    const stranger = createPaymentService('sk_test_not_a_key', { baseUrl: runtime.baseUrl });
    const refused = await stranger.products.list().catch((e) => e);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect(refused.code).toBe('api_key_invalid');
  });

  it('retries a sale whose answer was lost (a 503 in its place) with the same key: one sale only', async () => {
    const attempts: { key: string | null; replayed: string | null }[] = [];
    let lost = false;
    // The first attempt reaches the service and makes the sale; its answer is lost on the way back.
    const flaky = async (request: Request) => {
      const answer = await fetch(request);
      if (request.method !== 'POST' || new URL(request.url).pathname !== '/api/transactions') return answer;
      attempts.push({
        key: request.headers.get('x-idempotency-key'),
        replayed: answer.headers.get('idempotent-replayed'),
      });
      if (lost) return answer;
      lost = true;
      await answer.arrayBuffer();
      return Response.json(
        { statusCode: 503, code: 'service_unavailable', message: 'lost' },
        { status: 503 },
      );
    };
    const { sdk } = await sdkSeller({ fetch: flaky });
    const { uuid } = await sdk.products.create(product);
    const sale = await sell(sdk, uuid);
    expect(sale.status).toBe('pendingPix');
    expect(attempts).toHaveLength(2);
    expect(attempts[0].key).toMatch(/^[0-9a-f-]{36}$/);
    expect(attempts[1]).toEqual({ key: attempts[0].key, replayed: 'true' });
    const sales = await sdk.transactions.list().toArray({ limit: 100 });
    expect(sales.map((s) => s.id)).toEqual([sale.id]);
  });
});

/** One delivery as a receiver got it: the exact bytes and the signature header. */
interface Delivery {
  raw: string;
  signature: string;
}

describe('webhook verification with the SDK in Express, Fastify and Hono', () => {
  let sdk: PaymentService;
  let key: string;
  const servers: { close: () => Promise<void> }[] = [];
  const verified: Record<'express' | 'fastify' | 'request', WebhookEvent[]> = {
    express: [],
    fastify: [],
    request: [],
  };
  const base: Record<'express' | 'fastify' | 'request', string> = { express: '', fastify: '', request: '' };
  const secrets: Record<'express' | 'fastify' | 'request', string> = {
    express: '',
    fastify: '',
    request: '',
  };
  let delivered: Delivery | undefined;

  async function register(name: keyof typeof base) {
    const port = await freePort();
    base[name] = `http://127.0.0.1:${port}`;
    const endpoint = await sdk.webhookEndpoints.create({
      url: `${base[name]}/hook`,
      events: ['product.updated'],
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    secrets[name] = endpoint.secret as string;
    return port;
  }

  function listen(server: Server, port: number) {
    servers.push({
      close: () =>
        new Promise<void>((r) => {
          server.close(() => r());
          server.closeAllConnections();
        }),
    });
    return new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  }

  beforeAll(async () => {
    ({ sdk, key } = await sdkSeller());

    // Express: the middleware on its routes, express.json() for the rest of the app after them.
    const expressPort = await register('express');
    const app = express();
    app.post('/hook', webhookMiddleware({ secret: secrets.express }), (req, res) => {
      verified.express.push(req.webhookEvent as WebhookEvent);
      res.json({ received: true });
    });
    app.post('/hook-wrong-secret', webhookMiddleware({ secret: key }), (_req, res) => {
      res.json({ received: true });
    });
    app.use(express.json());
    app.post('/hook-parsed', webhookMiddleware({ secret: secrets.express }), (_req, res) => {
      res.json({ received: true });
    });
    await listen(createServer(app), expressPort);

    // Fastify: the plugin in the webhook route's scope; the preHandler alone where JSON was parsed.
    const fastifyPort = await register('fastify');
    const fastify: FastifyInstance = Fastify();
    await fastify.register(async (hooks) => {
      await hooks.register(fastifyWebhooks, { secret: secrets.fastify });
      hooks.post('/hook', async (request) => {
        verified.fastify.push(request.webhookEvent as WebhookEvent);
        return { received: true };
      });
    });
    await fastify.register(async (hooks) => {
      await hooks.register(fastifyWebhooks, { secret: key });
      hooks.post('/hook-wrong-secret', async () => ({ received: true }));
    });
    fastify.post(
      '/hook-parsed',
      { preHandler: fastifyWebhookPreHandler({ secret: secrets.fastify }) },
      async () => ({
        received: true,
      }),
    );
    await fastify.listen({ port: fastifyPort, host: '127.0.0.1' });
    servers.push({ close: () => fastify.close() });

    // The Fetch API: a Hono app (its c.req.raw is the Request, as a Next.js route handler gets one),
    // served by Node's server, which hands over a Request.
    const requestPort = await register('request');
    const hono = new Hono();
    const handle = webhookHandler(secrets.request, (event) => {
      verified.request.push(event);
      return Response.json({ received: true });
    });
    hono.post('/hook', (c) => handle(c.req.raw));
    hono.post('/hook-wrong-secret', (c) =>
      webhookHandler(key, () => Response.json({ received: true }))(c.req.raw),
    );
    // A handler that reads the JSON first, then checks: the body is gone.
    hono.post('/hook-parsed', async (c) => {
      await c.req.json();
      try {
        await verifyRequest(c.req.raw, secrets.request);
        return c.json({ received: true });
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        return c.json({ code: error.code, message: error.message }, 400);
      }
    });
    const requestServer = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const raw = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string') headers.set(name, value);
      if (req.url === '/hook' && headers.get('x-signature') && delivered === undefined)
        delivered = { raw: raw.toString('utf8'), signature: headers.get('x-signature') as string };
      const answer = await hono.fetch(
        new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: raw }),
      );
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await listen(requestServer, requestPort);
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  /** Posts to a receiver's route as the service would, with this signature (or none). */
  async function post(to: keyof typeof base, path: string, raw: string, signature: string | null) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signature !== null) headers['x-signature'] = signature;
    const res = await fetch(`${base[to]}${path}`, { method: 'POST', headers, body: raw });
    return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
  }

  const resign = (secret: string, at: number, raw: string) =>
    `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${raw}`).digest('hex')}`;

  it('accepts a real delivery of the local runtime in Express, Fastify and Hono (a Request handler)', async () => {
    const sent = await sdk.testHelpers.emitEvent({ event: 'product.updated' });
    // Each endpoint gets its own delivery, signed with its own secret; each receiver verifies it.
    await waitFor(
      () => verified.express.length > 0 && verified.fastify.length > 0 && verified.request.length > 0,
    );
    for (const name of ['express', 'fastify', 'request'] as const) {
      expect(verified[name].map((e) => e.id)).toEqual([sent.id]);
      expect(verified[name][0]).toMatchObject({ event: 'product.updated' });
    }
    const endpoints = await sdk.webhookEndpoints.list().toArray({ limit: 10 });
    expect(endpoints).toHaveLength(3);
    // The service records each delivery after the receiver's answer: wait for the records.
    for (const endpoint of endpoints) {
      const last = async () => (await sdk.webhookEndpoints.listDeliveries(endpoint.id)).data[0];
      await eventually(async () => (await last())?.lastStatusCode === 200);
      expect(await last()).toMatchObject({ eventId: sent.id, attemptCount: 1 });
    }
  });

  it('refuses each failure with its own code and message, in each framework', async () => {
    expect(delivered, 'the first test received a delivery').toBeDefined();
    const { raw, signature } = delivered as Delivery;
    // The delivery was signed for the Request receiver's endpoint; re-signed for the others.
    const now = Math.floor(Date.now() / 1000);
    for (const name of ['express', 'fastify', 'request'] as const) {
      const good = name === 'request' ? signature : resign(secrets[name], now, raw);
      const cases: { path: string; raw: string; signature: string | null; code: string; says: RegExp }[] = [
        {
          path: '/hook',
          raw,
          signature: null,
          code: 'missing_signature_header',
          says: /No X-Signature header/,
        },
        {
          path: '/hook-parsed',
          raw,
          signature: good,
          code: 'body_parsed_before_verification',
          says:
            name === 'express'
              ? /parsed before the signature check.*express\.json\(\)/
              : name === 'fastify'
                ? /parsed before the signature check.*register the fastifyWebhooks plugin/
                : /already read.*call verifyRequest first/,
        },
        {
          path: '/hook-wrong-secret',
          raw,
          signature: good,
          code: 'wrong_secret',
          says: /does not start with "whsec_".*looks like an API key/,
        },
        {
          path: '/hook',
          raw,
          signature: resign(secrets[name], now - 3600, raw),
          code: 'timestamp_outside_tolerance',
          says: /outside the 300 s tolerance/,
        },
        {
          path: '/hook',
          raw: raw.replace('product.updated', 'product.deleted'),
          signature: good,
          code: 'signature_mismatch',
          says: /No signature matches/,
        },
      ];
      for (const c of cases) {
        const answer = await post(name, c.path, c.raw, c.signature);
        expect(answer.status, `${name} ${c.code}`).toBe(400);
        expect(answer.body.code, `${name} ${c.code}`).toBe(c.code);
        expect(answer.body.message, `${name} ${c.code}`).toMatch(c.says);
      }
      // The same delivery, untouched, still passes: the refusals were the checks, not the route.
      expect((await post(name, '/hook', raw, good)).status, name).toBe(200);
    }
    // The Express middleware reads the body itself, up to 1 MiB: a longer one is answered 413.
    const huge = await post(
      'express',
      '/hook',
      JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }),
      signature,
    );
    expect(huge).toMatchObject({ status: 413, body: { code: 'body_too_large' } });
  });
});
