import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { customerBody, sellerFixtures } from '../support/fixtures';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 95_000);
let nextKey = 0;

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const buyer = { name: customerBody.name, document: customerBody.document, email: customerBody.email };

/** A seller with a key of `environment`, a product and (test only) a registered customer. */
async function seller(environment: 'test' | 'live' = 'test') {
  if (environment === 'live')
    return { ...(await fixtures.seller({ environment })), product: null, customer: null };
  return fixtures.seller({ customer: {}, product: { name: 'Assinatura', value: 49.9, installments: 1 } });
}

type Seller = Awaited<ReturnType<typeof seller>>;

/** A card the buyer saved with an approved payment: its payment method id and its token. */
async function savedCard(s: Seller) {
  const paid = await api.post('/api/transactions', {
    productId: s.product.uuid,
    paymentMethod: 'creditcard',
    customer: { ...buyer, phone: customerBody.phone },
    card: {
      number: '4111111111111111',
      holderName: 'MARIA SOUZA',
      expiryMonth: 12,
      expiryYear: 2034,
      cvv: '123',
    },
    saveCard: true,
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  const listed = await api.get(`/api/v1/customers/${s.customer.uuid}/payment-methods`, { token: s.key });
  const id = listed.body.data[0].id as number;
  const stored = await runtime.deps.repos.paymentMethods.get(s.tenant, id);
  return { id, token: stored?.token as string };
}

/** A renewal-like charge of the saved card straight at the sandbox provider, with a fresh key. */
const chargeSaved = (s: Seller, token: string) =>
  runtime.deps.payments.forEnvironment('test').chargeSavedCard({
    tenant: s.tenant,
    transactionId: 1,
    amountCentavos: 4_990,
    installments: 1,
    description: 'Assinatura',
    customer: buyer,
    token,
    idempotencyKey: `it_${++nextKey}`,
  });

const outcome = (s: Seller, id: number | string, body: unknown) =>
  api.post(`/api/test-helpers/payment-methods/${id}/outcome`, body, { token: s.key });

/** A pix charge carrying a Pix Automático consent, as a subscription checkout makes it. */
async function pixAuthorization(s: Seller) {
  const result = await runtime.deps.payments.forEnvironment('test').createCharge({
    tenant: s.tenant,
    transactionId: 1,
    method: 'pix',
    amountCentavos: 4_990,
    installments: 1,
    description: 'Assinatura',
    customer: buyer,
    recurringConsent: { maxAmountCentavos: 10_000, description: 'Assinatura mensal' },
  });
  if (result.outcome !== 'pending' || !result.pix?.authorizationId) throw new Error('no authorization');
  return result.pix.authorizationId;
}

const pixStatus = (s: Seller, id: string) =>
  runtime.deps.payments.forEnvironment('test').pixAuthorizationStatus(s.tenant, id);

describe('POST /api/test-helpers/payment-methods/{id}/outcome', () => {
  it('makes the saved card decline, error and approve its later charges', async () => {
    const s = await seller();
    const card = await savedCard(s);

    const declined = await outcome(s, card.id, { outcome: 'declined', failureCode: 'insufficient_funds' });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body).toEqual({
      paymentMethodId: card.id,
      outcome: 'declined',
      failureCode: 'insufficient_funds',
    });
    expect(await chargeSaved(s, card.token)).toMatchObject({
      outcome: 'declined',
      failureCode: 'insufficient_funds',
    });

    expect((await outcome(s, card.id, { outcome: 'declined' })).body.failureCode).toBe('card_declined');
    expect(await chargeSaved(s, card.token)).toMatchObject({
      outcome: 'declined',
      failureCode: 'card_declined',
    });

    expect((await outcome(s, card.id, { outcome: 'error' })).body).toEqual({
      paymentMethodId: card.id,
      outcome: 'error',
      failureCode: 'processing_error',
    });
    expect(await chargeSaved(s, card.token)).toMatchObject({
      outcome: 'error',
      failureCode: 'processing_error',
    });

    expect((await outcome(s, card.id, { outcome: 'approved' })).body).toEqual({
      paymentMethodId: card.id,
      outcome: 'approved',
      failureCode: null,
    });
    expect((await chargeSaved(s, card.token)).outcome).toBe('approved');
  });

  it("answers 404 for another seller's payment method or an unknown one, and leaves the card alone", async () => {
    const s = await seller();
    const card = await savedCard(s);
    const other = await seller();
    for (const [who, id] of [
      [other, card.id],
      [s, 999_999],
    ] as const) {
      const res = await outcome(who, id, { outcome: 'declined' });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Payment method not found');
    }
    expect((await chargeSaved(s, card.token)).outcome).toBe('approved');
  });

  it('names the bad field in a 400', async () => {
    const s = await seller();
    const card = await savedCard(s);
    const unknown = await outcome(s, card.id, { outcome: 'maybe' });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('outcome');
    const codeOnApproval = await outcome(s, card.id, { outcome: 'approved', failureCode: 'card_declined' });
    expect(codeOnApproval.status).toBe(400);
    expect(JSON.stringify(codeOnApproval.body)).toContain('failureCode');
    const badCode = await outcome(s, card.id, { outcome: 'declined', failureCode: 'Not A Code' });
    expect(badCode.status).toBe(400);
    expect(JSON.stringify(badCode.body)).toContain('failureCode');
  });

  it('refuses a live key with 403 and no key with 401', async () => {
    const live = await seller('live');
    const res = await outcome(live, 1, { outcome: 'declined' });
    expect(res.status).toBe(403);
    expect(
      (await api.post('/api/test-helpers/payment-methods/1/outcome', { outcome: 'declined' })).status,
    ).toBe(401);
  });
});

describe('POST /api/test-helpers/pix-authorizations/{id}/approve and /revoke', () => {
  it('approves a pending authorization without a payment, then revokes it', async () => {
    const s = await seller();
    const id = await pixAuthorization(s);
    expect(await pixStatus(s, id)).toBe('pending');

    const approved = await api.post(`/api/test-helpers/pix-authorizations/${id}/approve`, undefined, {
      token: s.key,
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toEqual({ id, status: 'active' });
    expect(await pixStatus(s, id)).toBe('active');

    const revoked = await api.post(`/api/test-helpers/pix-authorizations/${id}/revoke`, undefined, {
      token: s.key,
    });
    expect(revoked.body).toEqual({ id, status: 'revoked' });
    expect(await pixStatus(s, id)).toBe('revoked');

    const again = await api.post(`/api/test-helpers/pix-authorizations/${id}/approve`, undefined, {
      token: s.key,
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('The Pix authorization is revoked; it cannot become active');
  });

  it("answers 404 for another seller's or an unknown authorization and changes nothing", async () => {
    const s = await seller();
    const id = await pixAuthorization(s);
    const other = await seller();
    for (const action of ['approve', 'revoke']) {
      for (const [who, target] of [
        [other, id],
        [s, 'pixauth_unknown'],
      ] as const) {
        const res = await api.post(`/api/test-helpers/pix-authorizations/${target}/${action}`, undefined, {
          token: who.key,
        });
        expect(res.status).toBe(404);
        expect(res.body.message).toBe('Pix authorization not found');
      }
    }
    expect(await pixStatus(s, id)).toBe('pending');
  });

  it('refuses a live key with 403', async () => {
    const live = await seller('live');
    for (const action of ['approve', 'revoke']) {
      const res = await api.post(`/api/test-helpers/pix-authorizations/pixauth_x/${action}`, undefined, {
        token: live.key,
      });
      expect(res.status).toBe(403);
    }
  });
});
