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
  });
});

async function createProduct(key: string, body: Record<string, unknown> = {}) {
  const res = await api.post(
    '/api/products',
    { name: 'Curso de Violão', image: 'https://cdn.example.com/v.png', value: 49.9, ...body },
    { token: key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; uuid: string };
}

describe('DELETE /api/products/{id}/portal-config', () => {
  it('answers 200 whether or not the product had a configuration, and 404 only for an unknown product', async () => {
    const { key } = await freshSeller();
    const product = await createProduct(key);
    const path = `/api/products/${product.uuid}/portal-config`;
    const none = await api.del(path, { token: key });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ productId: product.id, deleted: false });
    expect((await api.post(path, { businessName: 'Loja' }, { token: key })).status).toBe(200);
    const removed = await api.del(`/api/products/${product.id}/portal-config`, { token: key });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ productId: product.id, deleted: true });
    expect((await api.get(path, { token: key })).body).toBeNull();
    expect((await api.del(path, { token: key })).body.deleted).toBe(false);
    const other = await freshSeller();
    const foreign = await api.del(path, { token: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Product not found');
  });
});
