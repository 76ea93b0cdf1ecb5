import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { Receiver } from '../support/receiver';
import { client, logLines, startTestRuntime } from '../support/runtime';
import { freshRateWindow } from '../support/service-trips';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let receiver: Receiver;
let sellerId: number;
let dashboard: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = client(runtime.baseUrl);
  receiver = await new Receiver().start();
  sellerId = runtime.devCredentials?.sellerId as number;
  dashboard = await runtime.issuer.sign(sellerId);
});
afterAll(async () => {
  await receiver?.stop();
  await runtime?.stop();
});

async function newKey(environment: 'test' | 'live', token = dashboard, name = `k-${Math.random()}`) {
  const res = await api.post('/api/api-keys', { name, environment }, { token });
  expect(res.status).toBe(201);
  return res.body as { id: string; key: string; keyPreview: string };
}

let nextSeller = 70_000;
/** A key of a seller nobody else uses, so its lists hold only what the test made. */
async function freshSellerKey() {
  return newKey('test', await runtime.issuer.sign(nextSeller++));
}

/** Starts a fresh rate window so that a test's 100 requests all fall in one minute. */
const freshWindow = () => freshRateWindow(runtime, api);

const endpoints = '/api/webhook-endpoints';

describe('the 401 answers', () => {
  it('says an API key is required when the header is missing', async () => {
    const res = await api.get(endpoints);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('API key is required');
  });

  it('refuses a key sent without the Bearer prefix', async () => {
    const { key } = await newKey('test');
    const res = await api.get(endpoints, { headers: { authorization: key } });
    expect(res).toMatchObject({ status: 401, body: { code: 'authorization_scheme' } });
  });

  it('refuses an unknown key and a malformed key', async () => {
    const unknown = `sk_test_${'A'.repeat(40)}`;
    for (const token of [
      unknown,
      'sk_test_short',
      'sk_prod_abcdefabcdefabcdefabcdefabcdefabcdef',
      'garbage',
    ]) {
      const res = await api.get(endpoints, { token });
      expect(res.status, token).toBe(401);
      expect(res.body.message).toBe('Unauthorized');
    }
  });

  it('refuses a revoked key on the very next request', async () => {
    const { id, key } = await newKey('test');
    expect((await api.get(endpoints, { token: key })).status).toBe(200);
    const revoked = await api.del(`/api/api-keys/${id}`, { token: dashboard });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    expect((await api.get(endpoints, { token: key })).status).toBe(401);
  });

  it('refuses expired, tampered and foreign dashboard tokens', async () => {
    const expired = await runtime.issuer.sign(sellerId, {
      now: new Date(Date.now() - 86_400_000),
      expiresInSeconds: 60,
    });
    const [header, payload, signature] = dashboard.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, 'custom:seller_id': '2' })).toString('base64url');
    const tampered = `${header}.${forged}.${signature}`;
    const accessToken = await runtime.issuer.sign(sellerId, { overrides: { token_use: 'access' } });
    for (const token of [expired, tampered, accessToken, `${dashboard}x`]) {
      const res = await api.get('/api/api-keys', { token });
      expect(res.status).toBe(401);
    }
  });

  it('refuses an API key on a dashboard-only route', async () => {
    const { key } = await newKey('test');
    const res = await api.get('/api/api-keys', { token: key });
    expect(res).toMatchObject({ status: 401, body: { code: 'credential_not_accepted' } });
  });
});

describe('API keys', () => {
  it('shows the full key once and lists only previews', async () => {
    const created = await newKey('live', dashboard, 'billing server');
    expect(created.key).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);
    expect(created.keyPreview).toBe(`sk_live_…${created.key.slice(-4)}`);
    const list = await api.get('/api/api-keys?environment=live', { token: dashboard });
    expect(list.status).toBe(200);
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain('hash');
    expect(list.body.data.every((k: { environment: string }) => k.environment === 'live')).toBe(true);
    expect(list.body.data.find((k: { id: string }) => k.id === created.id)).toMatchObject({
      name: 'billing server',
      lastUsedAt: null,
      revokedAt: null,
    });
  });

  it('answers 409 for a duplicate name in the same environment, and allows it in the other', async () => {
    await newKey('test', dashboard, 'duplicated');
    const again = await api.post(
      '/api/api-keys',
      { name: 'duplicated', environment: 'test' },
      { token: dashboard },
    );
    expect(again.status).toBe(409);
    await newKey('live', dashboard, 'duplicated');
  });

  it('answers 400 for a bad body, naming the fields', async () => {
    const res = await api.post('/api/api-keys', { name: '', environment: 'prod' }, { token: dashboard });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(
      expect.arrayContaining([expect.stringMatching(/^name/), expect.stringMatching(/^environment/)]),
    );
  });

  it('records when a key was last used', async () => {
    const { id, key } = await newKey('test');
    await api.get(endpoints, { token: key });
    const list = await api.get('/api/api-keys?environment=test', { token: dashboard });
    expect(list.body.data.find((k: { id: string }) => k.id === id).lastUsedAt).toEqual(expect.any(String));
  });

  it('answers 404 when revoking a key of another seller', async () => {
    const { id } = await newKey('test');
    const other = await runtime.issuer.sign(sellerId + 500);
    expect((await api.del(`/api/api-keys/${id}`, { token: other })).status).toBe(404);
  });
});

describe('credentials on real time', () => {
  it('keeps dashboard tokens and API keys valid while the test clock moves a month', async () => {
    const credentials = runtime.devCredentials as NonNullable<Runtime['devCredentials']>;
    const twelveHours = await runtime.issuer.sign(sellerId);
    const { key } = await newKey('test');
    await freshWindow();
    expect((await api.post('/api/test-helpers/clock/advance', { seconds: 31 * 86_400 })).status).toBe(200);

    for (const token of [twelveHours, credentials.dashboardToken]) {
      expect((await api.get('/api/api-keys', { token })).status).toBe(200);
    }
    expect((await api.get(endpoints, { token: key })).status).toBe(200);
    expect((await api.get(endpoints, { token: credentials.apiKey })).status).toBe(200);
  });

  it('dates a key by real time: made after the clock moved, it is not made in the future', async () => {
    await api.post('/api/test-helpers/clock/advance', { seconds: 86_400 });
    const business = Date.parse((await api.get('/api/test-helpers/clock')).body.now);
    const { id } = await newKey('test');
    const list = await api.get('/api/api-keys?environment=test', { token: dashboard });
    const made = list.body.data.find((k: { id: string }) => k.id === id);
    expect(Date.parse(made.createdAt)).toBeLessThan(business - 23 * 3_600_000);
  });

  it('still expires a dashboard token at its exp, on real time', async () => {
    const expired = await runtime.issuer.sign(sellerId, {
      now: new Date(Date.now() - 13 * 3_600_000),
      expiresInSeconds: 12 * 3_600,
    });
    expect((await api.get('/api/api-keys', { token: expired })).status).toBe(401);
  });
});

describe('tenants', () => {
  it('hides a test-mode resource from the live key of the same seller, and the reverse', async () => {
    const test = await newKey('test');
    const live = await newKey('live');
    const created = await api.post(endpoints, { url: receiver.url, events: ['*'] }, { token: test.key });
    expect(created.status).toBe(201);
    const path = `${endpoints}/${created.body.id}`;
    expect((await api.get(path, { token: test.key })).status).toBe(200);
    const asLive = await api.get(path, { token: live.key });
    expect(asLive.status).toBe(404);
    expect((await api.get(path, { token: dashboard })).status).toBe(404);
    expect((await api.get(path, { token: dashboard, headers: { 'x-environment': 'test' } })).status).toBe(
      200,
    );
    const otherSeller = await runtime.issuer.sign(sellerId + 1000);
    const foreign = await api.get(path, { token: otherSeller, headers: { 'x-environment': 'test' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(asLive.body.message);
  });
});

describe('rate limit', () => {
  it('answers request 101 of a minute with 429 in Portuguese, and the window resets a minute later', async () => {
    const { key } = await newKey('test');
    await freshWindow();
    for (let i = 1; i <= 100; i++) {
      const res = await api.get(endpoints, { token: key });
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(100 - i));
    }
    const limited = await api.get(endpoints, { token: key });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/muitas tentativas/i);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('100');
    runtime.wallClock.skew(60);
    const after = await api.get(endpoints, { token: key });
    expect(after.status).toBe(200);
    expect(after.headers.get('x-ratelimit-remaining')).toBe('99');
  });

  it('counts on real time: advancing the test clock does not start a new window', async () => {
    const { key } = await newKey('test');
    await freshWindow();
    for (let i = 0; i < 100; i++) await api.get(endpoints, { token: key });
    expect((await api.post('/api/test-helpers/clock/advance', { seconds: 3_600 })).status).toBe(200);
    const limited = await api.get(endpoints, { token: key });
    expect(limited.status).toBe(429);
  });

  it('counts the keys of different sellers on their own', async () => {
    const a = await freshSellerKey();
    const b = await freshSellerKey();
    await freshWindow();
    for (let i = 0; i < 100; i++) await api.get(endpoints, { token: a.key });
    expect((await api.get(endpoints, { token: a.key })).status).toBe(429);
    expect((await api.get(endpoints, { token: b.key })).status).toBe(200);
  });

  it('starts a new count after an idle gap of two minutes', async () => {
    const { key } = await newKey('test');
    await freshWindow();
    for (let i = 0; i < 100; i++) await api.get(endpoints, { token: key });
    runtime.wallClock.skew(120);
    const res = await api.get(endpoints, { token: key });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('99');
  });
});

describe('idempotency', () => {
  const body = () => ({ url: receiver.url, events: ['product.created'] });

  it('replays the first answer for the same key and body without running again', async () => {
    const { key } = await freshSellerKey();
    const headers = { 'x-idempotency-key': `idem-${Math.random()}` };
    const first = await api.post(endpoints, body(), { token: key, headers });
    const second = await api.post(endpoints, body(), { token: key, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const list = await api.get(endpoints, { token: key });
    expect(list.body.data).toHaveLength(1);
  });

  it('answers 422 when the key is reused with another body', async () => {
    const { key } = await freshSellerKey();
    const headers = { 'x-idempotency-key': `idem-${Math.random()}` };
    await api.post(endpoints, body(), { token: key, headers });
    const other = await api.post(endpoints, { ...body(), description: 'other' }, { token: key, headers });
    expect(other.status).toBe(422);
    expect(other.body.message).toMatch(/other parameters/);
  });

  it('makes one resource out of 50 concurrent identical requests', async () => {
    const { key } = await freshSellerKey();
    const headers = { 'x-idempotency-key': `idem-${Math.random()}` };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => api.post(endpoints, body(), { token: key, headers })),
    );
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].every((s) => s === 201 || s === 409)).toBe(true);
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id));
    expect(ids.size).toBe(1);
    // How many arrive while the first still runs depends on timing; each of them says so.
    const inProgress = answers.filter((a) => a.status === 409).map((a) => String(a.body.message));
    expect(inProgress).toEqual(inProgress.map(() => expect.stringMatching(/still being processed/)));
    const list = await api.get(endpoints, { token: key });
    expect(list.body.data).toHaveLength(1);
  });

  it('does not pin the key when the request failed with a 5xx', async () => {
    const { key } = await freshSellerKey();
    const headers = { 'x-idempotency-key': `idem-${Math.random()}` };
    const repo = runtime.deps.repos.webhookEndpoints;
    const create = repo.create;
    repo.create = async () => {
      throw new Error('simulated outage');
    };
    const failed = await api.post(endpoints, body(), { token: key, headers });
    repo.create = create;
    expect(failed.status).toBe(500);
    expect(failed.body.message).toBe('Internal server error');
    const retried = await api.post(endpoints, body(), { token: key, headers });
    expect(retried.status).toBe(201);
  });

  it('scopes keys to the tenant', async () => {
    const a = await newKey('test');
    const b = await newKey('live');
    const headers = { 'x-idempotency-key': 'shared-key-between-tenants' };
    const first = await api.post(endpoints, body(), { token: a.key, headers });
    const second = await api.post(endpoints, body(), { token: b.key, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
  });
});

describe('secrets', () => {
  it('never writes keys, tokens or webhook secrets to the logs', async () => {
    const { key } = await newKey('test');
    const created = await api.post(endpoints, { url: receiver.url, events: ['*'] }, { token: key });
    await api.get(endpoints, { token: `sk_test_${'Z'.repeat(40)}` });
    const logs = logLines.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [key, dashboard, created.body.secret, runtime.devCredentials?.apiKey as string]) {
      expect(logs).not.toContain(secret);
    }
    expect(logs).not.toMatch(/sk_test_[0-9A-Za-z]{20,}/);
  });
});

describe('permissions', () => {
  it('lets a read-only key read and answers 403 Insufficient permissions to its writes', async () => {
    const created = await api.post(
      '/api/api-keys',
      { name: `ro-${Math.random()}`, environment: 'test', permissions: 'read' },
      { token: dashboard },
    );
    expect(created.status).toBe(201);
    expect(created.body.permissions).toBe('read');
    const key = created.body.key as string;
    expect((await api.get(endpoints, { token: key })).status).toBe(200);
    const write = await api.post(endpoints, { url: receiver.url, events: ['*'] }, { token: key });
    expect(write).toMatchObject({ status: 403, body: { message: 'Insufficient permissions' } });
  });
});
