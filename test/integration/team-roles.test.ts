import { beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { buyer, card } from '../support/checkout-fixtures';
import { type SellerScene, sellerFixtures } from '../support/fixtures';
import { type client, nextRateWindow, useTestRuntime } from '../support/runtime';

/** The team's roles as the API enforces them on dashboard tokens (DESIGN 9). */

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 372_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

interface User {
  id: string;
  email: string;
  homeSellerId: number;
  token: string;
}

let n = 0;
/** A dashboard user with a seller of their own (a verified e-mail, as a confirmed login has). */
async function user(name: string): Promise<User> {
  const homeSellerId = await runtime.deps.repos.sellers.create(`Loja de ${name}`, runtime.clock.now());
  const id = `user-${name}-${++n}-${Date.now()}`;
  const email = `${id}@example.com`;
  const token = await runtime.issuer.sign(homeSellerId, {
    now: runtime.clock.now(),
    subject: id,
    overrides: { email, email_verified: true },
  });
  return { id, email, homeSellerId, token };
}

/**
 * A user who signed up alone (a login record, as /api/auth/sign-up writes), with or without an
 * authenticator app: the live gate reads that record.
 */
async function signedUpUser(name: string, totp: boolean): Promise<User & { jwt: string; sellerId: number }> {
  const email = `${name}-${++n}-${Date.now()}@example.com`;
  const homeSellerId = await runtime.deps.sellerAccounts.register(
    { businessName: `Loja de ${name}`, document: '11222333000181', email },
    runtime.clock.now(),
  );
  if (totp) await runtime.deps.sellerAccounts.markTotpEnabled(homeSellerId, runtime.clock.now());
  const id = `user-${name}-${n}`;
  const token = await runtime.issuer.sign(homeSellerId, {
    now: runtime.clock.now(),
    subject: id,
    overrides: { email, email_verified: true },
  });
  return { id, email, homeSellerId, token, jwt: token, sellerId: homeSellerId };
}

/** Headers of a dashboard request acting on `sellerId`. */
const on = (sellerId: number) => ({ 'x-environment': 'test', 'x-seller-id': String(sellerId) });

function invitationToken(email: string): string {
  const mail = runtime.mailbox.all().find((m) => m.to === email && /Convite/.test(m.subject));
  const token = mail?.text.match(/#(inv_[0-9A-Za-z]+)/)?.[1];
  if (!token) throw new Error(`no invitation mailed to ${email}`);
  return token;
}

async function join(
  owner: Pick<SellerScene, 'jwt' | 'sellerId'>,
  member: User,
  role: string,
  sellerName = 'Loja do Dono',
) {
  const invited = await api.post(
    '/api/team/invitations',
    { email: member.email, role },
    {
      token: owner.jwt,
      headers: { 'x-environment': 'test' },
    },
  );
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const accepted = await api.post(
    '/api/team/invitations/accept',
    { token: invitationToken(member.email) },
    { token: member.token, headers: { 'x-environment': 'test' } },
  );
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  expect(accepted.body).toMatchObject({ sellerId: owner.sellerId, name: sellerName, role });
}

async function cardSale(productUuid: string) {
  const res = await api.post('/api/transactions', {
    productId: productUuid,
    paymentMethod: 'creditcard',
    customer: buyer,
    card: card('4111111111111111'),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number };
}

let owner: SellerScene<{ named: string; product: Record<string, never> }>;
let viewer: User;
let developer: User;
let admin: User;

beforeAll(async () => {
  await nextRateWindow(runtime, api);
  owner = await fixtures.seller({ named: 'Loja do Dono', product: {} });
  viewer = await user('viewer');
  developer = await user('developer');
  admin = await user('admin');
  await join(owner, viewer, 'viewer');
  await join(owner, developer, 'developer');
  await join(owner, admin, 'admin');
});

describe('roles on dashboard tokens', () => {
  it('lets a viewer read the seller but refuses a refund and a key creation with 403 role_forbidden', async () => {
    const sale = await cardSale(owner.product.uuid);
    const read = await api.get(`/api/transactions/${sale.id}`, {
      token: viewer.token,
      headers: on(owner.sellerId),
    });
    expect(read.status).toBe(200);
    const refund = await api.post(
      `/api/transactions/${sale.id}/refund`,
      {},
      {
        token: viewer.token,
        headers: on(owner.sellerId),
      },
    );
    expect(refund.status).toBe(403);
    expect(refund.body).toMatchObject({
      code: 'role_forbidden',
      message: 'Your role (viewer) cannot change data or move money',
    });
    const key = await api.post(
      '/api/api-keys',
      { name: 'CI', environment: 'test' },
      {
        token: viewer.token,
        headers: on(owner.sellerId),
      },
    );
    expect(key.status).toBe(403);
    expect(key.body.code).toBe('role_forbidden');
  });

  it('lets a developer create keys for the seller but not refund', async () => {
    const key = await api.post(
      '/api/api-keys',
      { name: 'Deploy', environment: 'test' },
      {
        token: developer.token,
        headers: on(owner.sellerId),
      },
    );
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const keys = await api.get('/api/api-keys', { token: owner.jwt, headers: { 'x-environment': 'test' } });
    expect(keys.body.data.map((k: { name: string }) => k.name)).toContain('Deploy');
    const sale = await cardSale(owner.product.uuid);
    const refund = await api.post(
      `/api/transactions/${sale.id}/refund`,
      {},
      {
        token: developer.token,
        headers: on(owner.sellerId),
      },
    );
    expect(refund.status).toBe(403);
    expect(refund.body.code).toBe('role_forbidden');
  });

  it('lets an admin refund and create keys', async () => {
    const sale = await cardSale(owner.product.uuid);
    const refund = await api.post(
      `/api/transactions/${sale.id}/refund`,
      {},
      {
        token: admin.token,
        headers: on(owner.sellerId),
      },
    );
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    const key = await api.post(
      '/api/api-keys',
      { name: 'Admin', environment: 'test' },
      {
        token: admin.token,
        headers: on(owner.sellerId),
      },
    );
    expect(key.status).toBe(201);
  });

  it('answers a seller the user is no member of with 404, as a missing one', async () => {
    const stranger = await user('stranger');
    const other = await api.get('/api/team', { token: admin.token, headers: on(stranger.homeSellerId) });
    const missing = await api.get('/api/team', { token: admin.token, headers: on(999_999_999) });
    expect(other.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(other.body.message).toBe(missing.body.message);
    expect(
      (await api.get('/api/team', { token: viewer.token, headers: { 'x-seller-id': 'abc' } })).status,
    ).toBe(400);
  });

  it('lists the sellers a user belongs to, their own first', async () => {
    const res = await api.get('/api/auth/sellers', { token: viewer.token, headers: on(owner.sellerId) });
    expect(res.status).toBe(200);
    expect(res.body.sellers).toEqual([
      { id: viewer.homeSellerId, name: 'Loja de viewer', role: 'owner', home: true },
      { id: owner.sellerId, name: 'Loja do Dono', role: 'viewer', home: false },
    ]);
  });
});

describe('the live gate', () => {
  const liveKey = (token: string, sellerId: number) =>
    api.post(
      '/api/api-keys',
      { name: 'Produção', environment: 'live' },
      { token, headers: { 'x-environment': 'live', 'x-seller-id': String(sellerId) } },
    );
  const connectAsaas = (token: string, sellerId: number) =>
    api.call('PUT', '/api/provider-connections/asaas', {
      token,
      headers: { 'x-seller-id': String(sellerId) },
      body: { apiKey: `$aact_${'x'.repeat(30)}`, environment: 'sandbox' },
    });

  it('reads the second factor of the acting member, not of the signing-up login', async () => {
    // An owner without an authenticator; their admin has one and acts live on the seller.
    const plainOwner = await signedUpUser('dono-sem-2fa', false);
    const securedAdmin = await signedUpUser('admin-com-2fa', true);
    await join(plainOwner, securedAdmin, 'admin', 'Loja de dono-sem-2fa');
    const ownerKey = await liveKey(plainOwner.jwt, plainOwner.sellerId);
    expect(ownerKey).toMatchObject({ status: 403, body: { code: 'second_factor_required' } });
    const adminKey = await liveKey(securedAdmin.token, plainOwner.sellerId);
    expect(adminKey.status, JSON.stringify(adminKey.body)).toBe(201);
    expect(adminKey.body.key).toMatch(/^sk_live_/);

    // An owner with an authenticator; their admin has none and is refused live actions.
    const securedOwner = await signedUpUser('dono-com-2fa', true);
    const plainAdmin = await signedUpUser('admin-sem-2fa', false);
    await join(securedOwner, plainAdmin, 'admin', 'Loja de dono-com-2fa');
    const refused = await liveKey(plainAdmin.token, securedOwner.sellerId);
    expect(refused).toMatchObject({ status: 403, body: { code: 'second_factor_required' } });
    const asaas = await connectAsaas(plainAdmin.token, securedOwner.sellerId);
    expect(asaas).toMatchObject({ status: 403, body: { code: 'second_factor_required' } });
    // A test key needs no second factor; the owner's own live key passes the gate.
    const testKey = await api.post(
      '/api/api-keys',
      { name: 'Sandbox', environment: 'test' },
      { token: plainAdmin.token, headers: on(securedOwner.sellerId) },
    );
    expect(testKey.status).toBe(201);
    expect((await liveKey(securedOwner.jwt, securedOwner.sellerId)).status).toBe(201);
  });
});

describe('the team', () => {
  it('lists the members with their roles; an admin manages it, a viewer does not', async () => {
    const team = await api.get('/api/team', { token: viewer.token, headers: on(owner.sellerId) });
    expect(team.status).toBe(200);
    const roles = team.body.members.map((m: { email: string | null; role: string }) => [m.email, m.role]);
    expect(roles).toEqual(
      expect.arrayContaining([
        [viewer.email, 'viewer'],
        [developer.email, 'developer'],
        [admin.email, 'admin'],
      ]),
    );
    expect(team.body.members[0]).toMatchObject({ role: 'owner', accountOwner: true, you: false });
    const invite = await api.post(
      '/api/team/invitations',
      { email: 'x@example.com', role: 'viewer' },
      {
        token: viewer.token,
        headers: on(owner.sellerId),
      },
    );
    expect(invite.status).toBe(403);
    const asOwner = await api.post(
      '/api/team/invitations',
      { email: 'y@example.com', role: 'owner' },
      {
        token: admin.token,
        headers: on(owner.sellerId),
      },
    );
    expect(asOwner).toMatchObject({ status: 403, body: { message: 'Only an owner can invite an owner' } });
  });

  it('refuses an invitation accepted by another address, and a used one', async () => {
    const someone = await user('someone');
    const intruder = await user('intruder');
    await api.post(
      '/api/team/invitations',
      { email: someone.email, role: 'viewer' },
      {
        token: owner.jwt,
        headers: { 'x-environment': 'test' },
      },
    );
    const token = invitationToken(someone.email);
    const wrong = await api.post('/api/team/invitations/accept', { token }, { token: intruder.token });
    expect(wrong.status).toBe(403);
    expect((await api.post('/api/team/invitations/accept', { token }, { token: someone.token })).status).toBe(
      200,
    );
    const again = await api.post('/api/team/invitations/accept', { token }, { token: someone.token });
    expect(again).toMatchObject({ status: 400, body: { code: 'invitation_invalid' } });
  });

  it('removes a member, who then finds the seller missing; an owner is never removed and the account owner cannot leave', async () => {
    const leaving = await user('leaving');
    await join(owner, leaving, 'viewer');
    const removed = await api.del(`/api/team/members/${leaving.id}`, {
      token: admin.token,
      headers: on(owner.sellerId),
    });
    expect(removed.status).toBe(204);
    expect((await api.get('/api/team', { token: leaving.token, headers: on(owner.sellerId) })).status).toBe(
      404,
    );

    const coOwner = await user('coowner');
    await join(owner, coOwner, 'owner');
    const refused = await api.del(`/api/team/members/${coOwner.id}`, {
      token: admin.token,
      headers: on(owner.sellerId),
    });
    expect(refused).toMatchObject({ status: 409, body: { code: 'owner_cannot_be_removed' } });
    const leave = await api.post(
      '/api/team/leave',
      {},
      { token: owner.jwt, headers: { 'x-environment': 'test' } },
    );
    expect(leave).toMatchObject({ status: 409, body: { code: 'last_owner_cannot_leave' } });
    const coLeaves = await api.post(
      '/api/team/leave',
      {},
      { token: coOwner.token, headers: on(owner.sellerId) },
    );
    expect(coLeaves.status).toBe(204);
  });
});

describe('the business profile', () => {
  it('takes a name, an https logo and a hex colour, and names the field it refuses', async () => {
    const headers = { 'x-environment': 'test' };
    const bad = await api.call('PUT', '/api/seller/profile', {
      body: { name: 'Loja', logoUrl: 'http://x.example/l.png', brandColor: 'red' },
      token: owner.jwt,
      headers,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(
      expect.arrayContaining([expect.stringMatching(/^logoUrl/), expect.stringMatching(/^brandColor/)]),
    );
    const ok = await api.call('PUT', '/api/seller/profile', {
      body: { name: 'Loja do Dono', logoUrl: 'https://cdn.example/logo.png', brandColor: '#FFD400' },
      token: owner.jwt,
      headers,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ brandColor: '#ffd400', logoUrl: 'https://cdn.example/logo.png' });
    expect(ok.body.contrastOnWhite).toBeLessThan(4.5);
    const byViewer = await api.call('PUT', '/api/seller/profile', {
      body: { name: 'X', logoUrl: null, brandColor: null },
      token: viewer.token,
      headers: on(owner.sellerId),
    });
    expect(byViewer.status).toBe(403);
  });
});
