import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import {
  ASAAS_KEY,
  type AsaasLive,
  connectAsaas,
  liveKeyOf,
  OTHER_KEY,
  useAsaasLive,
} from '../support/asaas-live';
import { FAKE_CARDS, FAKE_PIX_PAYLOAD, type FakeAsaas } from '../support/fake-asaas/server';
import { Receiver, waitFor } from '../support/receiver';
import { type client, logLines } from '../support/runtime';
import { serviceTrips } from '../support/service-trips';

let fake: FakeAsaas;
let runtime: Runtime;
let api: ReturnType<typeof client>;
let nextSeller = 160_000;

let live: AsaasLive;
let tripsOf: ReturnType<typeof serviceTrips>;

useAsaasLive(
  (l) => {
    live = l;
    ({ fake, runtime, api } = l);
    tripsOf = serviceTrips(runtime);
  },
  {
    [ASAAS_KEY]: 'Padaria da Maria LTDA',
    [OTHER_KEY]: 'Outra Loja',
  },
);

const buyer = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '11987654321',
};
const card = (number: string) => ({
  number,
  holderName: 'MARIA SOUZA',
  expiryMonth: 12,
  expiryYear: 2034,
  cvv: '123',
});

async function liveSeller() {
  const sellerId = nextSeller++;
  const { jwt, key } = await liveKeyOf(live, sellerId);
  const product = (
    await api.post(
      '/api/products',
      { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100, installments: 6 },
      { token: key },
    )
  ).body;
  return { sellerId, jwt, key, product };
}

const connect = (jwt: string, apiKey = ASAAS_KEY) => connectAsaas(live, jwt, apiKey);

const buy = (productUuid: string, paymentMethod: string, extra: Record<string, unknown> = {}) =>
  api.post('/api/transactions', { productId: productUuid, paymentMethod, customer: buyer, ...extra });

describe('connecting an Asaas account', () => {
  it('checks the key, reports the account name, stores it encrypted and never shows it', async () => {
    const s = await liveSeller();
    expect((await buy(s.product.uuid, 'pix')).body).toMatchObject({
      statusCode: 503,
      code: 'provider_not_configured',
    });

    const refused = await api.call('PUT', '/api/provider-connections/asaas', {
      token: s.jwt,
      body: { apiKey: '$aact_this_key_does_not_exist_at_asaas', environment: 'sandbox' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('provider_credentials_invalid');
    const missing = await api.call('PUT', '/api/provider-connections/asaas', {
      token: s.jwt,
      body: { apiKey: ASAAS_KEY },
    });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body.message)).toContain('environment');
    const byApiKey = await api.call('PUT', '/api/provider-connections/asaas', {
      token: s.key,
      body: { apiKey: ASAAS_KEY, environment: 'sandbox' },
    });
    expect(byApiKey.status).toBeGreaterThanOrEqual(401);
    expect(byApiKey.status).toBeLessThanOrEqual(403);

    const res = await connect(s.jwt);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      provider: 'asaas',
      environment: 'sandbox',
      accountName: 'Padaria da Maria LTDA',
      apiKeyLast4: ASAAS_KEY.slice(-4),
      webhook: {
        url: `${runtime.baseUrl}/api/provider-connections/asaas/notifications`,
        header: 'asaas-access-token',
      },
    });
    const check = fake.requests.find(
      (r) => r.path === '/v3/myAccount/commercialInfo' && r.headers.access_token === ASAAS_KEY,
    );
    expect(check?.method).toBe('GET');

    const shown = await api.get('/api/provider-connections/asaas', { token: s.jwt });
    expect(shown.status).toBe(200);
    expect(shown.body.accountName).toBe('Padaria da Maria LTDA');
    expect(JSON.stringify(shown.body)).not.toContain(ASAAS_KEY.slice(6, 30));
    expect(JSON.stringify(shown.body)).not.toContain(res.body.webhook.authToken);
    const other = await liveSeller();
    expect((await api.get('/api/provider-connections/asaas', { token: other.jwt })).status).toBe(404);

    const stored = await runtime.deps.providers.connections.get(s.sellerId, 'asaas');
    expect(stored?.encryptedApiKey).not.toContain(ASAAS_KEY.slice(6, 30));
    expect(logLines.join('\n')).not.toContain(ASAAS_KEY.slice(6, 30));
  });

  it('disconnects in 3 round trips: the rate count, the connection, one write of it and its token', async () => {
    const s = await liveSeller();
    await connect(s.jwt);

    const { result, trips } = await tripsOf(() =>
      api.del('/api/provider-connections/asaas', { token: s.jwt }),
    );

    expect(result.status, JSON.stringify(result.body)).toBe(200);
    // The connection is read once: the delete is conditioned on the token hash that read saw.
    expect(trips).toBe(3);
  });

  it('disconnects: live sales answer 503 again and the webhook token stops working', async () => {
    const s = await liveSeller();
    const connected = await connect(s.jwt);
    expect((await buy(s.product.uuid, 'pix')).status).toBe(201);
    const gone = await api.del('/api/provider-connections/asaas', { token: s.jwt });
    expect(gone.status).toBe(200);
    expect((await api.del('/api/provider-connections/asaas', { token: s.jwt })).status).toBe(404);
    expect((await buy(s.product.uuid, 'pix')).body.code).toBe('provider_not_configured');
    const late = await api.post(
      '/api/provider-connections/asaas/notifications',
      { id: 'evt_1', event: 'PAYMENT_RECEIVED', payment: { id: 'pay_1' } },
      { headers: { 'asaas-access-token': connected.body.webhook.authToken } },
    );
    expect(late.status).toBe(401);
  });
});

describe('/api/health/gateway', () => {
  it('reports every configured provider, Asaas reached without any seller key', async () => {
    const before = fake.requests.length;
    const res = await api.get('/api/health/gateway');
    expect(res.status).toBe(200);
    expect(res.body.checks.gateway).toMatchObject({ status: 'healthy', provider: 'asaas' });
    expect(res.body.checks.gateway.providers).toEqual([
      expect.objectContaining({ provider: 'sandbox', status: 'healthy', serves: 'test' }),
      expect.objectContaining({ provider: 'asaas', status: 'healthy', serves: 'live' }),
    ]);
    const pings = fake.requests.slice(before);
    expect(pings.length).toBeGreaterThan(0);
    expect(pings.every((r) => r.headers.access_token === undefined)).toBe(true);
  });
});

describe('a live sale through Asaas', () => {
  it('sells by pix and a notification from Asaas pays it, with the same events as the sandbox', async () => {
    const s = await liveSeller();
    await connect(s.jwt);
    const receiver = await new Receiver().start();
    try {
      await api.post('/api/webhook-endpoints', { url: receiver.url, events: ['*'] }, { token: s.key });
      const res = await buy(s.product.uuid, 'pix');
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ status: 'pendingPix', value: 100, paymentMethod: 'pix' });
      expect(res.body.pix.qrCode).toBe(FAKE_PIX_PAYLOAD);
      const payment = fake.paymentByReference(String(res.body.gatewayPayId));
      expect(payment).toMatchObject({ billingType: 'PIX', value: 100, status: 'PENDING' });

      const answer = await fake.pay(payment?.id as string);
      expect(answer?.status).toBe(200);
      expect(await answer?.json()).toMatchObject({ applied: true, status: 'payedPix' });
      expect((await api.get(`/api/transactions/status/${res.body.gatewayPayId}`)).body).toBe('payedPix');

      const ofTransaction = () => receiver.received.filter((r) => r.json.event.startsWith('transaction.'));
      await waitFor(() => ofTransaction().length >= 3);
      expect(
        ofTransaction()
          .map((r) => r.json.event)
          .sort(),
      ).toEqual(['transaction.created', 'transaction.payment.succeeded', 'transaction.updated']);
    } finally {
      await receiver.stop();
    }
  });

  it('answers 401 without the token or with a wrong one, 404 for another seller, and applies an event id once', async () => {
    const s = await liveSeller();
    const mine = await connect(s.jwt);
    const other = await liveSeller();
    const theirs = await connect(other.jwt, OTHER_KEY);
    const tx = (await buy(s.product.uuid, 'pix')).body;
    const payment = fake.paymentByReference(String(tx.gatewayPayId));
    const event = {
      id: 'evt_05b708f961d739ea7eba7e4db318f621&368604920',
      event: 'PAYMENT_RECEIVED',
      dateCreated: '2026-11-23 16:45:03',
      payment: {
        object: 'payment',
        id: payment?.id,
        externalReference: String(tx.gatewayPayId),
        status: 'RECEIVED',
      },
    };
    const post = (headers: Record<string, string>) =>
      api.post('/api/provider-connections/asaas/notifications', event, { headers });
    expect((await post({})).status).toBe(401);
    expect((await post({ 'asaas-access-token': 'whsec_asaas_guess' })).status).toBe(401);
    expect((await post({ 'asaas-access-token': theirs.body.webhook.authToken })).status).toBe(404);
    expect((await api.get(`/api/transactions/status/${tx.gatewayPayId}`)).body).toBe('pendingPix');

    const first = await post({ 'asaas-access-token': mine.body.webhook.authToken });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ applied: true, status: 'payedPix' });
    const again = await post({ 'asaas-access-token': mine.body.webhook.authToken });
    expect(again.body).toMatchObject({ applied: false });
    const created = await api.post(
      '/api/provider-connections/asaas/notifications',
      { ...event, id: 'evt_other', event: 'PAYMENT_CREATED' },
      { headers: { 'asaas-access-token': mine.body.webhook.authToken } },
    );
    expect(created.body).toMatchObject({ received: true, applied: false });
  });

  it('answers a live sale with the same shape as a sandbox sale, method by method', async () => {
    const s = await liveSeller();
    await connect(s.jwt);
    const jwt = await runtime.issuer.sign(nextSeller++, { now: runtime.clock.now() });
    const testKey = (await api.post('/api/api-keys', { name: 't', environment: 'test' }, { token: jwt })).body
      .key;
    const testProduct = (
      await api.post(
        '/api/products',
        { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100, installments: 6 },
        { token: testKey },
      )
    ).body;
    const shape = (value: unknown): unknown =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(
            Object.entries(value)
              .map(([k, v]) => [k, shape(v)])
              .sort(),
          )
        : value === null
          ? null
          : typeof value;
    for (const [method, extra] of [
      ['pix', {}],
      ['boleto', {}],
      ['creditcard', { card: card(FAKE_CARDS.approved) }],
    ] as const) {
      const live = await buy(s.product.uuid, method, extra);
      const sandbox = await buy(
        testProduct.uuid,
        method,
        method === 'creditcard' ? { card: card('4111111111111111') } : {},
      );
      expect(live.status).toBe(sandbox.status);
      expect(shape(live.body)).toEqual(shape(sandbox.body));
      expect(live.body.status).toBe(sandbox.body.status);
    }
  });

  it('sells by boleto with the provider linha digitável and PDF', async () => {
    const s = await liveSeller();
    await connect(s.jwt);
    const res = await buy(s.product.uuid, 'boleto');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.status).toBe('pendingBoleto');
    expect(JSON.stringify(res.body)).toContain('00190000090275928800021932978170187890000005000');
    const payment = fake.paymentByReference(String(res.body.gatewayPayId));
    expect(payment).toMatchObject({ billingType: 'BOLETO', value: 100 });
  });

  it('sells by card in installments, and a refused card is denied with the canonical failure code', async () => {
    const s = await liveSeller();
    await connect(s.jwt);
    const paid = await buy(s.product.uuid, 'creditcard', {
      card: card(FAKE_CARDS.approved),
      installments: 3,
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.status).toBe('captured');
    const payment = fake.paymentByReference(String(paid.body.gatewayPayId));
    expect(payment).toMatchObject({ billingType: 'CREDIT_CARD', installmentCount: 3, value: 100 });
    const request = fake.requests.find((r) => r.body?.externalReference === String(paid.body.gatewayPayId));
    expect(request?.body).toMatchObject({ totalValue: 100, installmentCount: 3 });

    const denied = await buy(s.product.uuid, 'creditcard', { card: card(FAKE_CARDS.insufficientFunds) });
    expect(denied.status, JSON.stringify(denied.body)).toBe(201);
    // The buyer reads a plain decline; the seller reads Asaas's reason as the canonical code.
    expect(denied.body).toMatchObject({ status: 'denied', failureCode: 'card_declined' });
    const read = await api.get(`/api/transactions/${denied.body.id}`, { token: s.key });
    expect(read.body).toMatchObject({ status: 'denied', failureCode: 'insufficient_funds' });
    expect(logLines.join('\n')).not.toContain(FAKE_CARDS.approved);
  });

  it("sends the card holder's phone and the address the sale or the seller's customer profile knows", async () => {
    const s = await liveSeller();
    await connect(s.jwt);
    const registered = await api.post(
      '/api/v1/customers',
      { ...buyer, personType: 'fisica', zipCode: '01310-100', number: '1000', complement: 'Apto 12' },
      { token: s.key },
    );
    expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300);
    const holderOf = (gatewayPayId: number) =>
      fake.requests.find((r) => r.body?.externalReference === String(gatewayPayId))?.body
        .creditCardHolderInfo;

    const fromProfile = await buy(s.product.uuid, 'creditcard', { card: card(FAKE_CARDS.approved) });
    expect(fromProfile.status, JSON.stringify(fromProfile.body)).toBe(201);
    // The buyer paid from this machine: its address goes as Asaas's remoteIp.
    const saleBody = fake.requests.find(
      (r) => r.body?.externalReference === String(fromProfile.body.gatewayPayId),
    )?.body;
    expect(saleBody?.remoteIp).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    expect(holderOf(fromProfile.body.gatewayPayId)).toEqual({
      name: 'Maria Souza',
      email: 'maria@example.com',
      cpfCnpj: '52998224725',
      postalCode: '01310100',
      addressNumber: '1000',
      addressComplement: 'Apto 12',
      phone: '11987654321',
    });

    const fromSale = await buy(s.product.uuid, 'creditcard', {
      card: card(FAKE_CARDS.approved),
      customer: { ...buyer, zipCode: '20040-002', number: '50' },
    });
    expect(fromSale.status, JSON.stringify(fromSale.body)).toBe(201);
    expect(holderOf(fromSale.body.gatewayPayId)).toMatchObject({
      postalCode: '20040002',
      addressNumber: '50',
      phone: '11987654321',
    });
    expect(holderOf(fromSale.body.gatewayPayId).addressComplement).toBeUndefined();

    // A buyer nobody registered an address for: what we know, nothing invented.
    const unknown = await buy(s.product.uuid, 'creditcard', {
      card: card(FAKE_CARDS.approved),
      customer: { ...buyer, document: '111.444.777-35', email: 'joao@example.com', name: 'João Lima' },
    });
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(201);
    expect(holderOf(unknown.body.gatewayPayId)).toEqual({
      name: 'João Lima',
      email: 'joao@example.com',
      cpfCnpj: '11144477735',
      phone: '11987654321',
    });
  });

  it('refunds a live card sale at the provider, partially then totally', async () => {
    const s = await liveSeller();
    await connect(s.jwt);
    const paid = (await buy(s.product.uuid, 'creditcard', { card: card(FAKE_CARDS.approved) })).body;
    const partial = await api.post(`/api/transactions/${paid.id}/refund`, { amount: 40 }, { token: s.key });
    expect(partial.status, JSON.stringify(partial.body)).toBeLessThan(300);
    const payment = fake.paymentByReference(String(paid.gatewayPayId));
    expect(payment?.refunds?.map((r) => r.value)).toEqual([40]);
  });
});
