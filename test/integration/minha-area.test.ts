import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { customerAreaScene } from '../support/customer-area';
import { type client, logLines, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const request = '/api/public/minha-area/request';
/** Moves the test clock to a fresh rate window when fewer than `needSeconds` of this one are left. */
async function freshRateWindow(needSeconds: number, windowSeconds = 60) {
  const inWindow = (runtime.clock.now().getTime() / 1000) % windowSeconds;
  const left = windowSeconds - inWindow;
  if (left < needSeconds) await api.post('/api/test-helpers/clock/advance', { seconds: Math.ceil(left) + 1 });
}

const area = customerAreaScene(() => ({ runtime, api }), 151_000);
const { newCpf, seller } = area;
const customer = (token: string, document: string, email: string) =>
  area.customer(token, document, email, 'Marina Lopes');
const masked = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

const linksTo = (email: string) =>
  runtime.mailbox.all().filter((m) => m.to === email.toLowerCase() && m.kind === 'magic_link');
const tokenOf = (text: string) => /\/minha-area#token=([A-Za-z0-9._-]+)/.exec(text)?.[1];

describe('POST /api/public/minha-area/request', () => {
  it('answers the same shape for a customer and for nobody, and mails only the customer', async () => {
    const s = await seller();
    const cpf = newCpf();
    const email = `marina.${cpf}@example.com`;
    await customer(s.key, cpf, email);

    const known = await api.post(request, { document: masked(cpf) });
    const unknown = await api.post(request, { document: newCpf() });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(Object.keys(known.body)).toEqual(Object.keys(unknown.body));
    expect(known.body).toEqual({ maskedEmail: `m***@example.com` });
    expect(unknown.body).toEqual({ maskedEmail: null });

    const mails = linksTo(email);
    expect(mails).toHaveLength(1);
    // A sandbox customer's link is kept, never sent, and says it is a sandbox link.
    expect(mails[0].subject).toContain('[Sandbox]');
    const token = tokenOf(mails[0].text);
    expect(token).toBeDefined();
    expect(mails[0].text).toContain(`${runtime.baseUrl}/minha-area#token=`);
    // The JWT is encrypted: the CPF is not readable from the link, and no log line holds the token.
    expect(Buffer.from(String(token).split('.')[0], 'base64url').toString()).not.toContain(cpf);
    expect(logLines.some((line) => line.includes(String(token)))).toBe(false);
  });

  it('finds a customer by the e-mail it was registered with, in any letter case', async () => {
    const s = await seller();
    const cpf = newCpf();
    const email = `Ana.${cpf}@Example.com`;
    await customer(s.jwt, cpf, email);
    const res = await api.post(request, { email: email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ maskedEmail: 'a***@example.com' });
    const mails = linksTo(email);
    expect(mails).toHaveLength(1);
    // A live customer's link is a live one (sent through the platform's mailer on AWS).
    expect(mails[0].subject).not.toContain('[Sandbox]');
    expect(mails[0].tenant).toBeNull();
  });

  it('sends one link per environment when the document is a customer in both', async () => {
    const s = await seller();
    const cpf = newCpf();
    const email = `dupla.${cpf}@example.com`;
    await customer(s.key, cpf, email);
    await customer(s.jwt, cpf, email);
    expect((await api.post(request, { document: cpf })).body).toEqual({ maskedEmail: 'd***@example.com' });
    const subjects = linksTo(email).map((m) => m.subject.startsWith('[Sandbox]'));
    expect(subjects.sort()).toEqual([false, true]);
  });

  it('answers 400 naming the field for a missing, doubled or invalid identifier', async () => {
    for (const body of [{}, { email: 'a@example.com', document: newCpf() }, { email: 'não é e-mail' }]) {
      const res = await api.post(request, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body.message)).toContain('email');
    }
    const res = await api.post(request, { document: '111.111.111-11' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.message)).toContain('document');
  });

  it('limits requests per target (429 in Portuguese), whatever the answer would be', async () => {
    await freshRateWindow(15, 600);
    const cpf = newCpf();
    for (let i = 0; i < 5; i++) expect((await api.post(request, { document: cpf })).status).toBe(200);
    const limited = await api.post(request, { document: masked(cpf) });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/Muitas tentativas/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another target from the same client is still answered.
    expect((await api.post(request, { document: newCpf() })).status).toBe(200);
  });

  it('limits requests per client IP', async () => {
    // Eleven paced answers (800 ms each) must fall in one rate window: start at a fresh one.
    await freshRateWindow(20);
    for (let i = 0; i < 10; i++) expect((await api.post(request, { document: newCpf() })).status).toBe(200);
    const limited = await api.post(request, { document: newCpf() });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/Muitas tentativas/);
    await api.post('/api/test-helpers/clock/advance', { seconds: 61 });
    expect((await api.post(request, { document: newCpf() })).status).toBe(200);
  });
});
