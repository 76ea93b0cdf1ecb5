import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { customerAreaScene } from '../support/customer-area';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const PROFILE = '/api/public/minha-area/profile';
const area = customerAreaScene(() => ({ runtime, api }), 153_000);
const { newCpf, seller, linkFor } = area;
const customer = (token: string, document: string, email: string) =>
  area.customer(token, document, email, 'Rita Alves');
const charge = (token: string, customerId: number) =>
  area.charge(token, customerId, 70, 'Consulta', { methods: ['pix'] });

/** The seller's view of its customer (its list, searched by CPF). */
async function viewOf(key: string, cpf: string) {
  const res = await api.get(`/api/v1/customers?search=${cpf}`, { token: key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data[0];
}

/** A customer with a charge at seller `a`, merely registered at seller `b`, and its link. */
async function scene() {
  const a = await seller();
  const b = await seller();
  const cpf = newCpf();
  const email = `rita.${cpf}@example.com`;
  const atA = await customer(a.key, cpf, email);
  const atB = await customer(b.key, cpf, email);
  await charge(a.key, atA.id);
  return { a, b, cpf, email, atA, atB, token: await linkFor(cpf, email) };
}

describe('PATCH /api/public/minha-area/profile', () => {
  it("sets the seller's billing e-mail and clears it with null", async () => {
    const s = await scene();
    const set = await api.patch(
      PROFILE,
      { sellerId: s.a.sellerId, billingEmailOverride: 'financeiro@example.com' },
      { token: s.token },
    );
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ success: true });
    const seen = await viewOf(s.a.key, s.cpf);
    expect(seen).toMatchObject({ billingEmail: 'financeiro@example.com', hasBillingEmailOverride: true });

    const cleared = await api.patch(
      PROFILE,
      { sellerId: s.a.sellerId, billingEmailOverride: null },
      { token: s.token },
    );
    expect(cleared.status).toBe(200);
    const after = await viewOf(s.a.key, s.cpf);
    expect(after).toMatchObject({ billingEmail: s.email, hasBillingEmailOverride: false });
  });

  it('answers 400 naming the field, and writes nothing', async () => {
    const s = await scene();
    for (const [body, field] of [
      [{ sellerId: s.a.sellerId, billingEmailOverride: 'não-é-email' }, 'billingEmailOverride'],
      [{ sellerId: s.a.sellerId }, 'billingEmailOverride'],
      [{ billingEmailOverride: 'x@example.com' }, 'sellerId'],
      [{ sellerId: 'um', billingEmailOverride: 'x@example.com' }, 'sellerId'],
    ] as const) {
      const res = await api.patch(PROFILE, body, { token: s.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body.message)).toContain(field);
    }
    const seen = await viewOf(s.a.key, s.cpf);
    expect(seen.hasBillingEmailOverride).toBe(false);
  });

  it('answers 401 without a link, with a forged one and with an expired one', async () => {
    const s = await scene();
    const body = { sellerId: s.a.sellerId, billingEmailOverride: 'x@example.com' };
    expect((await api.patch(PROFILE, body)).status).toBe(401);
    // A character the token's last bits fully use, changed (the last one may carry unused bits).
    const forged = `${s.token.slice(0, -2)}${s.token.at(-2) === 'A' ? 'B' : 'A'}${s.token.at(-1)}`;
    expect((await api.patch(PROFILE, body, { token: forged })).status).toBe(401);
    await api.post('/api/test-helpers/clock/advance', { seconds: 31 * 60 });
    expect((await api.patch(PROFILE, body, { token: s.token })).status).toBe(401);
  });

  it('answers 403 for a seller with no charge or payment of the customer, and for an unrelated seller', async () => {
    const s = await scene();
    const stranger = await seller();
    for (const sellerId of [s.b.sellerId, stranger.sellerId]) {
      const res = await api.patch(
        PROFILE,
        { sellerId, billingEmailOverride: 'x@example.com' },
        { token: s.token },
      );
      expect(res.status).toBe(403);
    }
  });

  it('counts a charge the seller canceled (no transaction) as a charge with that seller', async () => {
    const a = await seller();
    const cpf = newCpf();
    const email = `cancelada.${cpf}@example.com`;
    const profile = await customer(a.key, cpf, email);
    const created = await area.charge(a.key, profile.id, 70, 'Consulta', { methods: ['pix'] });
    const canceled = await api.post(`/api/v1/scheduled-charges/${created.id}/cancel`, {}, { token: a.key });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    const res = await api.patch(
      PROFILE,
      { sellerId: a.sellerId, billingEmailOverride: 'financeiro@example.com' },
      { token: await linkFor(cpf, email) },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it("answers 404 when no seller registers the customer at the link's address any more", async () => {
    const s = await scene();
    for (const [seller, uuid] of [
      [s.a, s.atA.uuid],
      [s.b, s.atB.uuid],
    ] as const) {
      const moved = await api.patch(
        `/api/v1/customers/${uuid}`,
        { email: 'nova@example.com' },
        { token: seller.key },
      );
      expect(moved.status).toBe(200);
    }
    const res = await api.patch(
      PROFILE,
      { sellerId: s.a.sellerId, billingEmailOverride: 'x@example.com' },
      { token: s.token },
    );
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Cadastro não encontrado.');
  });
});
