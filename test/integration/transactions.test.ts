import { describe, expect, it } from 'vitest';
import { signatureHeader } from '#events/signing';
import type { Runtime } from '#infra/local/runtime';
import { saoPauloDate } from '#shared/dates';
import { parseDigitableLine } from '#shared/domain/payments/boleto';
import { parsePixPayload } from '#shared/domain/payments/pix';
import { card } from '../support/checkout-fixtures';
import { sellerFixtures } from '../support/fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { type client, logLines, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 80_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const buyer = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '11987654321',
};

async function seller(environment: 'test' | 'live' = 'test') {
  const s = await fixtures.seller({ environment, product: { installments: 6 } });
  return { ...s, jwtTest: { token: s.jwt, headers: { 'x-environment': environment } } };
}

async function buy(
  productUuid: string,
  paymentMethod: string,
  extra: Record<string, unknown> = {},
  headers = {},
) {
  return api.post(
    '/api/transactions',
    { productId: productUuid, paymentMethod, customer: buyer, ...extra },
    { headers },
  );
}

describe('creating transactions', () => {
  it('answers a pix transaction with a valid BR Code and an expiry', async () => {
    const s = await seller();
    const res = await buy(s.product.uuid, 'pix');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      status: 'pendingPix',
      value: 100,
      valueSeller: 99.01,
      paymentMethod: 'pix',
    });
    const fields = parsePixPayload(res.body.pix.qrCode);
    expect(fields).toMatchObject({ gui: 'br.gov.bcb.pix', currency: '986', amount: '100.00', country: 'BR' });
    expect(fields.txid).toBe(res.body.pix.txid);
    expect(Date.parse(res.body.pix.expiresAt) - Date.parse(res.body.createdAt)).toBe(86_400_000);
    expect(res.body.customer).toMatchObject({ name: 'Maria Souza', document: '52998224725' });
  });

  it('answers a boleto whose line passes the FEBRABAN checks, with a real PDF', async () => {
    const s = await seller();
    const res = await buy(s.product.uuid, 'boleto');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'pendingBoleto', valueSeller: 96.51 });
    const today = saoPauloDate(runtime.clock.now());
    const parsed = parseDigitableLine(res.body.boleto.digitableLine, today);
    expect(parsed.amountCentavos).toBe(10_000);
    expect(parsed.dueDate).toBe(res.body.boleto.dueDate);
    expect(parsed.barcode).toBe(res.body.boleto.barcode);
    const pdf = await fetch(res.body.boleto.pdfUrl);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 8).toString()).toBe('%PDF-1.4');
    // Gateway ids are sequential: without the link's token the document is not served.
    const guessed = res.body.boleto.pdfUrl.replace(/\?token=.*$/, '');
    expect((await fetch(guessed)).status).toBe(404);
    expect((await fetch(`${guessed}?token=${'0'.repeat(32)}`)).status).toBe(404);
  });

  it.each([
    ['4111111111111111', 'captured', null],
    ['4242424242424242', 'captured', null],
    ['4000000000000002', 'denied', 'card_declined'],
    ['4000000000009995', 'denied', 'insufficient_funds'],
    ['4000000000000069', 'denied', 'expired_card'],
    ['4000000000000127', 'denied', 'incorrect_cvc'],
    ['4000000000000119', 'denied', 'issuer_unavailable'],
    ['4000000000000259', 'denied', 'processing_error'],
  ])('charges card %s: %s %s', async (number, status, failureCode) => {
    const s = await seller();
    // The seller's own server, with its key, reads the issuer's reason (a buyer reads card_declined:
    // card-testing.test.ts).
    const res = await buy(
      s.product.uuid,
      'creditcard',
      { card: card(number), installments: 3 },
      { authorization: `Bearer ${s.key}` },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status,
      failureCode,
      installments: 3,
      card: { last4: number.slice(-4) },
      // 3.99 % + 2 × 1.49 % = 6.97 % of 100.00, plus 0.39; the fee rule does not depend on the outcome.
      valueSeller: 92.64,
    });
    expect(JSON.stringify(res.body)).not.toContain(number);
  });

  it('never stores or logs the card number', async () => {
    const s = await seller();
    const res = await buy(s.product.uuid, 'creditcard', { card: card('4111111111111111') });
    const item = await runtime.deps.table.get({
      pk: `SELLER#${s.sellerId}#test`,
      sk: `TXN#${String(res.body.id).padStart(12, '0')}`,
    });
    expect(JSON.stringify(item)).not.toContain('4111111111111111');
    expect(logLines.join('\n')).not.toContain('4111111111111111');
  });

  it('refuses bad input with a 400 naming each field, and writes nothing', async () => {
    const s = await seller();
    const res = await api.post('/api/transactions', {
      productId: s.product.uuid,
      paymentMethod: 'creditcard',
      customer: { name: '', email: 'nope', document: '123', phone: '1' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message.join(' ')).toMatch(/customer\.email/);
    expect(res.body.message.join(' ')).toMatch(/customer\.document/);
    const noCard = await buy(s.product.uuid, 'creditcard');
    expect(noCard.body.message).toEqual(['card is required for creditcard payments']);
    const luhn = await buy(s.product.uuid, 'creditcard', { card: card('4111111111111112') });
    expect(luhn.status).toBe(400);
    const tooMany = await buy(s.product.uuid, 'creditcard', {
      card: card('4111111111111111'),
      installments: 7,
    });
    expect(tooMany.body.message).toEqual(['installments must be at most 6 for this product']);
    const list = await api.get('/api/transactions', { token: s.key });
    expect(list.body.data).toEqual([]);
  });

  it('refuses a deactivated product and one priced 0', async () => {
    const s = await seller();
    await api.del(`/api/products/${s.product.id}`, { token: s.key });
    expect((await buy(s.product.uuid, 'pix')).status).toBe(404);
    const free = (
      await api.post('/api/products', { name: 'F', image: 'https://a.b/c.png', value: 0 }, { token: s.key })
    ).body;
    expect((await buy(free.uuid, 'pix')).status).toBe(400);
  });

  it('answers 503 for a live product, with nothing charged and nothing written', async () => {
    const s = await seller('live');
    const res = await buy(s.product.uuid, 'pix');
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/No payment provider is configured/);
    const list = await api.get('/api/transactions', { token: s.jwt });
    expect(list.body.data).toEqual([]);
    const customers = await api.get('/api/v1/customers', { token: s.key });
    expect(customers.body.data).toEqual([]);
  });

  it('makes the buyer a customer of the seller', async () => {
    const s = await seller();
    await buy(s.product.uuid, 'pix');
    const customers = await api.get('/api/v1/customers', { token: s.key });
    expect(customers.body.data).toHaveLength(1);
    expect(customers.body.data[0]).toMatchObject({ document: '52998224725', email: 'maria@example.com' });
  });

  it('makes one transaction out of 50 concurrent requests with the same idempotency key', async () => {
    const s = await seller();
    const headers = { 'x-idempotency-key': `tx-${Math.random()}` };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => buy(s.product.uuid, 'pix', {}, headers)),
    );
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id)).size).toBe(1);
    const list = await api.get('/api/transactions', { token: s.key });
    expect(list.body.data).toHaveLength(1);
  });
});

describe('the life of a transaction', () => {
  it('pays a pix through the sandbox notification and emits the events', async () => {
    const s = await seller();
    const receiver = await new Receiver().start();
    try {
      await api.post('/api/webhook-endpoints', { url: receiver.url, events: ['*'] }, { token: s.key });
      const tx = (await buy(s.product.uuid, 'pix')).body;
      const paid = await api.post(`/api/test-helpers/transactions/${tx.id}/pay`, {}, { token: s.key });
      expect(paid.status).toBe(200);
      expect(paid.body).toMatchObject({ status: 'payedPix', paidAt: expect.any(String) });
      expect((await api.get(`/api/transactions/status/${tx.gatewayPayId}`)).body).toBe('payedPix');
      // The product's own event may still be on its way when the endpoint is registered: look at the transaction's.
      const ofTransaction = () => receiver.received.filter((r) => r.json.event.startsWith('transaction.'));
      await waitFor(() => ofTransaction().length >= 3);
      const events = ofTransaction()
        .map((r) => r.json.event)
        .sort();
      expect(events).toEqual(['transaction.created', 'transaction.payment.succeeded', 'transaction.updated']);
      const succeeded = receiver.received.find((r) => r.json.event === 'transaction.payment.succeeded')?.json
        .data;
      expect(succeeded).toMatchObject({
        id: tx.id,
        productId: s.product.id,
        productName: 'Curso',
        value: 100,
        paymentMethod: 'pix',
        customer: { name: 'Maria Souza', email: 'maria@example.com', document: '52998224725' },
        paidAt: expect.any(String),
      });
    } finally {
      await receiver.stop();
    }
  });

  it('fails a boleto, and a denied card emits payment.failed (and the legacy event only to its subscribers)', async () => {
    const s = await seller();
    const receiver = await new Receiver().start();
    try {
      await api.post(
        '/api/webhook-endpoints',
        { url: receiver.url, events: ['transaction.payment.failed'] },
        { token: s.key },
      );
      const tx = (await buy(s.product.uuid, 'boleto')).body;
      const failed = await api.post(
        `/api/test-helpers/transactions/${tx.id}/fail`,
        { failureCode: 'expired' },
        { token: s.key },
      );
      expect(failed.body).toMatchObject({ status: 'denied', failureCode: 'expired' });
      await buy(s.product.uuid, 'creditcard', { card: card('4000000000000002') });
      await waitFor(() => receiver.received.length === 2);
      expect(receiver.received.map((r) => r.json.data.failureCode).sort()).toEqual([
        'card_declined',
        'expired',
      ]);
      expect(receiver.received.every((r) => r.json.event === 'transaction.payment.failed')).toBe(true);
    } finally {
      await receiver.stop();
    }
  });

  it('cancels by gatewayPayId on the panel route, and the sandbox then refuses to pay', async () => {
    const s = await seller();
    const tx = (await buy(s.product.uuid, 'pix')).body;
    expect((await api.del(`/api/transactions/${tx.id}`, s.jwtTest)).status).toBe(404);
    expect((await api.del(`/api/transactions/${tx.gatewayPayId}`, { token: s.key })).status).toBe(401);
    const canceled = await api.del(`/api/transactions/${tx.gatewayPayId}`, s.jwtTest);
    expect(canceled).toMatchObject({ status: 200, body: true });
    expect((await api.get(`/api/transactions/${tx.id}`, { token: s.key })).body.status).toBe('cancel');
    const pay = await api.post(`/api/test-helpers/transactions/${tx.id}/pay`, {}, { token: s.key });
    expect(pay.status).toBe(409);
    expect((await api.get(`/api/transactions/${tx.id}`, { token: s.key })).body.status).toBe('cancel');
  });

  it('answers 404 identically for a missing and a foreign transaction, and 400 for a paid one', async () => {
    const s = await seller();
    const other = await seller();
    const tx = (await buy(s.product.uuid, 'pix')).body;
    const foreign = await api.del(`/api/transactions/${tx.gatewayPayId}`, other.jwtTest);
    const missing = await api.del('/api/transactions/123456789', other.jwtTest);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Transação não encontrada');
    expect(missing.body.message).toBe(foreign.body.message);
    const paidTx = (await buy(s.product.uuid, 'creditcard', { card: card('4111111111111111') })).body;
    const refusal = await api.del(`/api/transactions/${paidTx.gatewayPayId}`, s.jwtTest);
    expect(refusal.status).toBe(400);
    expect(refusal.body.message).toMatch(/refund/);
  });

  it('answers 400 for a transaction of another provider', async () => {
    const s = await seller();
    const tx = (await buy(s.product.uuid, 'pix')).body;
    const stored = await runtime.deps.repos.transactions.get(
      { sellerId: s.sellerId, environment: 'test' },
      tx.id,
    );
    const legacy = {
      ...stored!,
      id: tx.id + 100_000,
      uuid: crypto.randomUUID(),
      gatewayPayId: 555_000 + s.sellerId,
      provider: 'old-provider',
    };
    await runtime.deps.repos.transactions.create(legacy, []);
    const res = await api.del(`/api/transactions/${legacy.gatewayPayId}`, s.jwtTest);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/another payment provider/);
  });

  it('refunds in parts up to the total, refuses one cent beyond, and ends reversed', async () => {
    const s = await seller();
    const tx = (await buy(s.product.uuid, 'creditcard', { card: card('4111111111111111') })).body;
    const pending = (await buy(s.product.uuid, 'pix')).body;
    expect((await api.post(`/api/transactions/${pending.id}/refund`, {}, { token: s.key })).status).toBe(400);
    const first = await api.post(
      `/api/transactions/${tx.id}/refund`,
      { amount: 30.1, reason: 'partial' },
      { token: s.key },
    );
    expect(first.body).toMatchObject({ status: 'captured', refundedAmount: 30.1 });
    const beyond = await api.post(`/api/transactions/${tx.id}/refund`, { amount: 69.91 }, { token: s.key });
    expect(beyond.status).toBe(400);
    const rest = await api.post(`/api/transactions/${tx.id}/refund`, { amount: 69.9 }, { token: s.key });
    expect(rest.body).toMatchObject({ status: 'reversed', refundedAmount: 100 });
    expect(rest.body.refunds.map((r: { amount: number }) => r.amount)).toEqual([30.1, 69.9]);
    expect(
      (await api.post(`/api/transactions/${tx.id}/refund`, { amount: 0.01 }, { token: s.key })).status,
    ).toBe(400);
    expect(
      (await api.post(`/api/transactions/${tx.id}/refund`, { amount: 1.001 }, { token: s.key })).status,
    ).toBe(400);
  });

  it('charges back a paid transaction and refuses a chargeback of an unpaid one', async () => {
    const s = await seller();
    const tx = (await buy(s.product.uuid, 'pix')).body;
    expect(
      (await api.post(`/api/test-helpers/transactions/${tx.id}/chargeback`, {}, { token: s.key })).status,
    ).toBe(409);
    await api.post(`/api/test-helpers/transactions/${tx.id}/pay`, {}, { token: s.key });
    const back = await api.post(`/api/test-helpers/transactions/${tx.id}/chargeback`, {}, { token: s.key });
    expect(back.body).toMatchObject({ status: 'reversed', failureCode: 'chargeback' });
  });

  it('expires a pix whose schedule never fired at the next heartbeat sweep', async () => {
    const s = await seller();
    const tx = (await buy(s.product.uuid, 'pix', { pixExpiresInSeconds: 600 })).body;
    // Lose the one-time schedule, as if EventBridge Scheduler had failed to fire it.
    await runtime.scheduler.cancel(`txn-expiry-test-${tx.id}`);
    await api.post('/api/test-helpers/clock/advance', { seconds: 601 });
    await api.post('/api/test-helpers/clock/advance', { seconds: 300 });
    expect((await api.get(`/api/transactions/${tx.id}`, { token: s.key })).body).toMatchObject({
      status: 'cancel',
    });
    const pay = await api.post(`/api/test-helpers/transactions/${tx.id}/pay`, {}, { token: s.key });
    expect(pay.status).toBe(409);
  });

  it('expires an unpaid pix when its time comes', async () => {
    const s = await seller();
    const tx = (await buy(s.product.uuid, 'pix', { pixExpiresInSeconds: 600 })).body;
    await api.post('/api/test-helpers/clock/advance', { seconds: 601 });
    expect((await api.get(`/api/transactions/${tx.id}`, { token: s.key })).body).toMatchObject({
      status: 'cancel',
    });
  });
});

describe('a sandbox pix marked paid whose notification never left', () => {
  // The sandbox marks the charge paid and then notifies: `notify: false` is the process dying in
  // between (the mark is written, the notification is never sent).
  const paidSilently = async (s: Awaited<ReturnType<typeof seller>>) => {
    const tx = (await buy(s.product.uuid, 'pix', { pixExpiresInSeconds: 600 })).body;
    const pay = await api.post(
      `/api/test-helpers/transactions/${tx.id}/pay`,
      { notify: false },
      { token: s.key },
    );
    expect(pay.body).toMatchObject({ status: 'pendingPix' });
    return tx;
  };
  const paidEvents = async (s: Awaited<ReturnType<typeof seller>>, id: number) =>
    (await api.get(`/api/events?type=transaction.payment.succeeded&resourceId=${id}`, { token: s.key })).body
      .data;
  const expiryErrors = (id: number) =>
    logLines.filter(
      (l) =>
        (l.includes('could not expire a pix charge') && l.includes(`:${id}"`)) ||
        (l.includes('"job":"transaction-expiry"') && l.includes(`:${id}"`) && !l.includes('"succeeded"')),
    );

  it('is paid, with its event, when its expiry comes instead of failing on every pass', async () => {
    const s = await seller();
    const tx = await paidSilently(s);
    await api.post('/api/test-helpers/clock/advance', { seconds: 601 });
    await api.post('/api/test-helpers/clock/advance', { seconds: 600 });
    expect((await api.get(`/api/transactions/${tx.id}`, { token: s.key })).body).toMatchObject({
      status: 'payedPix',
    });
    await runtime.timeline.tick();
    expect(await paidEvents(s, tx.id)).toHaveLength(1);
    expect(expiryErrors(tx.id)).toEqual([]);
  });

  it('is paid by the heartbeat sweep when the expiry schedule was lost, and the sweep stops reporting it', async () => {
    const s = await seller();
    const tx = await paidSilently(s);
    await runtime.scheduler.cancel(`txn-expiry-test-${tx.id}`);
    await api.post('/api/test-helpers/clock/advance', { seconds: 601 });
    await api.post('/api/test-helpers/clock/advance', { seconds: 300 });
    expect((await api.get(`/api/transactions/${tx.id}`, { token: s.key })).body).toMatchObject({
      status: 'payedPix',
    });
    await api.post('/api/test-helpers/clock/advance', { seconds: 300 });
    await runtime.timeline.tick();
    expect(await paidEvents(s, tx.id)).toHaveLength(1);
    expect(expiryErrors(tx.id)).toEqual([]);
  });
});

describe('provider notifications', () => {
  const secret = () => runtime.sandboxNotificationSecret;
  const post = (body: string, signature?: string) =>
    api.call('POST', '/api/transactions/handle-webhook', {
      raw: body,
      headers: signature ? { 'x-signature': signature } : {},
    });

  it('refuses an unsigned or badly signed notification', async () => {
    const s = await seller();
    const tx = (await buy(s.product.uuid, 'pix')).body;
    const body = JSON.stringify({
      id: 'ntf_forged',
      provider: 'sandbox',
      type: 'charge.paid',
      gatewayPayId: tx.gatewayPayId,
      occurredAt: new Date().toISOString(),
    });
    expect((await post(body)).status).toBe(401);
    const t = Math.floor(runtime.clock.now().getTime() / 1000);
    expect((await post(body, signatureHeader(['not-the-secret'], t, body))).status).toBe(401);
    expect((await post(body, signatureHeader([secret()], t - 3_600, body))).status).toBe(401);
    expect((await api.get(`/api/transactions/${tx.id}`, { token: s.key })).body.status).toBe('pendingPix');
  });

  it('applies a notification once, and a late one never moves a paid transaction back', async () => {
    const s = await seller();
    const receiver = await new Receiver().start();
    try {
      await api.post(
        '/api/webhook-endpoints',
        { url: receiver.url, events: ['transaction.updated'] },
        { token: s.key },
      );
      const tx = (await buy(s.product.uuid, 'pix')).body;
      const t = Math.floor(runtime.clock.now().getTime() / 1000);
      const paid = JSON.stringify({
        id: `ntf_${tx.id}`,
        provider: 'sandbox',
        type: 'charge.paid',
        gatewayPayId: tx.gatewayPayId,
        occurredAt: new Date().toISOString(),
      });
      const first = await post(paid, signatureHeader([secret()], t, paid));
      expect(first).toMatchObject({ status: 201, body: { applied: true, status: 'payedPix' } });
      const again = await post(paid, signatureHeader([secret()], t, paid));
      expect(again.body).toMatchObject({ applied: false, status: 'payedPix' });
      const late = JSON.stringify({
        id: `ntf_late_${tx.id}`,
        provider: 'sandbox',
        type: 'charge.failed',
        gatewayPayId: tx.gatewayPayId,
        occurredAt: new Date().toISOString(),
      });
      expect((await post(late, signatureHeader([secret()], t, late))).body).toMatchObject({
        applied: false,
        status: 'payedPix',
      });
      await api.post('/api/test-helpers/clock/advance', { seconds: 2 });
      await waitFor(() => receiver.received.length >= 1);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.stop();
    }
  });
});

describe('lists', () => {
  it('filters by status, method, product, customer and search, with the envelope', async () => {
    const s = await seller();
    const a = (await buy(s.product.uuid, 'pix')).body;
    await buy(s.product.uuid, 'boleto');
    await buy(s.product.uuid, 'creditcard', { card: card('4111111111111111') });
    await api.post(`/api/test-helpers/transactions/${a.id}/pay`, {}, { token: s.key });
    const all = await api.get('/api/transactions?limit=2', { token: s.key });
    expect(all.body).toMatchObject({ count: 2, page: 1, totalPages: 2 });
    const byStatus = await api.get('/api/transactions?status=payedPix', { token: s.key });
    expect(byStatus.body.data.map((t: { id: number }) => t.id)).toEqual([a.id]);
    const byMethod = await api.get('/api/transactions?paymentMethod=boleto', { token: s.key });
    expect(byMethod.body.data).toHaveLength(1);
    expect(
      (await api.get(`/api/transactions?productId=${s.product.id}`, { token: s.key })).body.data,
    ).toHaveLength(3);
    expect(
      (await api.get(`/api/transactions?customerId=${a.customer.id}`, { token: s.key })).body.data,
    ).toHaveLength(3);
    expect(
      (await api.get('/api/transactions?search=maria@example.com', { token: s.key })).body.data,
    ).toHaveLength(3);
    expect((await api.get('/api/transactions?search=Mari', { token: s.key })).body.data).toHaveLength(3);
    expect((await api.get('/api/transactions?search=nobody', { token: s.key })).body.data).toHaveLength(0);
    expect((await api.get('/api/transactions?status=paid', { token: s.key })).status).toBe(400);
    expect((await api.get(`/api/transactions/${a.id}`, { token: (await seller()).key })).body.message).toBe(
      'Transação não encontrada',
    );
  });

  it('lists charges with a cursor and cancels one by uuid', async () => {
    const s = await seller();
    for (let i = 0; i < 3; i++) await buy(s.product.uuid, 'pix');
    const first = await api.get('/api/v1/charges?limit=2', { token: s.key });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.data[0].uuid).toMatch(/^[0-9a-f-]{36}$/);
    const second = await api.get(`/api/v1/charges?limit=2&cursor=${first.body.nextCursor}`, { token: s.key });
    expect(second.body.data).toHaveLength(1);
    const uuid = second.body.data[0].uuid;
    expect(await api.del(`/api/v1/charges/${uuid}`, { token: s.key })).toMatchObject({
      status: 200,
      body: { canceled: true },
    });
    expect((await api.del(`/api/v1/charges/${uuid}`, { token: (await seller()).key })).status).toBe(404);
    expect((await api.del(`/api/v1/charges/${uuid}`)).status).toBe(401);
  });
});
