import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { client, startTestRuntime } from '../support/runtime';

// This file runs its own DynamoDB Local, so stopping it harms no other test.
let runtime: Runtime;

beforeAll(async () => {
  runtime = await startTestRuntime({ dynamoEndpoint: undefined });
});
afterAll(() => runtime?.stop());

it('answers /api/health/db with 503 within 5 seconds once DynamoDB Local is stopped', async () => {
  const api = client(runtime.baseUrl);
  expect((await api.get('/api/health/db')).status).toBe(200);
  await runtime.dynamo?.stop();
  const started = Date.now();
  const res = await api.get('/api/health/db');
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(res.status).toBe(503);
  expect(res.body).toMatchObject({ status: 'unhealthy', checks: { database: { status: 'unhealthy' } } });
  const overall = await api.get('/api/health');
  expect(overall.status).toBe(503);
  expect(overall.body.status).toBe('unhealthy');
});
