import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { saoPauloDate } from '#shared/dates';
import { sellerFixtures } from '../support/fixtures';
import { type client, logLines, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 94_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const MARIA = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '52998224725',
  phone: '11987654321',
  personType: 'fisica',
};
const JOAO = {
  name: 'João Lima',
  email: 'joao@example.com',
  document: '11144477735',
  phone: '21987654321',
  personType: 'fisica',
};

/** A card expiry two years after the runtime clock's year. */
const expiry = () => ({
  expiryMonth: 12,
  expiryYear: Number(saoPauloDate(runtime.clock.now()).slice(0, 4)) + 2,
});

function expectStatus(res: { status: number; body: unknown }, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
}

/**
 * A buyer's card saved the way a buyer saves it (a card sale with saveCard) and a monthly
 * subscription on it through the API; answers the customer, the card and the subscription.
 */
async function subscriber(
  s: { key: string; product: { id: number; uuid: string }; priceId: number },
  buyer: typeof MARIA,
  number = '4111111111111111',
) {
  const customer = (await api.post('/api/v1/customers', buyer, { token: s.key })).body;
  const sale = await api.post('/api/transactions', {
    productId: s.product.uuid,
    paymentMethod: 'creditcard',
    customer: { name: buyer.name, email: buyer.email, phone: buyer.phone, document: buyer.document },
    card: { number, holderName: buyer.name.toUpperCase(), ...expiry(), cvv: '123' },
    saveCard: true,
  });
  expectStatus(sale, 201);
  const cards = (await api.get(`/api/v1/customers/${customer.uuid}/payment-methods`, { token: s.key })).body
    .data;
  const card = cards.find((m: { last4: string }) => m.last4 === number.slice(-4));
  const sub = await api.post(
    '/api/subscriptions',
    { customerId: customer.id, priceId: s.priceId, paymentMethodId: card.id },
    { token: s.key },
  );
  expectStatus(sub, 201);
  expect(sub.body.status).toBe('active');
  return { customer, card, subscription: sub.body };
}

/** A seller with a sandbox key, a product with a monthly price, and Maria subscribed to it. */
async function seller() {
  const { sellerId, jwt, key, product } = await fixtures.seller({
    product: { name: 'Clube do livro', value: 49.9, installments: 1 },
  });
  const price = await api.post(
    `/api/products/${product.id}/prices`,
    { name: 'Plano mensal', unitAmount: 49.9, billingInterval: 'month' },
    { token: key },
  );
  expectStatus(price, 201);
  const s = { sellerId, jwt, key, product, priceId: price.body.id as number };
  const maria = await subscriber(s, MARIA);
  return { ...s, maria };
}

type Seller = Awaited<ReturnType<typeof seller>>;

/** A portal session for Maria (the seller's configuration unless a product is named). */
async function portalToken(s: Seller, extra: Record<string, unknown> = {}) {
  const res = await api.post(
    '/api/portal/sessions',
    { customerId: s.maria.customer.id, ...extra },
    { token: s.key },
  );
  expectStatus(res, 201);
  return res.body.token as string;
}

const withToken = (path: string, token: string) => `${path}${path.includes('?') ? '&' : '?'}token=${token}`;
const portalGet = (path: string, token: string) => api.get(withToken(path, token));
const portalPost = (path: string, token: string, body?: unknown) => api.post(withToken(path, token), body);
const portalPut = (path: string, token: string, body: unknown) =>
  api.call('PUT', withToken(path, token), { body });
const subPath = (id: number, action: string) => `/api/portal/subscriptions/${id}/${action}`;

/** Sets the seller-level portal configuration (the defaults for every field left out). */
async function configure(s: Seller, fields: Record<string, unknown>) {
  expectStatus(await api.call('PUT', '/api/portal/configuration', { token: s.key, body: fields }), 200);
}

/** The seller's sandbox mail of one kind, newest first. */
async function mailOf(s: Seller, kind: string) {
  const res = await api.get(`/api/test-helpers/mail?to=${encodeURIComponent(MARIA.email)}`, { token: s.key });
  expectStatus(res, 200);
  return (res.body.data as { id: string; kind: string; subject: string }[]).filter((m) => m.kind === kind);
}

const readMail = async (s: Seller, id: string) =>
  (await api.get(`/api/test-helpers/mail/${id}`, { token: s.key })).body;

describe('POST /api/portal/sessions', () => {
  it('answers the session id, a pt_ token, an expiry one hour ahead and the portal URL', async () => {
    const s = await seller();
    const before = runtime.clock.now().getTime();
    const res = await api.post(
      '/api/portal/sessions',
      {
        customerId: s.maria.customer.id,
        productId: s.product.id,
        returnUrl: 'https://loja.example.com/conta',
      },
      { token: s.key },
    );

    expectStatus(res, 201);
    expect(res.body).toEqual({
      sessionId: expect.any(Number),
      token: expect.stringMatching(/^pt_[0-9A-Za-z]{43}$/),
      expiresAt: expect.any(String),
      portalUrl: `${runtime.baseUrl}/portal?token=${res.body.token}`,
    });
    // The local clock also moves at wall-clock speed: the expiry is one hour after the request's instant.
    const lifetime = Date.parse(res.body.expiresAt) - before;
    expect(lifetime).toBeGreaterThanOrEqual(3_600_000);
    expect(lifetime).toBeLessThan(3_600_000 + (runtime.clock.now().getTime() - before) + 1);
    const portal = await portalGet('/api/portal', res.body.token);
    expectStatus(portal, 200);
    expect(portal.body).toMatchObject({
      sessionId: res.body.sessionId,
      returnUrl: 'https://loja.example.com/conta',
    });
    // The token is shown once: the answer that reads the session does not show it again.
    expect(JSON.stringify(portal.body)).not.toContain(res.body.token.slice(3));
  });

  it('names each bad field with 400, and plain-HTTP return URLs only to this machine', async () => {
    const s = await seller();
    const post = (body: unknown) => api.post('/api/portal/sessions', body, { token: s.key });

    expect((await post({})).body.message).toEqual(['customerId is required']);
    expect((await post({ customerId: 'x' })).body.message).toEqual([
      'customerId must be a customer id (a positive integer)',
    ]);
    expect((await post({ customerId: s.maria.customer.id, productId: -1 })).body.message).toEqual([
      'productId must be a product id (a positive integer)',
    ]);
    const insecure = await post({ customerId: s.maria.customer.id, returnUrl: 'http://loja.example.com/' });
    expectStatus(insecure, 400);
    expect(insecure.body.message).toEqual(['returnUrl must use HTTPS']);
    expect((await post({ customerId: s.maria.customer.id, returnUrl: 'nada' })).body.message).toEqual([
      'returnUrl must be a valid URL',
    ]);
    expectStatus(
      await post({ customerId: s.maria.customer.id, returnUrl: 'http://localhost:3000/conta' }),
      201,
    );
  });

  it("answers 404 for another seller's customer or product, and 401 without an API key", async () => {
    const s = await seller();
    const other = await seller();

    // Customers are global per document: João is known to the other seller only.
    const joao = (await api.post('/api/v1/customers', JOAO, { token: other.key })).body;
    const customer = await api.post('/api/portal/sessions', { customerId: joao.id }, { token: s.key });
    expectStatus(customer, 404);
    expect(customer.body.message).toBe('Customer not found');
    const product = await api.post(
      '/api/portal/sessions',
      { customerId: s.maria.customer.id, productId: other.product.id },
      { token: s.key },
    );
    expectStatus(product, 404);
    expect(product.body.message).toBe('Product not found');
    expectStatus(await api.post('/api/portal/sessions', { customerId: s.maria.customer.id }), 401);
    // The dashboard token is not an API key: the spec names the API key for this route.
    expectStatus(
      await api.post('/api/portal/sessions', { customerId: s.maria.customer.id }, { token: s.jwt }),
      401,
    );
  });

  it('never writes the token to a log line, though it is used in query strings', async () => {
    const s = await seller();
    const token = await portalToken(s);
    expectStatus(await portalGet('/api/portal', token), 200);
    expectStatus(await portalGet(subPath(s.maria.subscription.id, 'events'), token), 200);
    expectStatus(await portalGet(subPath(999_999, 'events'), token), 404);

    expect(logLines.some((line) => line.includes('/api/portal'))).toBe(true);
    expect(logLines.filter((line) => line.includes(token.slice(3)))).toEqual([]);
  });
});

describe('the portal token', () => {
  it('stops working after one hour (401 token_expired, in Portuguese)', async () => {
    const s = await seller();
    const token = await portalToken(s);
    await api.post('/api/test-helpers/clock/advance', { seconds: 3_540 });
    expectStatus(await portalGet('/api/portal', token), 200);

    await api.post('/api/test-helpers/clock/advance', { seconds: 61 });

    const expired = await portalGet('/api/portal', token);
    expectStatus(expired, 401);
    expect(expired.body).toMatchObject({
      code: 'token_expired',
      message: 'Este link de acesso expirou. Peça um novo.',
    });
    expectStatus(await portalPost(subPath(s.maria.subscription.id, 'cancel'), token), 401);
  });

  it('answers 401 for an unknown, malformed or missing token, and for the token in the Authorization header', async () => {
    const s = await seller();
    const token = await portalToken(s);

    for (const [path, code] of [
      [withToken('/api/portal', `pt_${'A'.repeat(43)}`), 'token_invalid'],
      [withToken('/api/portal', 'sk_test_nope'), 'token_invalid'],
      ['/api/portal', 'token_missing'],
    ]) {
      const res = await api.get(path);
      expectStatus(res, 401);
      expect(res.body.code).toBe(code);
      expect(res.body.message).toMatch(/^Este link de acesso/);
    }
    expectStatus(await api.get('/api/portal', { token }), 401);
    expectStatus(await api.get(withToken('/api/portal', s.key)), 401);
  });
});

describe('GET /api/portal', () => {
  it("shows the customer, the configuration, the customer's subscriptions with their actions and cards", async () => {
    const s = await seller();
    await configure(s, {
      businessName: 'Livraria Boa',
      primaryColor: '#112233',
      allowUpdateBillingInfo: false,
    });
    const token = await portalToken(s);

    const res = await portalGet('/api/portal', token);

    expectStatus(res, 200);
    expect(res.body.customer).toEqual({
      id: s.maria.customer.id,
      uuid: s.maria.customer.uuid,
      name: 'Maria Souza',
      email: 'maria@example.com',
      phone: '11987654321',
      document: '52998224725',
    });
    expect(res.body.configuration).toMatchObject({
      source: 'seller',
      businessName: 'Livraria Boa',
      primaryColor: '#112233',
      allowUpdateBillingInfo: false,
      allowCancelSubscription: true,
    });
    expect(res.body.subscriptions).toEqual([
      expect.objectContaining({
        id: s.maria.subscription.id,
        status: 'active',
        subscriptionPrice: expect.objectContaining({ name: 'Plano mensal', unitAmount: 49.9 }),
        actions: {
          cancel: true,
          pause: true,
          resume: false,
          reactivate: false,
          updatePaymentMethod: true,
          viewInvoices: true,
        },
        cancelRules: { atPeriodEndOnly: false, reasonRequired: false },
      }),
    ]);
    expect(res.body.paymentMethods).toEqual([
      expect.objectContaining({ id: s.maria.card.id, last4: '1111' }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain('tok_');
  });

  it("shows only the session customer's subscriptions, and the product's configuration when the session names it", async () => {
    const s = await seller();
    const joao = await subscriber(s, JOAO);
    const productConfig = await api.post(
      `/api/products/${s.product.id}/portal-config`,
      { allowCancelSubscription: false },
      { token: s.key },
    );
    expectStatus(productConfig, 200);

    const res = await portalGet('/api/portal', await portalToken(s, { productId: s.product.id }));

    expect(res.body.subscriptions.map((x: { id: number }) => x.id)).toEqual([s.maria.subscription.id]);
    expect(res.body.subscriptions.map((x: { id: number }) => x.id)).not.toContain(joao.subscription.id);
    expect(res.body.configuration).toMatchObject({ source: 'product', allowCancelSubscription: false });
    expect(res.body.subscriptions[0].actions).toMatchObject({ cancel: false, pause: false });
  });
});

describe('portal actions and their flags', () => {
  it('cancels now by default and e-mails the customer with the custom message', async () => {
    const s = await seller();
    await configure(s, { businessName: 'Livraria Boa', customCancellationMessage: 'Sentiremos sua falta!' });
    const token = await portalToken(s);

    const res = await portalPost(subPath(s.maria.subscription.id, 'cancel'), token, { reason: 'Muito caro' });

    expectStatus(res, 200);
    expect(res.body).toMatchObject({ status: 'canceled', cancelReason: 'Muito caro' });
    expect(res.body.actions).toMatchObject({ cancel: false, reactivate: true });
    const seen = (await api.get(`/api/subscriptions/${s.maria.subscription.id}`, { token: s.key })).body;
    expect(seen.status).toBe('canceled');
    const [mail] = await mailOf(s, 'subscription_cancellation');
    expect(mail.subject).toBe('[TESTE] Assinatura cancelada: Clube do livro');
    const body = await readMail(s, mail.id);
    expect(body.text).toContain('Sentiremos sua falta!');
    expect(body.text).toContain('fale com Livraria Boa');
  });

  it('accepts a cancel with no body at all', async () => {
    const s = await seller();
    const res = await portalPost(subPath(s.maria.subscription.id, 'cancel'), await portalToken(s));
    expectStatus(res, 200);
    expect(res.body.status).toBe('canceled');
  });

  it('cancels at period end only with cancelAtPeriodEndOnly, and sends no e-mail when sendCancellationEmail is off', async () => {
    const s = await seller();
    await configure(s, { cancelAtPeriodEndOnly: true, sendCancellationEmail: false });

    const res = await portalPost(subPath(s.maria.subscription.id, 'cancel'), await portalToken(s), {
      atPeriodEnd: false,
    });

    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      status: 'pending_cancellation',
      cancelAtPeriodEnd: true,
      cancelAt: s.maria.subscription.currentPeriodEnd,
    });
    expect(await mailOf(s, 'subscription_cancellation')).toEqual([]);
  });

  it('requires a reason with requireCancelReason (400 naming reason)', async () => {
    const s = await seller();
    await configure(s, { requireCancelReason: true });
    const token = await portalToken(s);

    const refused = await portalPost(subPath(s.maria.subscription.id, 'cancel'), token);
    expectStatus(refused, 400);
    expect(refused.body.message).toEqual(['reason is required']);
    expectStatus(
      await portalPost(subPath(s.maria.subscription.id, 'cancel'), token, { reason: 'Mudei de plano' }),
      200,
    );
  });

  it('pauses, resumes and reactivates with allowCancelSubscription on', async () => {
    const s = await seller();
    const token = await portalToken(s);
    const id = s.maria.subscription.id;

    const paused = await portalPost(subPath(id, 'pause'), token);
    expectStatus(paused, 200);
    expect(paused.body.pauseCollection).toMatchObject({ behavior: 'void' });
    const resumed = await portalPost(subPath(id, 'resume'), token);
    expectStatus(resumed, 200);
    expect(resumed.body.pauseCollection).toBeNull();
    expectStatus(await portalPost(subPath(id, 'cancel'), token, { atPeriodEnd: true }), 200);
    const reactivated = await portalPost(subPath(id, 'reactivate'), token);
    expectStatus(reactivated, 200);
    expect(reactivated.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    const refused = await portalPost(subPath(id, 'resume'), token);
    expectStatus(refused, 409);
    expect(refused.body).toMatchObject({
      code: 'invalid_transition',
      message: 'Esta assinatura não permite esta ação na situação em que está.',
    });
  });

  it('answers 403 (in Portuguese) for cancel, pause, resume and reactivate without allowCancelSubscription', async () => {
    const s = await seller();
    await configure(s, { allowCancelSubscription: false });
    const token = await portalToken(s);

    for (const action of ['cancel', 'pause', 'resume', 'reactivate']) {
      const res = await portalPost(subPath(s.maria.subscription.id, action), token);
      expectStatus(res, 403);
      expect(res.body.message).toBe('Esta ação não está disponível para esta assinatura.');
    }
    const seen = (await api.get(`/api/subscriptions/${s.maria.subscription.id}`, { token: s.key })).body;
    expect(seen).toMatchObject({ status: 'active', pauseCollection: null });
  });

  it("answers 404 (in Portuguese) for another customer's subscription, in every action", async () => {
    const s = await seller();
    const joao = await subscriber(s, JOAO);
    const token = await portalToken(s);
    const id = joao.subscription.id;

    for (const res of [
      await portalPost(subPath(id, 'cancel'), token),
      await portalPost(subPath(id, 'pause'), token),
      await portalPost(subPath(id, 'update-payment-method'), token, { paymentMethodId: s.maria.card.id }),
      await portalGet(subPath(id, 'events'), token),
      await portalPost(subPath(id, 'add-card-and-update'), token, {
        cardNumber: '4242424242424242',
        holderName: 'MARIA',
        ...expiry(),
        cvv: '123',
      }),
    ]) {
      expectStatus(res, 404);
      expect(res.body.message).toBe('Assinatura não encontrada.');
    }
    expect((await api.get(`/api/subscriptions/${id}`, { token: s.key })).body.status).toBe('active');
  });

  it('switches to another saved card, e-mails the customer, and refuses a card of another customer (404)', async () => {
    const s = await seller();
    const joao = await subscriber(s, JOAO);
    const second = await subscriber(s, MARIA, '5555555555554444');
    const token = await portalToken(s);

    const foreign = await portalPost(subPath(s.maria.subscription.id, 'update-payment-method'), token, {
      paymentMethodId: joao.card.id,
    });
    expectStatus(foreign, 404);
    expect(foreign.body.message).toBe('Cartão não encontrado.');
    expect(await mailOf(s, 'payment_method_updated')).toEqual([]);

    const res = await portalPost(subPath(s.maria.subscription.id, 'update-payment-method'), token, {
      paymentMethodId: second.card.id,
    });
    expectStatus(res, 200);
    expect(res.body.paymentMethod).toEqual({
      id: second.card.id,
      cardLast4: '4444',
      cardBrand: 'mastercard',
    });
    const [mail] = await mailOf(s, 'payment_method_updated');
    expect(mail.subject).toBe('[TESTE] Forma de pagamento atualizada: Clube do livro');
    expect((await readMail(s, mail.id)).text).toContain('Cartão de crédito Mastercard final 4444');
  });

  it('answers 403 for both card routes without allowUpdatePaymentMethod; no e-mail without sendPaymentMethodUpdatedEmail', async () => {
    const s = await seller();
    const second = await subscriber(s, MARIA, '5555555555554444');
    await configure(s, { allowUpdatePaymentMethod: false });
    let token = await portalToken(s);
    const update = await portalPost(subPath(s.maria.subscription.id, 'update-payment-method'), token, {
      paymentMethodId: second.card.id,
    });
    expectStatus(update, 403);
    const add = await portalPost(subPath(s.maria.subscription.id, 'add-card-and-update'), token, {
      cardNumber: '4242424242424242',
      holderName: 'MARIA SOUZA',
      ...expiry(),
      cvv: '123',
    });
    expectStatus(add, 403);

    await configure(s, { sendPaymentMethodUpdatedEmail: false });
    token = await portalToken(s);
    expectStatus(
      await portalPost(subPath(s.maria.subscription.id, 'update-payment-method'), token, {
        paymentMethodId: second.card.id,
      }),
      200,
    );
    expect(await mailOf(s, 'payment_method_updated')).toEqual([]);
  });

  it('adds a test card and switches the subscription to it; a declined card is 400 in Portuguese; no number in any log', async () => {
    const s = await seller();
    const token = await portalToken(s);
    const path = subPath(s.maria.subscription.id, 'add-card-and-update');
    const body = { holderName: 'MARIA SOUZA', ...expiry(), cvv: '321' };

    const declined = await portalPost(path, token, { ...body, cardNumber: '4000000000000002' });
    expectStatus(declined, 400);
    expect(declined.body).toMatchObject({
      code: 'card_declined',
      message: 'Cartão recusado. Tente outro cartão ou outra forma de pagamento.',
    });

    const added = await portalPost(path, token, { ...body, cardNumber: '4242 4242 4242 4242' });
    expectStatus(added, 200);
    expect(added.body.paymentMethod).toMatchObject({ cardLast4: '4242', cardBrand: 'visa' });
    expect(added.body.paymentMethod.id).not.toBe(s.maria.card.id);
    const cards = (
      await api.get(`/api/v1/customers/${s.maria.customer.uuid}/payment-methods`, { token: s.key })
    ).body.data;
    expect(cards.map((c: { last4: string }) => c.last4).sort()).toEqual(['1111', '4242']);
    expect((await mailOf(s, 'payment_method_updated')).length).toBe(1);
    const numbers = ['4242424242424242', '4242 4242 4242 4242', '4000000000000002'];
    expect(logLines.filter((line) => numbers.some((n) => line.includes(n)))).toEqual([]);
  });

  it("shows the subscription's history with allowViewInvoices, and 403 without it", async () => {
    const s = await seller();
    const token = await portalToken(s);

    const events = await portalGet(subPath(s.maria.subscription.id, 'events'), token);
    expectStatus(events, 200);
    expect(events.body.map((e: { eventType: string }) => e.eventType)).toContain('payment_success');

    await configure(s, { allowViewInvoices: false });
    const refused = await portalGet(subPath(s.maria.subscription.id, 'events'), token);
    expectStatus(refused, 403);
    expect(refused.body.message).toBe('Esta ação não está disponível para esta assinatura.');
  });

  it("changes the customer's data with allowUpdateBillingInfo, validated as the customers API; 403 without it", async () => {
    const s = await seller();
    const token = await portalToken(s);

    const res = await portalPut('/api/portal/customer-info', token, {
      name: 'Maria S. Lima',
      email: 'maria.lima@example.com',
      phone: '(21) 99876-5432',
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      name: 'Maria S. Lima',
      email: 'maria.lima@example.com',
      phone: '21998765432',
    });
    const listed = (await api.get('/api/v1/customers?search=Maria', { token: s.key })).body.data;
    expect(listed).toEqual([
      expect.objectContaining({ uuid: s.maria.customer.uuid, name: 'Maria S. Lima', phone: '21998765432' }),
    ]);

    const bad = await portalPut('/api/portal/customer-info', token, { email: 'nope', document: '1' });
    expectStatus(bad, 400);
    expect(bad.body.message).toEqual(expect.arrayContaining(['document is not allowed']));

    await configure(s, { allowUpdateBillingInfo: false });
    const refused = await portalPut('/api/portal/customer-info', token, { name: 'Outra' });
    expectStatus(refused, 403);
    expect(refused.body.message).toBe('Esta ação não está disponível para esta assinatura.');
  });
});

describe("each subscription follows its own product's portal configuration", () => {
  /**
   * The seller's first product (Maria's subscription) forbids every portal action; a second
   * product, with no configuration of its own, allows them; Maria subscribes to it too.
   */
  async function twoProducts() {
    const s = await seller();
    const forbidding = await api.post(
      `/api/products/${s.product.id}/portal-config`,
      {
        allowCancelSubscription: false,
        allowUpdatePaymentMethod: false,
        allowViewInvoices: false,
      },
      { token: s.key },
    );
    expectStatus(forbidding, 200);
    const other = (
      await api.post(
        '/api/products',
        { name: 'Revista', image: 'https://cdn.example.com/r.png', value: 19.9, installments: 1 },
        { token: s.key },
      )
    ).body;
    const price = await api.post(
      `/api/products/${other.id}/prices`,
      { name: 'Plano mensal', unitAmount: 19.9, billingInterval: 'month' },
      { token: s.key },
    );
    expectStatus(price, 201);
    const sub = await api.post(
      '/api/subscriptions',
      { customerId: s.maria.customer.id, priceId: price.body.id, paymentMethodId: s.maria.card.id },
      { token: s.key },
    );
    expectStatus(sub, 201);
    return { ...s, other, otherSubscriptionId: sub.body.id as number };
  }

  it("refuses, with a session made for another product, every action the subscription's product forbids", async () => {
    const s = await twoProducts();
    // A session for the product that allows everything, used on the forbidding product's subscription.
    const token = await portalToken(s, { productId: s.other.id });
    const id = s.maria.subscription.id;

    for (const action of ['pause', 'cancel', 'resume', 'reactivate']) {
      const res = await portalPost(subPath(id, action), token);
      expectStatus(res, 403);
      expect(res.body.message).toBe('Esta ação não está disponível para esta assinatura.');
    }
    expectStatus(
      await portalPost(subPath(id, 'update-payment-method'), token, { paymentMethodId: s.maria.card.id }),
      403,
    );
    const card = { holderName: 'MARIA SOUZA', ...expiry(), cvv: '123', cardNumber: '4242424242424242' };
    expectStatus(await portalPost(subPath(id, 'add-card-and-update'), token, card), 403);
    expectStatus(await portalGet(subPath(id, 'events'), token), 403);

    const seen = (await api.get(`/api/subscriptions/${id}`, { token: s.key })).body;
    expect(seen).toMatchObject({ status: 'active', pauseCollection: null });
    const cards = (
      await api.get(`/api/v1/customers/${s.maria.customer.uuid}/payment-methods`, { token: s.key })
    ).body.data;
    expect(cards.map((c: { last4: string }) => c.last4)).toEqual(['1111']);
  });

  it("shows each subscription's actions by its own product's configuration", async () => {
    const s = await twoProducts();

    for (const token of [await portalToken(s), await portalToken(s, { productId: s.other.id })]) {
      const res = await portalGet('/api/portal', token);
      expectStatus(res, 200);
      const byId = new Map(
        res.body.subscriptions.map((x: { id: number; actions: unknown }) => [x.id, x.actions]),
      );
      expect(byId.get(s.maria.subscription.id)).toEqual({
        cancel: false,
        pause: false,
        resume: false,
        reactivate: false,
        updatePaymentMethod: false,
        viewInvoices: false,
      });
      expect(byId.get(s.otherSubscriptionId)).toEqual({
        cancel: true,
        pause: true,
        resume: false,
        reactivate: false,
        updatePaymentMethod: true,
        viewInvoices: true,
      });
    }
  });

  it("draws the page, also right after an action, with each subscription's own product's buttons", async () => {
    const s = await twoProducts();
    const token = await portalToken(s, { productId: s.other.id });
    const id = s.maria.subscription.id;
    const other = s.otherSubscriptionId;

    for (const query of ['', `&updated=${id}`, `&updated=${other}`]) {
      const res = await fetch(`${runtime.baseUrl}/portal?token=${token}${query}`);
      expect(res.status).toBe(200);
      const page = await res.text();
      for (const action of ['pause', 'open-cancel', 'open-card', 'history'])
        expect(page, `${action}${query}`).not.toContain(`data-action="${action}" data-subscription="${id}"`);
      for (const action of ['pause', 'open-cancel', 'open-card', 'history'])
        expect(page, `${action}${query}`).toContain(`data-action="${action}" data-subscription="${other}"`);
    }
  });

  it("lets a session made for the forbidding product act on another product's subscription that allows it", async () => {
    const s = await twoProducts();
    const token = await portalToken(s, { productId: s.product.id });

    const paused = await portalPost(subPath(s.otherSubscriptionId, 'pause'), token);

    expectStatus(paused, 200);
    expect(paused.body.pauseCollection).toMatchObject({ behavior: 'void' });
    expectStatus(await portalPost(subPath(s.maria.subscription.id, 'pause'), token), 403);
  });
});
