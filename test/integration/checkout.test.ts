import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { buyer, card, prefill } from '../support/checkout-fixtures';
import { sellerFixtures } from '../support/fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { type client, logLines, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let receiver: Receiver;
const fixtures = sellerFixtures(() => ({ runtime, api }), 110_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});
beforeAll(async () => {
  receiver = await new Receiver().start();
});
afterAll(() => receiver?.stop());

const seller = (overrides: Record<string, unknown> = {}) =>
  fixtures.seller({ product: { installments: 6, ...overrides } });

async function session(s: { key: string; product: { id: number } }, extra: Record<string, unknown> = {}) {
  const res = await api.post(
    '/api/checkout/sessions',
    {
      product_id: s.product.id,
      customer: prefill,
      success_url: 'https://shop.example.com/ok?session={SESSION_ID}',
      cancel_url: 'https://shop.example.com/cart',
      metadata: { order: 'A-1' },
      client_reference_id: 'order-A-1',
      ...extra,
    },
    { token: s.key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function subscribe(key: string) {
  const res = await api.post(
    '/api/webhook-endpoints',
    { url: receiver.url, events: ['checkout.session.completed', 'checkout.session.expired'] },
    { token: key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const eventsFor = (name: string, id: string) =>
  receiver.received.filter((r) => r.json?.event === name && r.json?.data?.id === id);

describe('creating a checkout session', () => {
  it('answers 201 with the session unwrapped, open for 24 hours, every method of the product', async () => {
    const s = await seller();
    const cs = await session(s);
    expect(cs).toMatchObject({
      object: 'checkout.session',
      status: 'open',
      url: `${runtime.baseUrl}/checkout/${cs.id}`,
      product_id: s.product.id,
      price_id: null,
      customer_email: 'maria@example.com',
      customer_name: 'Maria Souza',
      payment_methods: ['pix', 'boleto', 'card'],
      metadata: { order: 'A-1' },
      success_url: 'https://shop.example.com/ok?session={SESSION_ID}',
      cancel_url: 'https://shop.example.com/cart',
      client_reference_id: 'order-A-1',
      affiliate_id: null,
      transaction_id: null,
      completed_at: null,
    });
    expect(cs.id).toMatch(/^cs_test_[A-Za-z0-9]{24}[0-9a-f]{32}$/);
    // Masked input is normalized as the customers API does it.
    expect(cs.customer['customer.document']).toBe('52998224725');
    expect(cs.customer['customer.phone']).toBe('11987654321');
    expect(Date.parse(cs.expires_at) - Date.parse(cs.created_at)).toBe(86_400_000);
  });

  it('refuses with a 400 naming the field', async () => {
    const s = await seller();
    const other = await seller();
    const zero = (
      await api.post(
        '/api/products',
        { name: 'Grátis', image: 'https://x.example/i.png', value: 0 },
        { token: s.key },
      )
    ).body;
    const noBoleto = (
      await api.post(
        '/api/products',
        { name: 'Só pix', image: 'https://x.example/i.png', value: 10, boleto: false, creditCard: false },
        { token: s.key },
      )
    ).body;
    const gone = (
      await api.post(
        '/api/products',
        { name: 'Velho', image: 'https://x.example/i.png', value: 10 },
        { token: s.key },
      )
    ).body;
    await api.call('DELETE', `/api/products/${gone.id}`, { token: s.key });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ product_id: other.product.id }, /^product_id names no product/],
      [{ product_id: gone.id }, /^product_id names a deactivated product/],
      [{ product_id: zero.id }, /^product_id names a product with no price/],
      [
        { product_id: noBoleto.id, payment_methods: ['pix', 'boleto'] },
        /^payment_methods: this product does not accept boleto/,
      ],
      [{ payment_methods: ['cash'] }, /^payment_methods\.0 must be one of/],
      [{ success_url: 'http://shop.example.com/ok' }, /^success_url must use HTTPS/],
      [{ cancel_url: 'not a url' }, /^cancel_url must be a valid URL/],
      [{ price_id: 'price_123' }, /^price_id names no active subscription price/],
      [
        { expires_at: new Date(runtime.clock.now().getTime() + 10 * 60_000).toISOString() },
        /^expires_at must be from 30 minutes to 7 days/,
      ],
      [{ expires_at: 'tomorrow' }, /^expires_at must be an ISO 8601 date-time/],
      [
        { customer: { 'customer.document': '123' } },
        /^customer\.customer\.document is not a valid CPF or CNPJ/,
      ],
      [{ customer: { 'customer.email': 'nope' } }, /^customer\.customer\.email must be a valid e-mail/],
      [{ customer: { email: 'a@b.co' } }, /^customer\.email is not allowed/],
      [{ metadata: { order: 7 } }, /^metadata\.order must be a string/],
      [{ affiliate_id: other.sellerId }, /^affiliate_id must be an active affiliate of the product/],
      [{ product_id: 'one' }, /^product_id must be a number/],
    ];
    for (const [patch, message] of cases) {
      const res = await api.post(
        '/api/checkout/sessions',
        { product_id: s.product.id, ...patch },
        { token: s.key },
      );
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.message.join(' | '), JSON.stringify(patch)).toMatch(message);
    }
    // Nothing was written by any refusal.
    const list = await api.get('/api/checkout/sessions', { token: s.key });
    expect(list.body.totalCount).toBe(0);
  });

  it('accepts plain-HTTP redirects to this machine in the local runtime only', async () => {
    const s = await seller();
    const cs = await session(s, { success_url: 'http://127.0.0.1:9/ok?s={SESSION_ID}' });
    expect(cs.success_url).toBe('http://127.0.0.1:9/ok?s={SESSION_ID}');
  });

  it('refuses a live session with 503 while no live provider is configured', async () => {
    const s = await seller();
    const live = (await api.post('/api/api-keys', { name: 'live', environment: 'live' }, { token: s.jwt }))
      .body.key;
    const product = (
      await api.post(
        '/api/products',
        { name: 'Curso', image: 'https://x.example/i.png', value: 10 },
        { token: live },
      )
    ).body;
    const res = await api.post('/api/checkout/sessions', { product_id: product.id }, { token: live });
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/^No payment provider is configured for live payments/);
  });

  it('returns the original session for a repeated X-Idempotency-Key', async () => {
    const s = await seller();
    const body = { product_id: s.product.id };
    const headers = { 'x-idempotency-key': 'cs-key-1' };
    const first = await api.post('/api/checkout/sessions', body, { token: s.key, headers });
    const again = await api.post('/api/checkout/sessions', body, { token: s.key, headers });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
  });

  it('accepts the dashboard JWT too, and refuses without credentials', async () => {
    const s = await seller();
    const viaJwt = await api.post(
      '/api/checkout/sessions',
      { product_id: s.product.id },
      { token: s.jwt, headers: { 'x-environment': 'test' } },
    );
    expect(viaJwt.status).toBe(201);
    const none = await api.post('/api/checkout/sessions', { product_id: s.product.id });
    expect(none.status).toBe(401);
  });
});

describe('reading and expiring a session', () => {
  it('wraps the session in data, and answers a foreign or unknown one as not found', async () => {
    const s = await seller();
    const other = await seller();
    const cs = await session(s);
    const read = await api.get(`/api/checkout/sessions/${cs.id}`, { token: s.key });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(cs);
    for (const [id, key] of [
      [cs.id, other.key],
      ['cs_test_missing', s.key],
      ['x'.repeat(80), s.key],
    ]) {
      const res = await api.get(`/api/checkout/sessions/${id}`, { token: key });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Checkout session not found');
    }
    expect((await api.get(`/api/checkout/sessions/${cs.id}`)).body).toMatchObject({
      statusCode: 401,
      message: 'API key is required',
    });
  });

  it('expires an open session once, emits checkout.session.expired, and answers 409 after', async () => {
    const s = await seller();
    await subscribe(s.key);
    const cs = await session(s);
    const first = await api.post(`/api/checkout/sessions/${cs.id}/expire`, {}, { token: s.key });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ id: cs.id, status: 'expired', transaction_id: null });
    const second = await api.post(`/api/checkout/sessions/${cs.id}/expire`, {}, { token: s.key });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe('Session cannot be expired');
    await waitFor(() => eventsFor('checkout.session.expired', cs.id).length === 1);
    expect(eventsFor('checkout.session.expired', cs.id)[0].json.data).toEqual({
      id: cs.id,
      status: 'expired',
      product_id: s.product.id,
      metadata: { order: 'A-1' },
      client_reference_id: 'order-A-1',
      expires_at: cs.expires_at,
    });
    const other = await seller();
    expect((await api.post(`/api/checkout/sessions/${cs.id}/expire`, {}, { token: other.key })).status).toBe(
      404,
    );
  });

  it('makes the pending pix of the session unpayable when it is expired by call', async () => {
    const s = await seller();
    const cs = await session(s);
    const pix = await api.post(`/api/public/checkout/${cs.id}/pay`, {
      paymentMethod: 'pix',
      customer: buyer,
    });
    expect(pix.status, JSON.stringify(pix.body)).toBe(201);
    expect(pix.body).toMatchObject({ status: 'pending', method: 'pix', redirectUrl: null });
    expect(pix.body.pix.qrCodeImage).toMatch(/^data:image\/svg\+xml;base64,/);
    await api.post(`/api/checkout/sessions/${cs.id}/expire`, {}, { token: s.key });
    const polled = await api.get(`/api/public/checkout/${cs.id}/payments/${pix.body.paymentId}`);
    expect(polled.body.status).toBe('canceled');
    const page = await api.get(`/api/public/checkout/${cs.id}`);
    expect(page.body).toMatchObject({ state: 'expired' });
    const late = await api.post(`/api/public/checkout/${cs.id}/pay`, {
      paymentMethod: 'pix',
      customer: buyer,
    });
    expect(late.status).toBe(409);
  });

  it('expires by time at expires_at, and the heartbeat expires one whose schedule was lost', async () => {
    const s = await seller();
    await subscribe(s.key);
    const in31 = () => new Date(runtime.clock.now().getTime() + 31 * 60_000).toISOString();
    const timed = await session(s, { expires_at: in31() });
    const lost = await session(s, { expires_at: in31() });
    await runtime.scheduler.cancel(`cs-expiry-${lost.id}`);
    const boleto = await api.post(`/api/public/checkout/${timed.id}/pay`, {
      paymentMethod: 'boleto',
      customer: buyer,
    });
    expect(boleto.body.status).toBe('pending');
    await api.post('/api/test-helpers/clock/advance', { seconds: 31 * 60 + 1 });
    await api.post('/api/test-helpers/clock/advance', { seconds: 600 });
    for (const cs of [timed, lost]) {
      expect((await api.get(`/api/checkout/sessions/${cs.id}`, { token: s.key })).body.data.status).toBe(
        'expired',
      );
      await waitFor(() => eventsFor('checkout.session.expired', cs.id).length === 1);
    }
    const tx = (await api.get(`/api/public/checkout/${timed.id}/payments/${boleto.body.paymentId}`)).body;
    expect(tx.status).toBe('canceled');
    // Firing again (the sweep keeps seeing the marker for hours) changes nothing more.
    await api.post('/api/test-helpers/clock/advance', { seconds: 600 });
    expect(eventsFor('checkout.session.expired', timed.id)).toHaveLength(1);
  });
});

describe('completing a session', () => {
  it('completes on an approved card with the transaction, once, and redirects to the success URL', async () => {
    const s = await seller();
    await subscribe(s.key);
    const cs = await session(s);
    const paid = await api.post(`/api/public/checkout/${cs.id}/pay`, {
      paymentMethod: 'card',
      customer: buyer,
      installments: 2,
      card: card('4111 1111 1111 1111'),
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body).toMatchObject({
      status: 'paid',
      method: 'card',
      installments: 2,
      card: { brand: 'visa', last4: '1111' },
      redirectUrl: `https://shop.example.com/ok?session=${cs.id}`,
    });
    const read = (await api.get(`/api/checkout/sessions/${cs.id}`, { token: s.key })).body.data;
    expect(read).toMatchObject({ status: 'complete' });
    expect(read.transaction_id).toEqual(expect.any(Number));
    const tx = (await api.get(`/api/transactions/${read.transaction_id}`, { token: s.key })).body;
    expect(tx).toMatchObject({
      status: 'captured',
      checkoutSessionId: cs.id,
      clientReferenceId: 'order-A-1',
      metadata: { order: 'A-1' },
    });
    await waitFor(() => eventsFor('checkout.session.completed', cs.id).length === 1);
    expect(eventsFor('checkout.session.completed', cs.id)[0].json.data).toEqual({
      id: cs.id,
      status: 'complete',
      product_id: s.product.id,
      transaction_id: read.transaction_id,
      customer_email: 'maria@example.com',
      metadata: { order: 'A-1' },
      client_reference_id: 'order-A-1',
      completed_at: read.completed_at,
    });
    const again = await api.post(`/api/public/checkout/${cs.id}/pay`, {
      paymentMethod: 'pix',
      customer: buyer,
    });
    expect(again.status).toBe(409);
    expect((await api.post(`/api/checkout/sessions/${cs.id}/expire`, {}, { token: s.key })).status).toBe(409);
    // The card number never reaches a log line.
    expect(logLines.join('\n')).not.toContain('4111111111111111');
  });

  it('leaves the session open after a declined card, saying "recusado" in Portuguese', async () => {
    const s = await seller();
    const cs = await session(s);
    const declined = await api.post(`/api/public/checkout/${cs.id}/pay`, {
      paymentMethod: 'card',
      customer: buyer,
      card: card('4000000000009995'),
    });
    expect(declined.status).toBe(201);
    expect(declined.body).toMatchObject({
      status: 'declined',
      failure: {
        code: 'card_declined',
        message: 'Cartão recusado. Tente outro cartão ou outra forma de pagamento.',
      },
      redirectUrl: null,
    });
    expect((await api.get(`/api/checkout/sessions/${cs.id}`, { token: s.key })).body.data.status).toBe(
      'open',
    );
    const approved = await api.post(`/api/public/checkout/${cs.id}/pay`, {
      paymentMethod: 'card',
      customer: buyer,
      card: card('5555555555554444'),
    });
    expect(approved.body.status).toBe('paid');
  });

  it('completes when the pix is paid, exactly once under concurrent notifications', async () => {
    const s = await seller();
    await subscribe(s.key);
    const cs = await session(s);
    const pix = (
      await api.post(`/api/public/checkout/${cs.id}/pay`, { paymentMethod: 'pix', customer: buyer })
    ).body;
    const done = await api.post(
      `/api/test-helpers/checkout/sessions/${cs.id}/pay`,
      { paymentMethod: 'pix' },
      { token: s.key },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'complete' });
    const polled = (await api.get(`/api/public/checkout/${cs.id}/payments/${pix.paymentId}`)).body;
    expect(polled).toMatchObject({
      status: 'paid',
      redirectUrl: `https://shop.example.com/ok?session=${cs.id}`,
    });
    const tx = (await api.get(`/api/transactions/${done.body.data.transaction_id}`, { token: s.key })).body;
    expect(tx.uuid).toBe(pix.paymentId);
    // A repeat and a second notification racing each other: still one completion.
    await Promise.all([
      api.post(`/api/test-helpers/transactions/${tx.id}/pay`, {}, { token: s.key }),
      api.post(`/api/test-helpers/transactions/${tx.id}/pay`, {}, { token: s.key }),
    ]);
    await waitFor(() => eventsFor('checkout.session.completed', cs.id).length >= 1);
    await api.post('/api/test-helpers/clock/advance', { seconds: 5 });
    expect(eventsFor('checkout.session.completed', cs.id)).toHaveLength(1);
  });

  it('pays a session by card through the sandbox helper without a browser', async () => {
    const s = await seller();
    const cs = await session(s);
    const res = await api.post(
      `/api/test-helpers/checkout/sessions/${cs.id}/pay`,
      { paymentMethod: 'card', card: card('4242424242424242') },
      { token: s.key },
    );
    expect(res.body.data).toMatchObject({ status: 'complete' });
    const again = await api.post(
      `/api/test-helpers/checkout/sessions/${cs.id}/pay`,
      { paymentMethod: 'card' },
      { token: s.key },
    );
    expect(again.status).toBe(409);
  });

  it('credits an active affiliate of the product with its commission', async () => {
    const s = await seller();
    const affiliate = {
      sellerId: await runtime.deps.repos.sellers.create('Afiliada', runtime.clock.now()),
    };
    const added = await api.post(
      `/api/products/${s.product.id}/affiliates`,
      { affiliateId: affiliate.sellerId, commissionPercent: 10 },
      { token: s.key },
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const cs = await session(s, { affiliate_id: affiliate.sellerId });
    expect(cs.affiliate_id).toBe(affiliate.sellerId);
    await api.post(
      `/api/test-helpers/checkout/sessions/${cs.id}/pay`,
      { paymentMethod: 'pix' },
      { token: s.key },
    );
    const read = (await api.get(`/api/checkout/sessions/${cs.id}`, { token: s.key })).body.data;
    const tx = (await api.get(`/api/transactions/${read.transaction_id}`, { token: s.key })).body;
    // Pix fee 0.99 % of R$ 100 = R$ 0.99; 10 % of the net R$ 99.01 = R$ 9.90 (half up).
    expect(tx.affiliate).toEqual({
      affiliateId: affiliate.sellerId,
      commissionPercent: 10,
      commission: 9.9,
      commissionReversed: 0,
      net: 9.9,
    });
    expect(tx.valueSeller).toBe(89.11);
  });
});

describe('listing sessions', () => {
  it('filters by status, product, e-mail and creation time, paged with totals', async () => {
    const s = await seller();
    const second = (
      await api.post(
        '/api/products',
        { name: 'Outro', image: 'https://x.example/i.png', value: 20 },
        { token: s.key },
      )
    ).body;
    const a = await session(s);
    await api.post('/api/test-helpers/clock/advance', { seconds: 10 });
    const b = await session(s, { customer: { 'customer.email': 'joao@example.com' } });
    await api.post('/api/test-helpers/clock/advance', { seconds: 10 });
    const c = await session({ key: s.key, product: second });
    await api.post(`/api/checkout/sessions/${a.id}/expire`, {}, { token: s.key });
    const ids = async (query: string) => {
      const res = await api.get(`/api/checkout/sessions${query}`, { token: s.key });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { ids: res.body.data.map((x: { id: string }) => x.id), body: res.body };
    };
    expect((await ids('')).ids).toEqual([c.id, b.id, a.id]);
    expect((await ids('?status=expired')).ids).toEqual([a.id]);
    expect((await ids('?status=open')).ids).toEqual([c.id, b.id]);
    expect((await ids(`?product_id=${s.product.id}`)).ids).toEqual([b.id, a.id]);
    expect((await ids(`?product_id=${s.product.id}&status=open`)).ids).toEqual([b.id]);
    expect((await ids('?customer_email=JOAO@example.com')).ids).toEqual([b.id]);
    expect(
      (
        await ids(
          `?created_from=${encodeURIComponent(b.created_at)}&created_to=${encodeURIComponent(b.created_at)}`,
        )
      ).ids,
    ).toEqual([b.id]);
    const page2 = await ids('?limit=2&page=2');
    expect(page2.ids).toEqual([a.id]);
    expect(page2.body).toMatchObject({ count: 1, totalCount: 3, totalPages: 2 });
    const bad = await api.get('/api/checkout/sessions?limit=101', { token: s.key });
    expect(bad.status).toBe(400);
    expect(bad.body.message[0]).toMatch(/^limit/);
    const other = await seller();
    expect((await api.get('/api/checkout/sessions', { token: other.key })).body.totalCount).toBe(0);
  });
});

describe('the public page routes', () => {
  it('describe a payment link and a session, and refuse unknown references', async () => {
    const s = await seller();
    const link = await api.get(`/api/public/checkout/${s.product.uuid}`);
    expect(link.body).toMatchObject({
      kind: 'product',
      state: 'open',
      product: { name: 'Curso', value: 100, methods: ['pix', 'boleto', 'card'], maxInstallments: 6 },
      payment: null,
    });
    const cs = await session(s, { payment_methods: ['pix'] });
    const page = await api.get(`/api/public/checkout/${cs.id}`);
    expect(page.body).toMatchObject({
      kind: 'session',
      state: 'open',
      product: { methods: ['pix'] },
      customer: { name: 'Maria Souza', document: '52998224725' },
      successUrl: `https://shop.example.com/ok?session=${cs.id}`,
    });
    const card = await api.post(`/api/public/checkout/${cs.id}/pay`, {
      paymentMethod: 'card',
      customer: buyer,
    });
    expect(card.status).toBe(400);
    expect(card.body.message).toEqual(['paymentMethod must be one of: pix']);
    for (const ref of ['cs_test_nope', '00000000-0000-4000-8000-000000000000']) {
      const res = await api.get(`/api/public/checkout/${ref}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Link de pagamento não encontrado.');
    }
  });

  it('names the buyer field that is wrong, and writes nothing', async () => {
    const s = await seller();
    const res = await api.post(`/api/public/checkout/${s.product.uuid}/pay`, {
      paymentMethod: 'pix',
      customer: { ...buyer, document: '111' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(['customer.document is not a valid CPF or CNPJ']);
    expect((await api.get('/api/transactions', { token: s.key })).body.data).toHaveLength(0);
  });
});

describe('saving the card', () => {
  it('keeps an approved card paid with save_card as the customer payment method, never the number', async () => {
    const s = await seller();
    const cs = await session(s);
    const res = await api.post(
      `/api/test-helpers/checkout/sessions/${cs.id}/pay`,
      { paymentMethod: 'card', card: card('5555555555554444'), save_card: true },
      { token: s.key },
    );
    expect(res.body.data.status).toBe('complete');
    const customers = await api.get('/api/v1/customers?search=52998224725', { token: s.key });
    const uuid = customers.body.data[0].uuid;
    const methods = await api.get(`/api/v1/customers/${uuid}/payment-methods`, { token: s.key });
    expect(methods.status).toBe(200);
    expect(methods.body.data).toHaveLength(1);
    expect(methods.body.data[0]).toMatchObject({ brand: 'mastercard', last4: '4444', status: 'active' });
    expect(JSON.stringify(methods.body)).not.toContain('5555555555554444');
    expect(JSON.stringify(methods.body)).not.toMatch(/token/i);
  });

  it('refuses save_card for a pix payment with a 400 naming it', async () => {
    const s = await seller();
    const res = await api.post(`/api/transactions`, {
      productId: s.product.uuid,
      paymentMethod: 'pix',
      customer: buyer,
      saveCard: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(['saveCard applies to creditcard payments only']);
  });
});
