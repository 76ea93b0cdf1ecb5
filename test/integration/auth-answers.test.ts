import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { sellerFixtures } from '../support/fixtures';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 330_000);

// Every test starts in a fresh minute, so no test comes near a per-client limit of failures.
useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const keyRoute = '/api/webhook-endpoints';
const dashboardRoute = '/api/api-keys';
const keyOnlyRoute = '/api/v1/charges';

const seller = () => fixtures.seller();

const withHeader = (authorization: string) => ({ headers: { authorization } });

async function refusal(path: string, options: Parameters<typeof api.get>[1] = {}) {
  const res = await api.get(path, options);
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  return { code: res.body.code as string, message: res.body.message as string };
}

describe('what a 401 says', () => {
  it('names a missing header: the spec’s `API key is required` where keys are accepted', async () => {
    expect(await refusal(keyRoute)).toEqual({
      code: 'authorization_missing',
      message: 'API key is required',
    });
    expect(await refusal(keyRoute, withHeader('Bearer '))).toEqual({
      code: 'authorization_missing',
      message: 'API key is required',
    });
    expect(await refusal(dashboardRoute)).toEqual({
      code: 'authorization_missing',
      message: 'Authorization header is required',
    });
  });

  it('names a credential sent without the Bearer scheme, or with another one', async () => {
    const { key } = await seller();
    for (const header of [key, `Token ${key}`, `Basic ${key}`, `Bearer:${key}`]) {
      const answer = await refusal(keyRoute, withHeader(header));
      expect(answer.code, header).toBe('authorization_scheme');
      expect(answer.message).toMatch(/Bearer/);
    }
  });

  it('accepts the Bearer scheme in any case, and more than one space after it (RFC 7235)', async () => {
    const { key, jwt } = await seller();
    for (const header of [`bearer ${key}`, `BEARER ${key}`, `BeArEr   ${key}`, `bearer ${jwt}`]) {
      const res = await api.get(keyRoute, withHeader(header));
      expect(res.status, header).toBe(200);
    }
    expect((await api.get(dashboardRoute, withHeader(`bearer ${jwt}`))).status).toBe(200);
  });

  it('tells an unknown key (the spec’s `Unauthorized`) from a revoked one', async () => {
    const { jwt, key, keyId } = await seller();
    for (const token of [
      `sk_test_${'A'.repeat(40)}`,
      'sk_test_short',
      'sk_prod_abcdefabcdefabcdefabcdefabcdef',
    ]) {
      expect(await refusal(keyRoute, { token }), token).toEqual({
        code: 'api_key_invalid',
        message: 'Unauthorized',
      });
    }
    expect((await api.del(`/api/api-keys/${keyId}`, { token: jwt })).status).toBe(200);
    const revoked = await refusal(keyRoute, { token: key });
    expect(revoked.code).toBe('api_key_revoked');
    expect(revoked.message).toMatch(/revoked/);
  });

  it('tells an expired dashboard token from an invalid one', async () => {
    const { jwt } = await seller();
    const expired = await runtime.issuer.sign(fixtures.nextSellerId(), {
      now: new Date(Date.now() - 86_400_000),
      expiresInSeconds: 60,
    });
    const answer = await refusal(dashboardRoute, { token: expired });
    expect(answer.code).toBe('token_expired');
    expect(answer.message).toMatch(/expired/);
    const accessToken = await runtime.issuer.sign(fixtures.nextSellerId(), {
      overrides: { token_use: 'access' },
    });
    for (const token of [`${jwt}x`, accessToken, 'garbage']) {
      expect(await refusal(dashboardRoute, { token }), token).toEqual({
        code: 'token_invalid',
        message: 'Unauthorized',
      });
    }
  });

  it('says which credential a route takes when it gets the other kind', async () => {
    const { jwt, key } = await seller();
    const keyOnDashboard = await refusal(dashboardRoute, { token: key });
    expect(keyOnDashboard.code).toBe('credential_not_accepted');
    expect(keyOnDashboard.message).toMatch(/dashboard token/);
    const panel = await api.del('/api/transactions/1', { token: key });
    expect(panel).toMatchObject({ status: 401, body: { code: 'credential_not_accepted' } });
    const tokenOnKeyRoute = await refusal(keyOnlyRoute, { token: jwt });
    expect(tokenOnKeyRoute.code).toBe('credential_not_accepted');
    expect(tokenOnKeyRoute.message).toMatch(/API key/);
  });
});
