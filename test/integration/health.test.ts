import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../infra/local/runtime';
import { client, startTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  runtime = await startTestRuntime({ heartbeatIntervalSeconds: 300 });
  api = client(runtime.baseUrl);
});
afterAll(() => runtime?.stop());

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

  it('reports the gateway adapter', async () => {
    const res = await api.get('/api/health/gateway');
    expect(res.status).toBe(200);
    expect(res.body.checks.gateway).toMatchObject({ status: 'healthy', provider: 'sandbox' });
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
