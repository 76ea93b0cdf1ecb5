import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureHeader } from '#events/signing';
import type { Runtime } from '#infra/local/runtime';
import { keys } from '#shared/adapters/dynamodb/keys';
import { FAILED_AUTH_LIMIT, RATE_LIMIT } from '#shared/domain/auth/rate-limit';
import { BOLETO_NOT_FOUND } from '#shared/domain/transactions/not-found';
import { connectAsaas, liveKeyOf, useAsaasLive } from '../support/asaas-live';
import type { FakeAsaas } from '../support/fake-asaas/server';
import { type client, nextRateWindow } from '../support/runtime';

/**
 * Issue 31: whoever holds the sandbox's notification key can move sandbox sales and nothing else.
 * Live sales are moved only by their provider's own authenticated route; the boleto document links
 * have a key of their own.
 */
let fake: FakeAsaas;
let runtime: Runtime;
let api: ReturnType<typeof client>;
let nextSeller = 310_000;
let live: Parameters<Parameters<typeof useAsaasLive>[0]>[0];

useAsaasLive((l) => {
  live = l;
  ({ fake, runtime, api } = l);
});

const buyer = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '11987654321',
};

async function sellerWithProduct(environment: 'test' | 'live') {
  const sellerId = nextSeller++;
  const { jwt, key } =
    environment === 'live'
      ? await liveKeyOf(live, sellerId)
      : await (async () => {
          await nextRateWindow(runtime, api);
          const token = await runtime.issuer.sign(sellerId, { now: runtime.clock.now() });
          const res = await api.post('/api/api-keys', { name: 'k', environment: 'test' }, { token });
          return { jwt: token, key: res.body.key as string };
        })();
  const product = (
    await api.post(
      '/api/products',
      { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100 },
      { token: key },
    )
  ).body;
  return { sellerId, jwt, key, product };
}

const buy = (productUuid: string, paymentMethod: string) =>
  api.post('/api/transactions', { productId: productUuid, paymentMethod, customer: buyer });

/** A notification signed with the sandbox's own key, as its holder could send one. */
function signedNotification(body: Record<string, unknown>) {
  const raw = JSON.stringify({ occurredAt: runtime.clock.now().toISOString(), ...body });
  const t = Math.floor(runtime.clock.now().getTime() / 1000);
  return api.call('POST', '/api/transactions/handle-webhook', {
    raw,
    headers: { 'x-signature': signatureHeader([runtime.sandboxNotificationSecret], t, raw) },
  });
}

const statusOf = async (gatewayPayId: number) =>
  (await api.get(`/api/transactions/status/${gatewayPayId}`)).body;

async function liveSale() {
  const s = await sellerWithProduct('live');
  const connected = await connectAsaas(live, s.jwt);
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);
  const res = await buy(s.product.uuid, 'pix');
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const [stored] = await runtime.deps.repos.transactions.findByGatewayPayId(res.body.gatewayPayId);
  expect([stored.provider, stored.tenant.environment]).toEqual(['asaas', 'live']);
  return { seller: s, tx: res.body as { id: number; gatewayPayId: number; status: string } };
}

describe('the sandbox notification route and live sales', () => {
  it('refuses a signed notification naming provider asaas, naming the field, and the live sale stays unpaid', async () => {
    const { tx } = await liveSale();
    for (const type of ['charge.paid', 'charge.refunded', 'charge.charged_back']) {
      const res = await signedNotification({
        id: `ntf_forged_${type}`,
        provider: 'asaas',
        type,
        gatewayPayId: tx.gatewayPayId,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(JSON.stringify(res.body.message)).toContain('provider must be sandbox');
    }
    expect(await statusOf(tx.gatewayPayId)).toBe('pendingPix');

    // Asaas's own route still pays it.
    const payment = fake.paymentByReference(String(tx.gatewayPayId));
    const paid = await fake.pay(payment?.id as string);
    expect(paid?.status).toBe(200);
    expect(await paid?.json()).toMatchObject({ applied: true, status: 'payedPix' });
    expect(await statusOf(tx.gatewayPayId)).toBe('payedPix');

    // Nor can the signed route refund or charge back the paid live sale.
    for (const type of ['charge.refunded', 'charge.charged_back']) {
      const res = await signedNotification({
        id: `ntf_after_${type}`,
        provider: 'asaas',
        type,
        gatewayPayId: tx.gatewayPayId,
      });
      expect(res.status).toBe(400);
    }
    expect(await statusOf(tx.gatewayPayId)).toBe('payedPix');
  });

  it('answers a live sale exactly like a missing charge, even one recorded under the sandbox provider', async () => {
    const { seller, tx } = await liveSale();
    const missing = await signedNotification({
      id: 'ntf_missing',
      provider: 'sandbox',
      type: 'charge.paid',
      gatewayPayId: 999_999_999_999_999,
    });
    expect(missing.status).toBe(404);
    const { timestamp: _t, path: _p, ...missingBody } = missing.body;

    const byLiveId = await signedNotification({
      id: 'ntf_live_id',
      provider: 'sandbox',
      type: 'charge.paid',
      gatewayPayId: tx.gatewayPayId,
    });
    expect(byLiveId.status).toBe(404);
    expect(byLiveId.body).toMatchObject(missingBody);

    // A live transaction whose provider reads "sandbox" (no path writes one; the route must not
    // rely on that): the signed route still does not reach the live environment.
    await runtime.deps.table.update({
      Key: keys.transaction({ sellerId: seller.sellerId, environment: 'live' }, tx.id),
      UpdateExpression: 'SET provider = :p',
      ExpressionAttributeValues: { ':p': 'sandbox' },
    });
    const found = await runtime.deps.repos.transactions.findByGatewayPayId(tx.gatewayPayId);
    expect(found.map((t) => [t.provider, t.tenant.environment])).toEqual([['sandbox', 'live']]);
    for (const type of ['charge.paid', 'charge.canceled', 'charge.failed']) {
      const res = await signedNotification({
        id: `ntf_relabeled_${type}`,
        provider: 'sandbox',
        type,
        gatewayPayId: tx.gatewayPayId,
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject(missingBody);
    }
    const after = await runtime.deps.repos.transactions.get(
      { sellerId: seller.sellerId, environment: 'live' },
      tx.id,
    );
    expect(after?.status).toBe('pendingPix');
  });

  it('still moves a sandbox sale with a signed sandbox notification', async () => {
    const s = await sellerWithProduct('test');
    const tx = (await buy(s.product.uuid, 'pix')).body;
    const res = await signedNotification({
      id: `ntf_sandbox_${tx.id}`,
      provider: 'sandbox',
      type: 'charge.paid',
      gatewayPayId: tx.gatewayPayId,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ applied: true, status: 'payedPix' });
  });

  it(`answers every signed notification of a minute, past the public limit of ${RATE_LIMIT} per address`, async () => {
    const s = await sellerWithProduct('test');
    const tx = (await buy(s.product.uuid, 'pix')).body;
    await nextRateWindow(runtime, api);
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 5; i++) {
      const res = await signedNotification({
        id: `ntf_many_${tx.id}_${i}`,
        provider: 'sandbox',
        type: 'charge.paid',
        gatewayPayId: tx.gatewayPayId,
      });
      statuses.push(res.status);
    }
    expect(new Set(statuses)).toEqual(new Set([201]));
  });

  it(`limits failed signatures: past ${FAILED_AUTH_LIMIT} in a minute the address gets 429, a valid signature too`, async () => {
    const s = await sellerWithProduct('test');
    const tx = (await buy(s.product.uuid, 'pix')).body;
    await nextRateWindow(runtime, api);
    const body = {
      id: `ntf_guess_${tx.id}`,
      provider: 'sandbox',
      type: 'charge.paid',
      gatewayPayId: tx.gatewayPayId,
    };
    const raw = JSON.stringify({ occurredAt: runtime.clock.now().toISOString(), ...body });
    const t = Math.floor(runtime.clock.now().getTime() / 1000);
    const guess = (i: number) =>
      api.call('POST', '/api/transactions/handle-webhook', {
        raw,
        headers: { 'x-signature': signatureHeader([`guess-${i}`], t, raw) },
      });
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) {
      const res = await guess(i);
      expect(res.status, `guess ${i + 1}: ${JSON.stringify(res.body)}`).toBe(401);
    }
    const refused = await guess(FAILED_AUTH_LIMIT);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await signedNotification(body)).status).toBe(429);
    expect(await statusOf(tx.gatewayPayId)).toBe('pendingPix');

    await nextRateWindow(runtime, api);
    const paid = await signedNotification(body);
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body).toMatchObject({ applied: true, status: 'payedPix' });
  });
});

describe('the boleto document link', () => {
  it('has a key of its own: a token made with the notification key is refused like a missing boleto', async () => {
    const s = await sellerWithProduct('test');
    const res = await buy(s.product.uuid, 'boleto');
    expect(res.status).toBe(201);
    const url = new URL(res.body.boleto.pdfUrl);
    expect((await fetch(url)).status).toBe(200);

    const gatewayPayId = res.body.gatewayPayId as number;
    const message = `boleto-pdf:${gatewayPayId}`;
    const notificationKey = await runtime.deps.secrets.gatewayWebhook.key();
    const forged = [
      // As the links were signed before they had their own key: the notification secret string.
      createHmac('sha256', runtime.sandboxNotificationSecret)
        .update(message)
        .digest('hex')
        .slice(0, 32),
      createHmac('sha256', notificationKey).update(message).digest('hex').slice(0, 32),
    ];
    for (const token of forged) {
      expect(token).not.toBe(url.searchParams.get('token'));
      url.searchParams.set('token', token);
      const refused = await fetch(url);
      expect(refused.status).toBe(404);
      expect(((await refused.json()) as { message: string }).message).toBe(BOLETO_NOT_FOUND);
    }
    const pdfKey = await runtime.deps.secrets.boletoPdf.key();
    url.searchParams.set('token', createHmac('sha256', pdfKey).update(message).digest('hex').slice(0, 32));
    expect((await fetch(url)).status).toBe(200);
  });
});
