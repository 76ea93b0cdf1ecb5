import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { sellerFixtures } from '../support/fixtures';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 97_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

/**
 * The request log as `token` sees it once `count` entries match `pick` (a request shows when
 * the timeline drains its log line, a moment after the answer); bounded, never a sleep.
 */
async function logged(token: string, pick: (e: any) => boolean, count = 1, query = '') {
  for (let tries = 0; tries < 200; tries++) {
    await runtime.timeline.tick();
    const page = await api.get(`/api/request-logs?limit=100${query}`, { token });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const found = page.body.data.filter(pick);
    if (found.length >= count) return page.body.data as any[];
  }
  throw new Error('the request log never showed the request');
}

describe('GET /api/request-logs', () => {
  it("keeps a seller's API key and dashboard requests: route template, status, latency, idempotency key, nothing secret", async () => {
    const s = await fixtures.seller();
    const created = await api.post(
      '/api/products',
      { name: 'Curso', image: 'https://example.com/c.png', value: 49.9 },
      { token: s.key, headers: { 'x-idempotency-key': 'produto-curso-1' } },
    );
    expect(created.status).toBe(201);
    const missing = await api.get(`/api/products/999999?secret=${s.key}`, { token: s.key });
    expect(missing.status).toBe(404);
    await api.get('/api/products', { token: s.jwt, headers: { 'x-environment': 'test' } });

    const data = await logged(s.key, (e) => e.path === '/api/products' && e.method === 'GET');
    const post = data.find((e) => e.method === 'POST' && e.path === '/api/products');
    expect(post).toMatchObject({
      status: 201,
      idempotencyKey: 'produto-curso-1',
      environment: 'test',
      authenticatedWith: 'apiKey',
    });
    expect(post.latencyMs).toBeGreaterThanOrEqual(0);
    expect(data.find((e) => e.path === '/api/products/{id}')).toMatchObject({ status: 404, method: 'GET' });
    expect(data.find((e) => e.method === 'GET' && e.path === '/api/products')).toMatchObject({
      authenticatedWith: 'jwt',
    });
    // Newest first, and never a key, a token or a query string.
    const times = data.map((e) => e.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    const text = JSON.stringify(data);
    expect(text).not.toContain(s.key);
    expect(text).not.toContain(s.jwt);
    expect(text).not.toContain('secret=');
  });

  it('filters by status and method, and pages by cursor', async () => {
    const s = await fixtures.seller();
    for (let i = 0; i < 3; i++) await api.get('/api/products/999999', { token: s.key });
    await api.get('/api/products', { token: s.key });
    await logged(s.key, (e) => e.status === 404, 3);

    const notFound = await api.get('/api/request-logs?status=404&method=GET&limit=2', { token: s.key });
    expect(notFound.status).toBe(200);
    expect(notFound.body.data).toHaveLength(2);
    expect(notFound.body.data.every((e: any) => e.status === 404 && e.method === 'GET')).toBe(true);
    const next = await api.get(
      `/api/request-logs?status=404&method=GET&limit=2&cursor=${notFound.body.nextCursor}`,
      { token: s.key },
    );
    expect(next.body.data.map((e: any) => e.status)).toEqual([404]);
    expect(next.body.nextCursor).toBeNull();

    const bad = await api.get('/api/request-logs?status=42&method=TRACE', { token: s.key });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(
      expect.arrayContaining([expect.stringMatching(/^status /), expect.stringMatching(/^method /)]),
    );
  });

  it("shows another seller none of a seller's requests, and the live environment none of the sandbox's", async () => {
    const a = await fixtures.seller();
    const b = await fixtures.seller();
    await api.get('/api/products?mine=a', { token: a.key });
    await logged(a.key, (e) => e.path === '/api/products');
    await logged(a.key, () => true, 2);
    const live = await fixtures.apiKey(a.jwt, { environment: 'live', name: 'live' });

    const seenByB = await api.get('/api/request-logs?limit=100', { token: b.key });
    expect(seenByB.status).toBe(200);
    // b's own list reads only: nothing of a's.
    expect(seenByB.body.data.filter((e: any) => e.path !== '/api/request-logs')).toEqual([]);
    // The live key's list: the dashboard's own live requests (creating that key), none of the sandbox's.
    const seenLive = await api.get('/api/request-logs?limit=100', { token: live.key });
    expect(seenLive.status).toBe(200);
    expect(seenLive.body.data.map((e: any) => e.environment)).not.toContain('test');
    expect(seenLive.body.data.map((e: any) => e.path)).not.toContain('/api/products');
    // A cursor of a's partition names nothing for b: refused as a cursor, never a's page.
    const page = await api.get('/api/request-logs?limit=1', { token: a.key });
    const stolen = await api.get(`/api/request-logs?cursor=${page.body.nextCursor}`, { token: b.key });
    expect(stolen.status).toBe(400);
  });

  it('keeps no entry for an unauthenticated or refused request', async () => {
    const s = await fixtures.seller();
    await api.get('/api/products', { token: 'sk_test_notavalidkey000000000000' });
    await api.get('/api/health');
    await api.get('/api/products?after=refused', { token: s.key });
    const data = await logged(s.key, (e) => e.path === '/api/products');
    expect(data.filter((e) => e.path === '/api/products')).toHaveLength(1);
    expect(data.some((e) => e.path.startsWith('/api/health'))).toBe(false);
  });
});
