import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionNames } from '#infra/routes';
import { periodEnd } from '#shared/domain/subscriptions/periods';
import { BUILD_DIR, buildAll } from '../../esbuild.config.mjs';
import { type FakeAsaas, startFakeAsaas } from '../support/fake-asaas/server';

/**
 * The smoke suite of the shipped artifact: `npm start --bundled` (what `npm run start:bundled` runs
 * after `npm run build`) in a process of its own, every function loaded from its esbuild bundle in
 * build/ as Lambda loads it, then a walk through what would break first in production if a bundle
 * missed an asset, failed to load a chunk or leaned on an import only tsx resolves.
 */

const root = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'ps-bundled-'));
let child: ChildProcess;
let output = '';
let B = '';
let KEY = '';
let receiver: Server;
/** Live mode's Asaas, as an operator points the runtime at one: ASAAS_BASE_URL. */
let asaas: FakeAsaas;
let hookUrl = '';
const deliveries: string[] = [];

/** The runtime's ready line, which `npm start` prints too. */
const READY = /payment-service ready at (http:\/\/\S+)/;

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}\n${output}`);
}

async function call(method: string, path: string, body?: unknown, auth = true) {
  const res = await fetch(`${B}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(auth ? { authorization: `Bearer ${KEY}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

const customer = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '11987654321',
};

beforeAll(async () => {
  // The suite's global setup has built the bundles; a lone run of this file builds them itself.
  if (!functionNames.every((name) => existsSync(join(root, BUILD_DIR, name, 'index.mjs')))) await buildAll();
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      deliveries.push(JSON.parse(raw).event);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', () => ok()));
  const address = receiver.address();
  hookUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;

  asaas = await startFakeAsaas();
  child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts', '--bundled'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      LOCAL_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ASAAS_BASE_URL: asaas.baseUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c) => {
    output += c;
  });
  child.stderr?.on('data', (c) => {
    output += c;
  });
  // The ready line comes first and the start-up lines after it, each its own write: wait for the last.
  B = await until('the start-up lines', () => {
    if (child.exitCode !== null) throw new Error(`the bundled runtime exited\n${output}`);
    return output.includes('asaas: sandbox') ? output.match(READY)?.[1] : undefined;
  });
  KEY = JSON.parse(readFileSync(join(dataDir, 'dev-credentials.json'), 'utf8')).apiKey;
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  receiver?.close();
  await asaas?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the bundled runtime (npm run start:bundled)', () => {
  it('says it runs the bundles, and answers health with every check healthy', async () => {
    expect(output).toContain(`functions: the esbuild bundles in ${join(root, BUILD_DIR)}`);
    const health = await call('GET', '/api/health', undefined, false);
    expect(health.status).toBe(200);
    expect(health.json.status).toBe('healthy');
  });

  it('reaches Asaas where ASAAS_BASE_URL points, for both environments', async () => {
    expect(output).toContain(`asaas: sandbox ${asaas.baseUrl}, production ${asaas.baseUrl}`);
    const before = asaas.requests.length;
    const gateway = await call('GET', '/api/health/gateway', undefined, false);
    expect(gateway.status).toBe(200);
    expect(gateway.json.checks.gateway).toMatchObject({ status: 'healthy', provider: 'asaas' });
    expect(asaas.requests.slice(before).map((r) => r.path)).toContain('/v3/myAccount/commercialInfo');
  });

  it('serves the docs: the OpenAPI document and its reference page with its assets', async () => {
    const openapi = await call('GET', '/api/openapi.json', undefined, false);
    expect(openapi.status).toBe(200);
    expect(openapi.json.openapi).toMatch(/^3\.1/);
    const page = await call('GET', '/docs', undefined, false);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const asset = page.text.match(/\/docs\/assets\/[\w.-]+\.js/)?.[0] as string;
    expect(asset).toBeDefined();
    expect((await call('GET', asset, undefined, false)).status).toBe(200);
  });

  it('sells by pix, boleto and card, serves the pay page, and delivers the webhooks', async () => {
    const endpoint = await call('POST', '/api/webhook-endpoints', { url: hookUrl, events: ['*'] });
    expect(endpoint.status).toBe(201);
    const product = await call('POST', '/api/products', {
      name: 'Curso',
      image: 'https://example.com/c.png',
      value: 49.9,
    });
    expect(product.status).toBe(201);
    const P = product.json.uuid;

    const page = await call('GET', `/pay/${P}`, undefined, false);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Curso');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");

    const pix = await call(
      'POST',
      '/api/transactions',
      { productId: P, paymentMethod: 'pix', customer },
      false,
    );
    expect(pix.status, pix.text).toBeLessThan(300);
    expect(pix.json.status).toBe('pendingPix');
    expect(pix.json.pix.qrCode).toMatch(/^000201/);
    const paid = await call('POST', `/api/test-helpers/transactions/${pix.json.id}/pay`);
    expect(paid.json.status).toBe('payedPix');

    const boleto = await call(
      'POST',
      '/api/transactions',
      { productId: P, paymentMethod: 'boleto', customer },
      false,
    );
    expect(boleto.status, boleto.text).toBeLessThan(300);
    expect(boleto.json.status).toBe('pendingBoleto');
    const pdfUrl = JSON.stringify(boleto.json).match(/https?:\/\/[^"]+\/pdf[^"]*/)?.[0] as string;
    expect(pdfUrl).toBeDefined();
    const pdf = await fetch(pdfUrl);
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const card = await call(
      'POST',
      '/api/transactions',
      {
        productId: P,
        paymentMethod: 'creditcard',
        card: {
          number: '4111111111111111',
          holderName: 'MARIA SOUZA',
          expiryMonth: 12,
          expiryYear: 2031,
          cvv: '123',
        },
        customer,
      },
      false,
    );
    expect(card.status, card.text).toBeLessThan(300);
    expect(card.json.status).toBe('captured');

    // The outbox publisher, the fan-out and the delivery function, each from its bundle.
    await until('the payment webhook', () =>
      deliveries.includes('transaction.payment.succeeded') ? true : undefined,
    );
    const listed = await call('GET', `/api/webhook-endpoints/${endpoint.json.id}/deliveries?limit=20`);
    expect(listed.status).toBe(200);
    const paidDelivery = listed.json.data.find((d: any) => d.event === 'transaction.payment.succeeded');
    expect(paidDelivery).toMatchObject({ status: 'succeeded', lastStatusCode: 200 });
  });

  it('runs scheduled jobs: the heartbeat runs again when the test clock passes its interval', async () => {
    const before = (await call('GET', '/api/health/cron', undefined, false)).json;
    const lastRun = (h: any) => h.lastRunAt ?? h.checks?.cron?.lastRunAt;
    const first = lastRun(before);
    expect(first).toBeDefined();
    const advanced = await call('POST', '/api/test-helpers/clock/advance', { seconds: 600 }, false);
    expect(advanced.status).toBe(200);
    const after = await until('a later heartbeat', async () => {
      const now = lastRun((await call('GET', '/api/health/cron', undefined, false)).json);
      return now && now > first ? now : undefined;
    });
    expect(new Date(after).getTime()).toBeGreaterThan(new Date(first).getTime());
  });

  it('a sandbox seller creates a test clock, subscribes a customer on it, advances 3 months and sees three renewals and their webhooks', async () => {
    const endpoint = await call('POST', '/api/webhook-endpoints', {
      url: hookUrl,
      events: ['subscription.renewed'],
    });
    expect(endpoint.status).toBe(201);
    const now = (await call('GET', '/api/test-helpers/clock', undefined, false)).json.now as string;
    const frozenTime = new Date(Math.floor(Date.parse(now) / 1000) * 1000).toISOString();
    const clock = await call('POST', '/api/test-helpers/test-clocks', { frozenTime });
    expect(clock.status, clock.text).toBe(201);
    const onClock = {
      ...customer,
      document: '111.444.777-35',
      email: 'joana@example.com',
      name: 'Joana Lima',
    };
    const registered = await call('POST', '/api/v1/customers', {
      ...onClock,
      personType: 'fisica',
      testClockId: clock.json.id,
    });
    expect(registered.status, registered.text).toBe(201);
    const product = await call('POST', '/api/products', {
      name: 'Clube',
      image: 'https://example.com/c.png',
      value: 29.9,
    });
    const price = await call('POST', `/api/products/${product.json.id}/prices`, {
      name: 'Mensal',
      unitAmount: 29.9,
      billingInterval: 'month',
    });
    expect(price.status, price.text).toBe(201);
    const sale = await call(
      'POST',
      '/api/transactions',
      {
        productId: product.json.uuid,
        paymentMethod: 'creditcard',
        card: {
          number: '4111111111111111',
          holderName: 'JOANA LIMA',
          expiryMonth: 12,
          expiryYear: 2031,
          cvv: '123',
        },
        customer: onClock,
        saveCard: true,
      },
      false,
    );
    expect(sale.status, sale.text).toBe(201);
    const cards = await call('GET', `/api/v1/customers/${registered.json.uuid}/payment-methods`);
    const sub = await call('POST', '/api/subscriptions', {
      customerId: registered.json.id,
      priceId: price.json.id,
      paymentMethodId: cards.json.data[0].id,
    });
    expect(sub.status, sub.text).toBe(201);
    expect(sub.json).toMatchObject({ billingCycle: 1, testClockId: clock.json.id });

    // Two periods at most per advance: one month and an hour, then two more months.
    const hour = 3_600_000;
    const periodEnds = [1, 3].map((n) =>
      new Date(Date.parse(periodEnd(frozenTime, 'month', 1, n)) + hour).toISOString(),
    );
    for (const to of periodEnds) {
      const advanced = await call('POST', `/api/test-helpers/test-clocks/${clock.json.id}/advance`, {
        frozenTime: to,
      });
      expect(advanced.status, advanced.text).toBe(200);
      expect(advanced.json).toMatchObject({ frozenTime: to, status: 'ready' });
    }
    expect((await call('GET', `/api/subscriptions/${sub.json.id}`)).json).toMatchObject({
      status: 'active',
      billingCycle: 4,
    });
    const renewed = await until('three renewal webhooks', async () => {
      const listed = await call('GET', `/api/webhook-endpoints/${endpoint.json.id}/deliveries?limit=20`);
      const done = listed.json.data.filter(
        (d: any) => d.event === 'subscription.renewed' && d.status === 'succeeded',
      );
      return done.length === 3 ? done : undefined;
    });
    expect(renewed).toHaveLength(3);
  });
});
