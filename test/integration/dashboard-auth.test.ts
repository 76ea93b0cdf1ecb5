import { generate } from 'otplib';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { type Call, type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});
// The identity limits count 15-minute windows of real time: each test starts in a fresh one.
beforeEach(() => runtime.wallClock.skew(901));

const PASSWORD = 'Correct-Horse-42';
let n = 0;
const newEmail = () => `loja${++n}-${Date.now()}@example.com.br`;

/** The 6 digits of the newest message to `to` whose subject says `subject`. */
function codeIn(to: string, subject: RegExp): string {
  const mail = runtime.mailbox.all().find((m) => m.to === to && subject.test(m.subject));
  const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

/** The ps_refresh cookie a response set, as a browser would send it back. */
function sessionCookie(res: Call): string {
  const set = res.headers.get('set-cookie') ?? '';
  const value = /ps_refresh=([^;]*)/.exec(set)?.[1];
  if (!value) throw new Error(`no session cookie in ${set}`);
  return `ps_refresh=${value}`;
}

/** The authenticator's code on the runtime's wall clock (which the tests skew). */
const totpNow = (secret: string) =>
  generate({ secret, epoch: Math.floor(runtime.wallClock.now().getTime() / 1000) });

async function signUp(email = newEmail()) {
  const res = await api.post('/api/auth/sign-up', {
    email,
    password: PASSWORD,
    businessName: 'Loja da Ana',
    document: '111.444.777-35',
  });
  expect(res.status).toBe(202);
  return email;
}

async function signedUp() {
  const email = await signUp();
  const confirmed = await api.post('/api/auth/confirm', { email, code: codeIn(email, /Confirme/) });
  expect(confirmed).toMatchObject({ status: 200, body: { confirmed: true } });
  return email;
}

async function logIn(email: string, password = PASSWORD) {
  const res = await api.post('/api/auth/login', { email, password });
  expect(res.status).toBe(200);
  return { idToken: res.body.idToken as string, cookie: sessionCookie(res), res };
}

describe('sign-up, confirmation and login', () => {
  it('takes a new seller from sign-up to a working sandbox API key', async () => {
    const email = await signUp();
    // Not confirmed yet: the right password says so, and nothing else does.
    const early = await api.post('/api/auth/login', { email, password: PASSWORD });
    expect(early).toMatchObject({ status: 403, body: { code: 'email_not_confirmed' } });

    const wrong = await api.post('/api/auth/confirm', { email, code: '000000' });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'invalid_code' } });
    expect((await api.post('/api/auth/confirm', { email, code: codeIn(email, /Confirme/) })).status).toBe(
      200,
    );

    const { idToken, res } = await logIn(email);
    expect(res.body.expiresIn).toBe(3600);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api\/auth(;|$)/);
    expect(JSON.stringify(res.body)).not.toContain('lrt_');

    const key = await api.post(
      '/api/api-keys',
      { name: 'Primeira chave', environment: 'test' },
      { token: idToken, headers: { 'x-environment': 'test' } },
    );
    expect(key.status).toBe(201);
    const product = await api.post(
      '/api/products',
      { name: 'Camiseta', image: 'https://cdn.example.com/c.png', value: 49.9 },
      { token: key.body.key },
    );
    expect(product.status).toBe(201);
    expect((await api.get(`/api/products/${product.body.id}`, { token: key.body.key })).status).toBe(200);
  });

  it('refuses a weak password and an invalid document, naming the field', async () => {
    const res = await api.post('/api/auth/sign-up', {
      email: newEmail(),
      password: 'short',
      businessName: 'Loja',
      document: '123',
    });
    expect(res.status).toBe(400);
    expect(res.body.message.join(' ')).toMatch(/password/);
    expect(res.body.message.join(' ')).toMatch(/document/);
  });

  it('answers a registered address exactly as a new one (sign-up, login, forgotten password)', async () => {
    const registered = await signedUp();
    const unknown = newEmail();
    const bodies = async (email: string) => {
      const signUpAgain = await api.post('/api/auth/sign-up', {
        email,
        password: PASSWORD,
        businessName: 'Outra',
        document: '11222333000181',
      });
      const login = await api.post('/api/auth/login', { email, password: 'Wrong-Password-1' });
      const forgot = await api.post('/api/auth/forgot-password', { email });
      const strip = (r: Call) => ({ status: r.status, code: r.body?.code, message: r.body?.message });
      return [strip(signUpAgain), strip(login), strip(forgot)];
    };
    const [a, b] = [await bodies(registered), await bodies(unknown)];
    expect(a).toEqual(b);
    expect(a[1]).toMatchObject({ status: 401, code: 'invalid_credentials' });
    // The owner of the registered address is told someone tried.
    expect(runtime.mailbox.all().some((m) => m.to === registered && /já tem uma conta/.test(m.subject))).toBe(
      true,
    );
  });
});

describe('sessions', () => {
  it('refreshes from the cookie, and logging out revokes it and clears the cookie', async () => {
    const email = await signedUp();
    const { cookie } = await logIn(email);
    const refreshed = await api.post('/api/auth/refresh', undefined, { headers: { cookie } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.idToken).toEqual(expect.any(String));
    const key = await api.post(
      '/api/api-keys',
      { name: 'via refresh', environment: 'test' },
      { token: refreshed.body.idToken },
    );
    expect(key.status).toBe(201);

    const out = await api.post('/api/auth/logout', undefined, { headers: { cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/ps_refresh=;.*Max-Age=0/);
    const after = await api.post('/api/auth/refresh', undefined, { headers: { cookie } });
    expect(after).toMatchObject({ status: 401, body: { code: 'session_invalid' } });
    expect((await api.post('/api/auth/refresh')).status).toBe(401);
  });

  it('resets a forgotten password with the mailed code, ending the old sessions', async () => {
    const email = await signedUp();
    const { cookie } = await logIn(email);
    expect((await api.post('/api/auth/forgot-password', { email })).status).toBe(202);
    const code = codeIn(email, /Redefinição/);
    const wrong = await api.post('/api/auth/reset-password', {
      email,
      code: '000000',
      password: 'New-Password-77',
    });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'invalid_code' } });
    const reset = await api.post('/api/auth/reset-password', { email, code, password: 'New-Password-77' });
    expect(reset).toMatchObject({ status: 200, body: { passwordReset: true } });
    // The code is spent.
    expect(
      (await api.post('/api/auth/reset-password', { email, code, password: 'Other-Pass-88' })).status,
    ).toBe(400);

    expect((await api.post('/api/auth/login', { email, password: PASSWORD })).status).toBe(401);
    await logIn(email, 'New-Password-77');
    expect((await api.post('/api/auth/refresh', undefined, { headers: { cookie } })).status).toBe(401);
  });

  it('changes the password of the signed-in seller only with the current one', async () => {
    const email = await signedUp();
    const { idToken, cookie } = await logIn(email);
    const wrong = await api.post(
      '/api/auth/change-password',
      { currentPassword: 'Not-The-One-1', newPassword: 'Changed-Pass-99' },
      { token: idToken, headers: { cookie } },
    );
    expect(wrong).toMatchObject({ status: 401, body: { code: 'invalid_credentials' } });
    const done = await api.post(
      '/api/auth/change-password',
      { currentPassword: PASSWORD, newPassword: 'Changed-Pass-99' },
      { token: idToken, headers: { cookie } },
    );
    expect(done.status).toBe(204);
    await logIn(email, 'Changed-Pass-99');
  });
});

describe('the second factor', () => {
  it('is set up with an authenticator code, then asked at login; live keys and Asaas wait for it', async () => {
    const email = await signedUp();
    const { idToken, cookie } = await logIn(email);
    const live = await api.post('/api/api-keys', { name: 'live', environment: 'live' }, { token: idToken });
    expect(live).toMatchObject({ status: 403, body: { code: 'second_factor_required' } });
    const asaas = await api.call('PUT', '/api/provider-connections/asaas', {
      token: idToken,
      body: { apiKey: `$aact_${'x'.repeat(30)}`, environment: 'sandbox' },
    });
    expect(asaas).toMatchObject({ status: 403, body: { code: 'second_factor_required' } });
    const sandbox = await api.post(
      '/api/api-keys',
      { name: 'test', environment: 'test' },
      { token: idToken },
    );
    expect(sandbox.status).toBe(201);

    const setup = await api.post('/api/auth/totp/setup', undefined, { token: idToken, headers: { cookie } });
    expect(setup.status).toBe(200);
    expect(setup.body.otpauthUri).toContain(setup.body.secret);
    const bad = await api.post(
      '/api/auth/totp/verify',
      { code: '000000' },
      { token: idToken, headers: { cookie } },
    );
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_code' } });
    const code = await totpNow(setup.body.secret);
    const verified = await api.post(
      '/api/auth/totp/verify',
      { code },
      { token: idToken, headers: { cookie } },
    );
    expect(verified).toMatchObject({ status: 200, body: { totpEnabled: true } });

    expect(
      (await api.post('/api/api-keys', { name: 'live', environment: 'live' }, { token: idToken })).status,
    ).toBe(201);

    const login = await api.post('/api/auth/login', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ challenge: 'totp', session: expect.any(String) });
    expect(login.headers.get('set-cookie')).toBeNull();
    // The code just used is good once.
    const reused = await api.post('/api/auth/login/totp', { email, session: login.body.session, code });
    expect(reused).toMatchObject({ status: 400, body: { code: 'invalid_code' } });
    runtime.wallClock.skew(30);
    const next = await totpNow(setup.body.secret);
    const answered = await api.post('/api/auth/login/totp', {
      email,
      session: login.body.session,
      code: next,
    });
    expect(answered.status).toBe(200);
    expect(answered.body.idToken).toEqual(expect.any(String));
    sessionCookie(answered);
  });

  it('refuses the setup routes with a cookie of another seller', async () => {
    const a = await logIn(await signedUp());
    const b = await logIn(await signedUp());
    const res = await api.post('/api/auth/totp/setup', undefined, {
      token: a.idToken,
      headers: { cookie: b.cookie },
    });
    expect(res).toMatchObject({ status: 401, body: { code: 'session_invalid' } });
  });
});

describe('the identity rate limits', () => {
  it('refuse the 11th call naming one address in 15 minutes, known or not', async () => {
    for (const email of [await signedUp(), newEmail()]) {
      runtime.wallClock.skew(901);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++)
        statuses.push((await api.post('/api/auth/login', { email, password: 'Wrong-Password-1' })).status);
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses[10]).toBe(429);
    }
  });

  it('refuse the 31st call of one client address in 15 minutes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await api.post('/api/auth/forgot-password', { email: newEmail() })).status);
    expect(statuses.slice(0, 30).every((s) => s === 202)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
