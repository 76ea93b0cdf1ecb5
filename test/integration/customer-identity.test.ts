import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { customerAreaScene } from '../support/customer-area';
import { type client, useTestRuntime } from '../support/runtime';

/**
 * The security review's identity attacks (issue 31), each as the attacker ran it: what an anonymous
 * buyer types on a public route never becomes the contact data sellers or the customer area rely on.
 */
let runtime: Runtime;
let api: ReturnType<typeof client>;

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const area = customerAreaScene(() => ({ runtime, api }), 311_000);
const { newCpf, seller, customer, charge, linkFor } = area;
const ATTACKER = 'attacker@evil.example';

const linksTo = (email: string) =>
  runtime.mailbox.all().filter((m) => m.to === email.toLowerCase() && m.kind === 'magic_link');

async function productOf(token: string) {
  const res = await api.post(
    '/api/products',
    { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100 },
    { token },
  );
  expect(res.status).toBe(201);
  return res.body as { id: number; uuid: string };
}

/** An anonymous sale on the seller's public link, the buyer typing `cpf` with the attacker's contact data. */
async function anonymousSale(productUuid: string, cpf: string, extra: Record<string, unknown> = {}) {
  const res = await api.post('/api/transactions', {
    productId: productUuid,
    paymentMethod: 'pix',
    customer: {
      name: 'Atacante',
      email: ATTACKER,
      document: cpf,
      phone: '11900000000',
      zipCode: '01001000',
      street: 'Rua do Atacante',
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; customer: { id: number; name: string; email: string } };
}

describe('taking over a customer area ahead of time (attack 1)', () => {
  it("mails the area link only to the address the seller registered, never to the first buyer's", async () => {
    const shop = await seller();
    const cpf = newCpf();
    // The attacker buys first on any seller's public link, with a CPF new to the platform.
    await anonymousSale((await productOf(shop.key)).uuid, cpf);

    // A real seller then registers and bills that CPF.
    const billing = await seller();
    const real = `paula.${cpf}@example.com`;
    const registered = await customer(billing.key, cpf, real);
    await charge(billing.key, registered.id, 80, 'Mensalidade');

    const res = await api.post('/api/public/minha-area/request', { document: cpf });
    expect(res.body).toEqual({ maskedEmail: 'p***@example.com' });
    expect(linksTo(ATTACKER)).toHaveLength(0);
    expect(linksTo(real)).toHaveLength(1);
    // Asking by the attacker's address finds nobody.
    expect((await api.post('/api/public/minha-area/request', { email: ATTACKER })).body).toEqual({
      maskedEmail: null,
    });
    expect(linksTo(ATTACKER)).toHaveLength(0);
  });

  it("shows a link only the sellers that registered the link's address", async () => {
    const cpf = newCpf();
    const a = await seller();
    const b = await seller();
    const first = `um.${cpf}@example.com`;
    const second = `dois.${cpf}@example.com`;
    const atA = await customer(a.key, cpf, first);
    const atB = await customer(b.key, cpf, second);
    await charge(a.key, atA.id, 10, 'Da loja A');
    await charge(b.key, atB.id, 20, 'Da loja B');

    const token = await linkFor(cpf, first);
    const charges = await api.get('/api/public/minha-area/charges', { token });
    expect(charges.status).toBe(200);
    expect(charges.body.sellers.map((s: { sellerId: number }) => s.sellerId)).toEqual([a.sellerId]);
    expect(charges.body.data.map((c: { description: string }) => c.description)).toEqual(['Da loja A']);
    // The other seller's profile cannot be reached from this link.
    const other = await api.patch(
      '/api/public/minha-area/profile',
      { sellerId: b.sellerId, billingEmailOverride: ATTACKER },
      { token },
    );
    expect(other.status).toBe(403);
    // Each registered address got its own link.
    expect(linksTo(second)).toHaveLength(1);
  });

  it('drops an override the customer area set when the seller corrects the e-mail', async () => {
    const cpf = newCpf();
    const s = await seller();
    // The seller registered a wrong (the attacker's) address at first.
    const registered = await customer(s.key, cpf, ATTACKER);
    await charge(s.key, registered.id, 30, 'Mensalidade');
    const token = await linkFor(cpf, ATTACKER);
    const set = await api.patch(
      '/api/public/minha-area/profile',
      { sellerId: s.sellerId, billingEmailOverride: 'outro@evil.example' },
      { token },
    );
    expect(set.status).toBe(200);

    const fixed = await api.patch(
      `/api/v1/customers/${registered.uuid}`,
      { email: `certo.${cpf}@example.com` },
      { token: s.key },
    );
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({
      billingEmail: `certo.${cpf}@example.com`,
      hasBillingEmailOverride: false,
    });
    // The old link no longer shows that seller.
    expect((await api.get('/api/public/minha-area/charges', { token })).status).toBe(404);
  });

  it("keeps an override the seller set when the seller changes the customer's e-mail", async () => {
    const cpf = newCpf();
    const s = await seller();
    const registered = await customer(s.key, cpf, `antes.${cpf}@example.com`);
    await api.patch(
      `/api/v1/customers/${registered.uuid}/billing-email-override`,
      { billingEmailOverride: 'financeiro@example.com' },
      { token: s.key },
    );

    const changed = await api.patch(
      `/api/v1/customers/${registered.uuid}`,
      { email: `depois.${cpf}@example.com` },
      { token: s.key },
    );
    expect(changed.body).toMatchObject({
      billingEmail: 'financeiro@example.com',
      hasBillingEmailOverride: true,
    });
  });
});

describe("overwriting a seller's customer from the public link (attack 2)", () => {
  it("leaves the seller's customer as registered; the sale keeps what the buyer typed", async () => {
    const s = await seller();
    const cpf = newCpf();
    const registered = await customer(s.key, cpf, `maria.${cpf}@example.com`, 'Maria Registrada');
    const before = (await api.get(`/api/v1/customers?search=${cpf}`, { token: s.key })).body.data[0];

    const sale = await anonymousSale((await productOf(s.key)).uuid, cpf);

    // The sale belongs to the seller's customer, with the buyer's own data on it.
    expect(sale.customer).toMatchObject({ id: registered.id, name: 'Atacante', email: ATTACKER });
    const after = (await api.get(`/api/v1/customers?search=${cpf}`, { token: s.key })).body.data[0];
    expect(after).toEqual(before);
    expect(after).toMatchObject({ name: 'Maria Registrada', email: `maria.${cpf}@example.com` });
  });

  it("creates the seller's customer from a first sale, then never changes it from another", async () => {
    const s = await seller();
    const cpf = newCpf();
    const product = (await productOf(s.key)).uuid;
    await anonymousSale(product, cpf, { email: `primeira.${cpf}@example.com`, name: 'Primeira' });
    await anonymousSale(product, cpf, { name: 'Segunda', zipCode: '20040020' });

    const listed = (await api.get(`/api/v1/customers?search=${cpf}`, { token: s.key })).body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      name: 'Primeira',
      email: `primeira.${cpf}@example.com`,
      zipCode: '01001000',
    });
    // A customer only a public sale made gets no customer-area link.
    expect((await api.post('/api/public/minha-area/request', { document: cpf })).body).toEqual({
      maskedEmail: null,
    });
    // Once the seller registers it through the API, the address is the seller's.
    const registered = await api.post(
      '/api/v1/customers',
      {
        name: 'Primeira',
        email: `primeira.${cpf}@example.com`,
        document: cpf,
        phone: '11987654321',
        personType: 'fisica',
      },
      { token: s.key },
    );
    expect(registered.status).toBeLessThan(300);
    expect((await api.post('/api/public/minha-area/request', { document: cpf })).body).toEqual({
      maskedEmail: 'p***@example.com',
    });
  });

  it("leaves the seller's customer as registered when the checkout page's buyer types its CPF", async () => {
    const s = await seller();
    const cpf = newCpf();
    await customer(s.key, cpf, `joao.${cpf}@example.com`, 'João Registrado');
    const product = await productOf(s.key);
    const session = await api.post(
      '/api/checkout/sessions',
      { product_id: product.id, payment_methods: ['pix'] },
      { token: s.key },
    );
    expect(session.status, JSON.stringify(session.body)).toBe(201);

    const paid = await api.post(`/api/public/checkout/${session.body.id}/pay`, {
      paymentMethod: 'pix',
      customer: { name: 'Atacante', email: ATTACKER, document: cpf, phone: '11900000000' },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBeLessThan(300);

    const listed = (await api.get(`/api/v1/customers?search=${cpf}`, { token: s.key })).body.data;
    expect(listed[0]).toMatchObject({ name: 'João Registrado', email: `joao.${cpf}@example.com` });
  });
});
