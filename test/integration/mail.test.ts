import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { EVENT_SOURCE } from '#shared/domain/events/events';
import { card } from '../support/checkout-fixtures';
import { sellerFixtures } from '../support/fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { type client, logLines, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 91_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const buyer = {
  name: 'Maria Souza',
  email: 'Maria@Example.com',
  document: '529.982.247-25',
  phone: '11987654321',
};

const seller = (environment: 'test' | 'live' = 'test', productName = 'Curso de Programação') =>
  fixtures.seller({ environment, product: { name: productName, value: 49.9, installments: 6 } });

const buy = (productUuid: string, paymentMethod: string, extra: Record<string, unknown> = {}) =>
  api.post('/api/transactions', { productId: productUuid, paymentMethod, customer: buyer, ...extra });

const inbox = (key: string, query = '') => api.get(`/api/test-helpers/mail${query}`, { token: key });

/** Lets the local stream, bus and functions run (no sleeping: the clock advance runs what is due). */
async function settle(seconds = 1) {
  await api.post('/api/test-helpers/clock/advance', { seconds });
}

/** The seller's inbox once it holds `count` messages (the stream poller may need another pass). */
async function inboxWith(key: string, count: number) {
  let body: any;
  await waitForAsync(async () => {
    await settle();
    body = (await inbox(key)).body;
    return body.data.length >= count;
  });
  return body.data as { id: string; to: string; subject: string; kind: string; createdAt: string }[];
}

async function waitForAsync(check: () => Promise<boolean>, timeoutMs = 10_000) {
  let done = false;
  const deadline = Date.now() + timeoutMs;
  while (!done) {
    done = await check();
    if (!done && Date.now() > deadline) throw new Error('condition not met in time');
  }
}

describe('buyer receipts', () => {
  it('sends exactly one receipt for a sandbox card sale, in Portuguese with R$ amounts', async () => {
    const s = await seller();
    const sale = await buy(s.product.uuid, 'creditcard', { card: card('4111111111111111'), installments: 3 });
    expect(sale.status).toBe(201);
    expect(sale.body.status).toBe('captured');

    const [listed] = await inboxWith(s.key, 1);
    expect(listed).toMatchObject({
      to: 'maria@example.com',
      kind: 'receipt',
      subject: '[TESTE] Recibo do seu pagamento: Curso de Programação',
    });
    expect(listed).not.toHaveProperty('text');

    const read = await api.get(`/api/test-helpers/mail/${listed.id}`, { token: s.key });
    expect(read.status).toBe(200);
    const { text, html } = read.body as { text: string; html: string };
    expect(text).toContain('Olá, Maria Souza!');
    expect(text).toContain('Produto: Curso de Programação');
    expect(text).toContain('Valor: R$ 49,90');
    expect(text).toContain('Forma de pagamento: Cartão de crédito Visa final 1111 (3 parcelas)');
    expect(text).toMatch(/Data do pagamento: \d{2}\/\d{2}\/\d{4} às \d{2}:\d{2} \(horário de Brasília\)/);
    expect(text).toContain(`Pedido nº: ${sale.body.id}`);
    expect(text).toContain('Ambiente de testes: nenhuma cobrança real foi feita.');
    expect(html).toContain('R$ 49,90');
    expect(html).not.toContain('4111111111111111');

    // Retries and the heartbeat run; still exactly one receipt.
    await settle(3_600);
    expect((await inbox(s.key)).body.data).toHaveLength(1);
    expect(logLines.join('\n')).not.toContain('4111111111111111');
  });

  it('sends one receipt when the bus delivers the same event twice', async () => {
    const s = await seller();
    const receiver = await new Receiver().start();
    try {
      const hook = await api.post(
        '/api/webhook-endpoints',
        { url: receiver.url, events: ['transaction.payment.succeeded'] },
        { token: s.key },
      );
      expect(hook.status).toBe(201);
      await buy(s.product.uuid, 'creditcard', { card: card('4111111111111111') });
      await inboxWith(s.key, 1);
      await waitFor(() => receiver.received.length === 1);
      // The event exactly as it was published, put on the bus a second time (an at-least-once redelivery).
      await runtime.bus.put([
        {
          source: EVENT_SOURCE,
          detailType: 'transaction.payment.succeeded',
          detail: {
            tenant: { sellerId: s.sellerId, environment: 'test' },
            envelope: receiver.received[0].json,
          },
        },
      ]);
      await settle(600);
      // The second delivery reached the notifications function, which found the event's marker.
      const eventId = receiver.received[0].json.id as string;
      const outcomes = logLines
        .filter((line) => line.includes(eventId) && line.includes('"notification"'))
        .map((line) => JSON.parse(line).outcome);
      expect(outcomes).toEqual(['sent', 'duplicate']);
      expect((await inbox(s.key)).body.data).toHaveLength(1);
    } finally {
      await receiver.stop();
    }
  });

  it('sends a receipt for pix only once it is paid, and none for a declined card', async () => {
    const s = await seller();
    const declined = await buy(s.product.uuid, 'creditcard', { card: card('4000000000000002') });
    expect(declined.body.status).toBe('denied');
    const pix = await buy(s.product.uuid, 'pix');
    expect(pix.status).toBe(201);
    await settle(60);
    expect((await inbox(s.key)).body.data).toHaveLength(0);

    const paid = await api.post(`/api/test-helpers/transactions/${pix.body.id}/pay`, undefined, {
      token: s.key,
    });
    expect(paid.status).toBe(200);
    const [receipt] = await inboxWith(s.key, 1);
    const read = await api.get(`/api/test-helpers/mail/${receipt.id}`, { token: s.key });
    expect(read.body.text).toContain('Forma de pagamento: Pix');
    expect(read.body.text).toContain(`Pedido nº: ${pix.body.id}`);
  });

  it('escapes the product name in the HTML part', async () => {
    const s = await seller('test', '<script>alert(1)</script>');
    await buy(s.product.uuid, 'creditcard', { card: card('4111111111111111') });
    const [receipt] = await inboxWith(s.key, 1);
    const read = await api.get(`/api/test-helpers/mail/${receipt.id}`, { token: s.key });
    expect(read.body.html).not.toContain('<script>');
    expect(read.body.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(read.body.text).toContain('Produto: <script>alert(1)</script>');
  });
});

describe('the mailbox test helper', () => {
  it("shows a seller only its own sales' mail: another seller lists nothing and reads a 404", async () => {
    const s = await seller();
    const other = await seller();
    await buy(s.product.uuid, 'creditcard', { card: card('4111111111111111') });
    const [receipt] = await inboxWith(s.key, 1);

    expect((await inbox(other.key)).body).toEqual({ data: [], nextCursor: null });
    const foreign = await api.get(`/api/test-helpers/mail/${receipt.id}`, { token: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Message not found');
    // Another id of the same shape: its last character changed (never to itself).
    const other_ = `${receipt.id.slice(0, -1)}${receipt.id.endsWith('x') ? 'y' : 'x'}`;
    const missing = await api.get(`/api/test-helpers/mail/${other_}`, {
      token: s.key,
    });
    expect(missing.status).toBe(404);
    expect((await api.get('/api/test-helpers/mail/nope', { token: s.key })).status).toBe(404);
  });

  it('refuses a live key with 403 and no key with 401', async () => {
    const live = await seller('live');
    const res = await inbox(live.key);
    expect(res.status).toBe(403);
    expect((await api.get('/api/test-helpers/mail')).status).toBe(401);
  });

  it('filters by recipient, pages newest first and names a bad field in the 400', async () => {
    const s = await seller();
    for (let i = 0; i < 3; i++) {
      await buy(s.product.uuid, 'creditcard', { card: card('4111111111111111') });
      await settle(60);
    }
    const all = await inboxWith(s.key, 3);
    expect(all).toHaveLength(3);
    expect([...all].sort((a, b) => b.createdAt.localeCompare(a.createdAt))).toEqual(all);

    expect((await inbox(s.key, '?to=MARIA@example.com')).body.data).toHaveLength(3);
    expect((await inbox(s.key, '?to=joao@example.com')).body.data).toHaveLength(0);

    const first = await inbox(s.key, '?limit=2');
    expect(first.body.data.map((m: { id: string }) => m.id)).toEqual(all.slice(0, 2).map((m) => m.id));
    const second = await inbox(s.key, `?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [all[2]], nextCursor: null });

    const bad = await inbox(s.key, '?to=not-an-address&limit=500');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(
      expect.arrayContaining(['to must be a valid e-mail', 'limit must be an integer from 1 to 100']),
    );
    expect((await inbox(s.key, '?cursor=garbage')).status).toBe(400);
  });
});
