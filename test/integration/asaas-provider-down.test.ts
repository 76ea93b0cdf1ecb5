import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { type AsaasLive, connectAsaas, LIVE_CUSTOMER, liveKeyOf, useAsaasLive } from '../support/asaas-live';
import type { FakeAsaas } from '../support/fake-asaas/server';
import { type client, nextRateWindow } from '../support/runtime';

/** Asaas down: the circuit opens, live sales are refused before anything is written, health says so. */

let live: AsaasLive;
let fake: FakeAsaas;
let runtime: Runtime;
let api: ReturnType<typeof client>;
let nextSeller = 340_000;

/** Every item the service writes, by partition and sort key, while `writes` is being kept. */
let writes: string[] | null = null;
useAsaasLive((l) => {
  live = l;
  ({ fake, runtime, api } = l);
  runtime.deps.table.client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, any>;
      const name = String(context.commandName);
      if (writes && /Put|Update|Delete|Write/.test(name)) {
        const keys = input.TransactItems
          ? input.TransactItems.map((t: any) => Object.values(t)[0] as any)
          : [input];
        for (const k of keys) {
          const key = k.Key ?? k.Item;
          writes.push(`${name} ${key?.pk?.S ?? key?.pk} ${key?.sk?.S ?? key?.sk}`);
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'testWrites' },
  );
});

async function connectedSeller() {
  await nextRateWindow(runtime, api);
  const sellerId = nextSeller++;
  const { jwt, key } = await liveKeyOf(live, sellerId);
  expect((await connectAsaas(live, jwt)).status).toBe(200);
  const product = (
    await api.post(
      '/api/products',
      { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100 },
      { token: key },
    )
  ).body;
  return { key, product };
}

const pixSale = (productUuid: string) =>
  api.post('/api/transactions', {
    productId: productUuid,
    paymentMethod: 'pix',
    customer: { ...LIVE_CUSTOMER, document: '52998224725' },
  });

/** The circuit opened: a live sale is 503 provider_unavailable, reaches no provider and writes no record. */
async function expectRefusedWithoutTrace(s: { key: string; product: { uuid: string } }) {
  const listed = async () => (await api.get('/api/transactions', { token: s.key })).body.data.length;
  const before = { requests: fake.requests.length, transactions: await listed() };
  writes = [];
  const refused = await pixSale(s.product.uuid);
  const written = writes;
  writes = null;
  expect(refused.status, JSON.stringify(refused.body)).toBe(503);
  expect(refused.body).toMatchObject({ statusCode: 503, code: 'provider_unavailable' });
  expect(refused.headers.get('retry-after')).toBe('30');
  expect(fake.requests.length).toBe(before.requests);
  // Only the public route's rate counters move: no transaction, customer, link or reservation (the
  // request log's drain of the seller's earlier reads, and an id block claimed ahead in the
  // background, may land meanwhile: neither is the sale's write).
  expect(written.filter((w) => !/ RATE#/.test(w) && !/#REQUESTS /.test(w) && !/ COUNTER /.test(w))).toEqual(
    [],
  );
  expect(await listed()).toBe(before.transactions);
}

async function expectGatewayDown(detail: string) {
  const gateway = await api.get('/api/health/gateway');
  expect(gateway.status).toBe(503);
  expect(gateway.body.checks.gateway).toMatchObject({
    status: 'unhealthy',
    provider: 'asaas',
    detail: `asaas: ${detail}`,
  });
  expect(gateway.body.checks.gateway.providers).toEqual([
    expect.objectContaining({ provider: 'sandbox', status: 'healthy', serves: 'test' }),
    expect.objectContaining({ provider: 'asaas', status: 'unhealthy', serves: 'live' }),
  ]);
  const overall = await api.get('/api/health');
  expect(overall.status).toBe(200);
  expect(overall.body.status).toBe('degraded');
}

/** The open period passes (real time, skewed); the next call is the probe, and it closes the circuit. */
async function recover(s: { product: { uuid: string } }) {
  fake.down(null);
  runtime.wallClock.skew(31);
  await nextRateWindow(runtime, api);
  const sale = await pixSale(s.product.uuid);
  expect(sale.status, JSON.stringify(sale.body)).toBe(201);
  const gateway = await api.get('/api/health/gateway');
  expect(gateway.status).toBe(200);
  expect(gateway.body.checks.gateway).toMatchObject({ status: 'healthy', provider: 'asaas' });
}

describe('Asaas answering 5xx', () => {
  it('opens the circuit after 3 failed calls, refuses live sales at once, and a probe closes it', async () => {
    const s = await connectedSeller();
    expect((await pixSale(s.product.uuid)).status).toBe(201);
    expect((await api.get('/api/health/gateway')).status).toBe(200);

    fake.down('error');
    for (let i = 0; i < 3; i++) {
      const failed = await pixSale(s.product.uuid);
      expect(failed.status, JSON.stringify(failed.body)).toBe(503);
      expect(failed.body.code).toBe('provider_unavailable');
    }
    await expectRefusedWithoutTrace(s);
    const pings = fake.requests.length;
    await expectGatewayDown('circuit_open');
    // While open, health answers from the circuit: no ping reaches the provider.
    expect(fake.requests.length).toBe(pings);
    await recover(s);
  });
});

describe('Asaas hanging', () => {
  it('opens the circuit after 3 timeouts (the health pings, 3 s each) and refuses live sales at once', async () => {
    const s = await connectedSeller();
    fake.down('hang');
    for (let i = 0; i < 3; i++) {
      const check = await api.get('/api/health/gateway');
      expect(check.status).toBe(503);
      expect(check.body.checks.gateway.detail).toBe('asaas: timeout');
    }
    await expectRefusedWithoutTrace(s);
    await expectGatewayDown('circuit_open');
    await recover(s);
  }, 30_000);
});
