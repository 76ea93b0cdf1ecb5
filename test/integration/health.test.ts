import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { type FakeAsaas, startFakeAsaas } from '../support/fake-asaas/server';
import { client, startTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
/** The provider serving live sales: the gateway check is healthy only while it answers. */
let asaas: FakeAsaas;

beforeAll(async () => {
  asaas = await startFakeAsaas();
  runtime = await startTestRuntime({ heartbeatIntervalSeconds: 300, asaasBaseUrl: asaas.baseUrl });
  api = client(runtime.baseUrl);
});
afterAll(async () => {
  await runtime?.stop();
  await asaas?.stop();
});

describe('health', () => {
  it('answers 200 healthy with every check', async () => {
    const res = await api.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('healthy');
    expect(Object.keys(res.body.checks).sort()).toEqual(['cron', 'database', 'gateway']);
  });

  it('reads the table for /api/health/db', async () => {
    const before = runtime.roundTrips.byCommand.GetItemCommand ?? 0;
    const res = await api.get('/api/health/db');
    expect(res.status).toBe(200);
    expect(res.body.checks.database.status).toBe('healthy');
    expect(runtime.roundTrips.byCommand.GetItemCommand).toBe(before + 1);
  });

  it('reports the live provider, with the sandbox apart', async () => {
    const res = await api.get('/api/health/gateway');
    expect(res.status).toBe(200);
    expect(res.body.checks.gateway).toMatchObject({ status: 'healthy', provider: 'asaas' });
    expect(res.body.checks.gateway.providers).toEqual([
      expect.objectContaining({ provider: 'sandbox', status: 'healthy', serves: 'test' }),
      expect.objectContaining({ provider: 'asaas', status: 'healthy', serves: 'live' }),
    ]);
  });

  it('answers the gateway 503 and the whole degraded while the live provider fails, the sandbox up', async () => {
    asaas.failNext({ status: 502 }, { status: 502 });
    const gateway = await api.get('/api/health/gateway');
    expect(gateway.status).toBe(503);
    expect(gateway.body.checks.gateway).toMatchObject({
      status: 'unhealthy',
      provider: 'asaas',
      detail: 'asaas: HTTP 502',
    });
    expect(gateway.body.checks.gateway.providers[0]).toMatchObject({
      provider: 'sandbox',
      status: 'healthy',
    });
    const overall = await api.get('/api/health');
    expect(overall.status).toBe(200);
    expect(overall.body.status).toBe('degraded');
    // Two failures, under the breaker's three: the next answer closes the count again.
    expect((await api.get('/api/health/gateway')).status).toBe(200);
  });

  it('keeps cron healthy while the heartbeat runs on its interval under the test clock', async () => {
    const advanced = await api.post('/api/test-helpers/clock/advance', { seconds: 3 * 300 });
    expect(advanced.status).toBe(200);
    const res = await api.get('/api/health/cron');
    expect(res.status).toBe(200);
    expect(res.body.checks.cron.ageSeconds).toBeLessThanOrEqual(300);
  });
});

describe('the local gateway', () => {
  it('answers an unknown path with 404 {statusCode, message}', async () => {
    const res = await api.get('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, message: expect.any(String) });
  });
});
