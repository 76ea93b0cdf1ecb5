import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../infra/local/runtime';
import pkg from '../../package.json' with { type: 'json' };
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

let nextSeller = 320_000;
/** A seller nobody else uses, with a sandbox API key. */
async function freshSeller() {
  const sellerId = nextSeller++;
  const jwt = await runtime.issuer.sign(sellerId);
  const res = await api.post('/api/api-keys', { name: `k-${sellerId}`, environment: 'test' }, { token: jwt });
  expect(res.status).toBe(201);
  return { sellerId, jwt, key: res.body.key as string };
}

const releaseParts = (v: string) => v.split('.').map(Number);

describe('the release number', () => {
  it('is the package version, at least 0.8.2, on /api/health and in the OpenAPI info', async () => {
    const [major, minor, patch] = releaseParts(pkg.version);
    expect(major * 1_000_000 + minor * 1_000 + patch).toBeGreaterThanOrEqual(8_002);
    const health = await api.get('/api/health');
    expect(health.body.version).toBe(pkg.version);
    expect((await api.get('/api/health/db')).body.version).toBe(pkg.version);
    const doc = await api.get('/api/openapi.json');
    expect(doc.body.info.version).toBe(pkg.version);
    expect(freshSeller).toBeTypeOf('function');
  });
});
