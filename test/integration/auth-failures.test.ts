import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { sellerFixtures } from '../support/fixtures';
import { type client, useTestRuntime } from '../support/runtime';
import { serviceTrips } from '../support/service-trips';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let tripsOf: ReturnType<typeof serviceTrips>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 320_000);

// Every test starts in a fresh minute (useTestRuntime moves both clocks 61 s on first).
useTestRuntime((r, a) => {
  runtime = r;
  api = a;
  tripsOf = serviceTrips(r);
});

/** Failed authentications one client address may make in a minute (docs/decisions.md). */
const LIMIT = 20;
const endpoints = '/api/webhook-endpoints';
const badKey = (i: number) => `sk_test_${String(i).padStart(40, 'Z')}`;

const seller = () => fixtures.seller();

async function failTimes(n: number, token: (i: number) => string = badKey) {
  for (let i = 0; i < n; i++) {
    const res = await api.get(endpoints, { token: token(i) });
    expect(res.status, `failure ${i + 1}: ${JSON.stringify(res.body)}`).toBe(401);
  }
}

describe('failed authentications per client address', () => {
  it(`answers 429 to every credential, a valid one too, after ${LIMIT} failures in a minute`, async () => {
    const s = await seller();
    await failTimes(LIMIT);
    const valid = await api.get(endpoints, { token: s.key });
    expect(valid.status).toBe(429);
    expect(valid.body).toMatchObject({ statusCode: 429, code: 'rate_limited' });
    expect(valid.body.message).toMatch(/muitas tentativas/i);
    const retryAfter = Number(valid.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await api.get('/api/api-keys', { token: s.jwt })).status).toBe(429);
    expect((await api.get(endpoints, { token: badKey(99) })).status).toBe(429);
  });

  it('refuses without a single round trip while the address is over the limit', async () => {
    const s = await seller();
    await failTimes(LIMIT);
    for (const token of [badKey(1), s.key, s.jwt, 'sk_live_short', 'a.b.c']) {
      const { trips, result } = await tripsOf(() => api.get(endpoints, { token }));
      expect(result.status).toBe(429);
      expect(trips, token).toBe(0);
    }
  });

  it('lets the address in again once the minute is over', async () => {
    const s = await seller();
    await failTimes(LIMIT);
    expect((await api.get(endpoints, { token: s.key })).status).toBe(429);
    // Failures count on real time, which the test clock does not move: a minute later they are gone.
    await api.post('/api/test-helpers/clock/advance', { seconds: 60 });
    expect((await api.get(endpoints, { token: s.key })).status).toBe(429);
    runtime.wallClock.skew(60);
    expect((await api.get(endpoints, { token: s.key })).status).toBe(200);
  });

  it('counts bad dashboard tokens and missing credentials as failures', async () => {
    const s = await seller();
    const expired = await runtime.issuer.sign(1, {
      now: new Date(Date.now() - 86_400_000),
      expiresInSeconds: 60,
    });
    for (let i = 0; i < LIMIT; i++) {
      const res =
        i % 2 === 0
          ? await api.get('/api/api-keys', { token: `${expired}` })
          : await api.get('/api/api-keys');
      expect(res.status, `failure ${i + 1}`).toBe(401);
    }
    expect((await api.get('/api/api-keys', { token: s.jwt })).status).toBe(429);
  });

  it('does not count successful authentications, and below the limit a valid key still works', async () => {
    const s = await seller();
    for (let i = 0; i < 50; i++) expect((await api.get(endpoints, { token: s.key })).status).toBe(200);
    await failTimes(LIMIT - 1);
    expect((await api.get(endpoints, { token: s.key })).status).toBe(200);
  });

  it('leaves public routes to their own per-address limit', async () => {
    const s = await seller();
    const product = await api.post(
      '/api/products',
      { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 10 },
      { token: s.key },
    );
    await failTimes(LIMIT);
    const page = await api.get(`/api/public/checkout/${product.body.uuid}`);
    expect(page.status).toBe(200);
  });
});
