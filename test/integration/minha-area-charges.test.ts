import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { customerAreaScene } from '../support/customer-area';
import { type client, useTestRuntime } from '../support/runtime';
import { freshRateWindow, serviceTrips } from '../support/service-trips';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let tripsOf: ReturnType<typeof serviceTrips>;

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
  tripsOf = serviceTrips(r);
});

const CHARGES = '/api/public/minha-area/charges';
const { newCpf, seller, customer, charge, linkFor } = customerAreaScene(() => ({ runtime, api }), 152_000);

describe('GET /api/public/minha-area/charges', () => {
  it("lists the customer's charges with every seller, and never another customer's", async () => {
    const a = await seller();
    const b = await seller();
    const cpf = newCpf();
    const email = `paula.${cpf}@example.com`;
    const atA = await customer(a.key, cpf, email);
    const atB = await customer(b.key, cpf, email);
    await charge(a.key, atA.id, 120, 'Mensalidade março');
    await charge(b.key, atB.id, 80.5, 'Aula de violão');
    // Another customer of seller A, with a charge of its own.
    const otherCpf = newCpf();
    const otherEmail = `outro.${otherCpf}@example.com`;
    const other = await customer(a.key, otherCpf, otherEmail);
    await charge(a.key, other.id, 999, 'Outro cliente');

    const token = await linkFor(cpf, email);
    await freshRateWindow(runtime, api);
    const batchReads = runtime.roundTrips.byCommand.BatchGetItemCommand ?? 0;
    const { result: res, trips } = await tripsOf(() => api.get(CHARGES, { token }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The link and its rate count, the customer's sellers, both sellers' profiles in one BatchGetItem
    // (only those that registered the link's address count), then their names in another beside, per
    // seller, its charges (the index, each charge with its cycles) and its carnês: 4 + 2 × 3. Sellers
    // are read at the same time, not one after another.
    expect(trips).toBe(10);
    expect((runtime.roundTrips.byCommand.BatchGetItemCommand ?? 0) - batchReads).toBe(2);
    expect(res.body.customer).toEqual({ name: 'Paula Reis', environment: 'test' });
    const rows = res.body.data.map((r: any) => [r.sellerId, r.description, r.amount, r.status, r.open]);
    expect(rows).toEqual([
      [a.sellerId, 'Mensalidade março', 120, 'scheduled', true],
      [b.sellerId, 'Aula de violão', 80.5, 'scheduled', true],
    ]);
    for (const row of res.body.data) {
      expect(row.payUrl).toMatch(new RegExp(`^${runtime.baseUrl}/cobranca/`));
      expect(row.sellerName).toBeTruthy();
    }
    expect(res.body.sellers.map((s: any) => [s.sellerId, s.billingEmailOverride])).toEqual([
      [a.sellerId, null],
      [b.sellerId, null],
    ]);
    const override = await api.patch(
      '/api/public/minha-area/profile',
      { sellerId: b.sellerId, billingEmailOverride: 'financeiro@example.com' },
      { token },
    );
    expect(override.status).toBe(200);
    const after = await api.get(CHARGES, { token });
    expect(after.body.sellers.map((s: any) => s.billingEmailOverride)).toEqual([
      null,
      'financeiro@example.com',
    ]);

    const otherToken = await linkFor(otherCpf, otherEmail);
    const theirs = await api.get(CHARGES, { token: otherToken });
    expect(theirs.body.data.map((r: any) => r.description)).toEqual(['Outro cliente']);
  });

  it('shows only the environment the link was issued for', async () => {
    const a = await seller();
    const cpf = newCpf();
    const email = `amb.${cpf}@example.com`;
    const sandboxProfile = await customer(a.key, cpf, email);
    await charge(a.key, sandboxProfile.id, 50, 'Cobrança sandbox');
    await customer(a.jwt, cpf, email); // the same CPF, live, with no charge
    expect((await api.post('/api/public/minha-area/request', { document: cpf })).status).toBe(200);
    const links = runtime.mailbox.all().filter((m) => m.to === email && m.kind === 'magic_link');
    const tokenOf = (sandbox: boolean) =>
      /#token=([A-Za-z0-9._-]+)/.exec(
        links.find((m) => m.subject.startsWith('[Sandbox]') === sandbox)?.text ?? '',
      )?.[1];
    const live = await api.get(CHARGES, { token: tokenOf(false) });
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ customer: { environment: 'live' }, data: [] });
    const sandbox = await api.get(CHARGES, { token: tokenOf(true) });
    expect(sandbox.body.data.map((r: any) => r.description)).toEqual(['Cobrança sandbox']);
  });

  it('answers 401 without a link, with a forged one and once the link has expired', async () => {
    const a = await seller();
    const cpf = newCpf();
    const email = `exp.${cpf}@example.com`;
    await customer(a.key, cpf, email);
    const token = await linkFor(cpf, email);
    expect((await api.get(CHARGES)).status).toBe(401);
    expect(await api.get(CHARGES, { token: 'eyJhbGciOiJub25lIn0.e30.' })).toMatchObject({
      status: 401,
      body: { code: 'token_invalid' },
    });
    expect((await api.get(CHARGES, { token: a.key })).status).toBe(401);
    expect((await api.get(CHARGES, { headers: { authorization: token } })).body.code).toBe(
      'authorization_scheme',
    );
    expect((await api.get(CHARGES, { token })).status).toBe(200);
    expect((await api.get(CHARGES, { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
    await api.post('/api/test-helpers/clock/advance', { seconds: 31 * 60 });
    const expired = await api.get(CHARGES, { token });
    expect(expired.status).toBe(401);
  });
});
