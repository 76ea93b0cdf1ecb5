import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { customerBody, sellerFixtures } from '../support/fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { type client, logLines, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 91_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

/** A valid CPF other than customerBody's: another global customer. */
const OTHER_DOCUMENT = '11144477735';

/** A seller with a sandbox key and one customer (the same global customer unless `document` differs). */
const seller = (document = customerBody.document) =>
  fixtures.seller({ customer: { document }, product: { installments: 6 } });

/** The expiry month `ahead` months after the runtime clock's month (Sao Paulo), as month and year. */
function expiryAhead(ahead: number) {
  const [y, m] = saoPauloDate(runtime.clock.now()).split('-').map(Number);
  const index = y * 12 + (m - 1) + ahead;
  return { expiryMonth: (index % 12) + 1, expiryYear: Math.floor(index / 12) };
}

const listPath = (uuid: string) => `/api/v1/customers/${uuid}/payment-methods`;

/**
 * A card saved the way a buyer saves it: a card payment with `saveCard: true` (the customer is the
 * seller's registered one: same document). Answers the saved method as the list shows it, and its
 * token as the vault keeps it (to check that it never leaks and that deletion forgets it).
 */
async function seedCard(
  s: Awaited<ReturnType<typeof seller>>,
  options: { number?: string; expiryMonth: number; expiryYear: number },
) {
  const paid = await api.post('/api/transactions', {
    productId: s.product.uuid,
    paymentMethod: 'creditcard',
    customer: {
      name: customerBody.name,
      email: customerBody.email,
      phone: customerBody.phone,
      document: s.customer.document,
    },
    card: {
      number: options.number ?? '4111111111111111',
      holderName: 'MARIA SOUZA',
      expiryMonth: options.expiryMonth,
      expiryYear: options.expiryYear,
      cvv: '123',
    },
    saveCard: true,
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  expect(paid.body.status).toBe('captured');
  expect(JSON.stringify(paid.body)).not.toContain('tok_');
  const listed = await api.get(listPath(s.customer.uuid), { token: s.key });
  const last4 = (options.number ?? '4111111111111111').slice(-4);
  const view = listed.body.data.find(
    (m: { last4: string; expiryMonth: number; expiryYear: number }) =>
      m.last4 === last4 && m.expiryMonth === options.expiryMonth && m.expiryYear === options.expiryYear,
  );
  if (!view) throw new Error(`the card was not saved: ${JSON.stringify(listed.body)}`);
  const stored = await runtime.deps.repos.paymentMethods.get(s.tenant, view.id);
  return { ...view, token: stored?.token as string };
}

/** Moves the runtime clock to `at` (running everything due on the way). */
async function advanceTo(at: Date) {
  const seconds = Math.ceil((at.getTime() - runtime.clock.now().getTime()) / 1000);
  if (seconds > 0) expect((await api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);
}

describe('listing saved cards', () => {
  it("lists the customer's saved cards with brand, last 4 and expiry, never the token", async () => {
    const s = await seller();
    const first = await seedCard(s, expiryAhead(12));
    const second = await seedCard(s, { number: '5555555555554444', ...expiryAhead(24) });
    const res = await api.get(listPath(s.customer.uuid), { token: s.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({ id: second.id, brand: 'mastercard', last4: '4444', status: 'active' }),
      expect.objectContaining({
        id: first.id,
        uuid: first.uuid,
        type: 'card',
        customerId: s.customer.id,
        customerUuid: s.customer.uuid,
        brand: 'visa',
        last4: '1111',
        ...expiryAhead(12),
        status: 'active',
        expiresAt: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain(first.token);
    expect(logLines.join('\n')).not.toContain(first.token);
    expect(logLines.join('\n')).not.toContain('4111111111111111');
  });

  it('answers the same to the dashboard JWT', async () => {
    const s = await seller();
    const card = await seedCard(s, expiryAhead(12));
    const res = await api.get(listPath(s.customer.uuid), {
      token: s.jwt,
      headers: { 'x-environment': 'test' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: { id: number }) => m.id)).toEqual([card.id]);
  });

  it('saves the same card once for the same customer', async () => {
    const s = await seller();
    const first = await seedCard(s, expiryAhead(12));
    const again = await seedCard(s, expiryAhead(12));
    expect(again.id).toBe(first.id);
    expect((await api.get(listPath(s.customer.uuid), { token: s.key })).body.data).toHaveLength(1);
  });

  it('answers an empty list for a customer without saved cards', async () => {
    const s = await seller();
    expect((await api.get(listPath(s.customer.uuid), { token: s.key })).body).toEqual({ data: [] });
  });

  it("never shows another seller's cards of a customer both sellers share", async () => {
    const s = await seller();
    await seedCard(s, expiryAhead(12));
    const other = await seller();
    expect(other.customer.uuid).toBe(s.customer.uuid); // one global customer per document
    expect((await api.get(listPath(s.customer.uuid), { token: other.key })).body).toEqual({ data: [] });
  });

  it("answers 404 Customer not found for another seller's customer, a live key, an unknown or malformed uuid", async () => {
    const s = await seller();
    await seedCard(s, expiryAhead(12));
    const other = await seller(OTHER_DOCUMENT);
    const live = (await api.post('/api/api-keys', { name: 'live', environment: 'live' }, { token: s.jwt }))
      .body.key;
    for (const [uuid, token] of [
      [s.customer.uuid, other.key],
      [s.customer.uuid, live],
      ['4b0d3c4e-8a51-4d4e-9a43-4c9a3f0b2a11', s.key],
      ['not-a-uuid', s.key],
    ]) {
      const res = await api.get(listPath(uuid), { token });
      expect(res.status, uuid).toBe(404);
      expect(res.body.message).toBe('Customer not found');
    }
  });

  it('answers 401 without a key', async () => {
    const s = await seller();
    expect((await api.get(listPath(s.customer.uuid))).status).toBe(401);
  });
});

describe('deleting a saved card', () => {
  it('deletes the card, and the provider can no longer charge its token', async () => {
    const s = await seller();
    const card = await seedCard(s, expiryAhead(12));
    const res = await api.del(`${listPath(s.customer.uuid)}/${card.id}`, { token: s.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id: card.id, deleted: true });
    expect((await api.get(listPath(s.customer.uuid), { token: s.key })).body.data).toEqual([]);
    const again = await api.del(`${listPath(s.customer.uuid)}/${card.id}`, { token: s.key });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Payment method not found');
    await expect(
      runtime.deps.payments.forEnvironment('test').chargeSavedCard({
        tenant: s.tenant,
        transactionId: 2,
        amountCentavos: 100,
        installments: 1,
        description: 'x',
        customer: { name: 'x', document: customerBody.document, email: customerBody.email },
        token: card.token,
        idempotencyKey: `after-delete-${card.id}`,
      }),
    ).rejects.toThrow('Saved card not found');
  });

  it("answers 404 for another seller's card or customer and leaves the card in place", async () => {
    const s = await seller();
    const card = await seedCard(s, expiryAhead(12));
    const other = await seller(OTHER_DOCUMENT);
    const cases: [string, string, string][] = [
      [`${listPath(s.customer.uuid)}/${card.id}`, other.key, 'Customer not found'],
      [`${listPath(other.customer.uuid)}/${card.id}`, other.key, 'Payment method not found'],
      [`${listPath(s.customer.uuid)}/${card.id + 1000}`, s.key, 'Payment method not found'],
      [`${listPath(s.customer.uuid)}/abc`, s.key, 'Payment method not found'],
    ];
    for (const [path, token, message] of cases) {
      const res = await api.del(path, { token });
      expect(res.status, path).toBe(404);
      expect(res.body.message, path).toBe(message);
    }
    expect((await api.get(listPath(s.customer.uuid), { token: s.key })).body.data).toHaveLength(1);
  });
});

/**
 * Runs `work` with a webhook receiver subscribed to `events` for the seller. The endpoint is deleted
 * afterwards: a stopped receiver would otherwise keep later tests' clock advances busy with retries.
 */
async function withReceiver(
  s: Awaited<ReturnType<typeof seller>>,
  events: string[],
  work: (receiver: Receiver) => Promise<void>,
) {
  const receiver = await new Receiver().start();
  const endpoint = await api.post('/api/webhook-endpoints', { url: receiver.url, events }, { token: s.key });
  expect(endpoint.status).toBe(201);
  try {
    await work(receiver);
  } finally {
    await api.del(`/api/webhook-endpoints/${endpoint.body.id}`, { token: s.key });
    await receiver.stop();
  }
}

describe('card expiry', () => {
  it('warns 30, 14 and 7 days before, once each, then expires the card, all by the test clock', async () => {
    const s = await seller();
    await withReceiver(s, ['payment_method.expiring_soon', 'payment_method.expired'], async (receiver) => {
      const expiry = expiryAhead(2);
      const card = await seedCard(s, expiry);
      const expiryDay = new Date(card.expiresAt);
      const day = (n: number) => startOfSaoPauloDay(addDays(saoPauloDate(expiryDay), -n));
      const events = () => receiver.received.map((r) => r.json);

      await advanceTo(new Date(day(30).getTime() - 3_600_000));
      expect(events()).toEqual([]);

      for (const [stage, count] of [
        [30, 1],
        [14, 2],
        [7, 3],
      ] as const) {
        await advanceTo(new Date(day(stage).getTime() + 3_600_000));
        await waitFor(() => events().length >= count);
        expect(events()[count - 1]).toMatchObject({
          event: 'payment_method.expiring_soon',
          data: { id: card.id, status: 'active', stage, daysUntilExpiry: stage, last4: '1111', ...expiry },
        });
      }
      await advanceTo(new Date(expiryDay.getTime() + 3_600_000));
      await waitFor(() => events().length >= 4);
      expect(events()[3]).toMatchObject({
        event: 'payment_method.expired',
        data: { id: card.id, status: 'expired', expiresAt: card.expiresAt },
      });
      const listed = (await api.get(listPath(s.customer.uuid), { token: s.key })).body.data;
      expect(listed).toEqual([expect.objectContaining({ id: card.id, status: 'expired' })]);

      // Days later (several heartbeats, the sweep included) nothing is sent again.
      await api.post('/api/test-helpers/clock/advance', { seconds: 10 * 86_400 });
      await api.post('/api/test-helpers/clock/advance', { seconds: 600 });
      expect(events().map((e) => [e.event, e.data.stage ?? null])).toEqual([
        ['payment_method.expiring_soon', 30],
        ['payment_method.expiring_soon', 14],
        ['payment_method.expiring_soon', 7],
        ['payment_method.expired', null],
      ]);
      expect(JSON.stringify(events())).not.toContain(card.token);
    });
  });

  it('sends a warning whose schedule never fired at the next heartbeat sweep', async () => {
    const s = await seller();
    await withReceiver(s, ['payment_method.expiring_soon'], async (receiver) => {
      const card = await seedCard(s, expiryAhead(2));
      const name = `pm-expiry-test-${s.sellerId}-${card.id}-30`;
      expect(runtime.scheduler.pending().some((e) => e.name === name)).toBe(true);
      await runtime.scheduler.cancel(name);
      const stageDay = startOfSaoPauloDay(addDays(saoPauloDate(new Date(card.expiresAt)), -30));
      await advanceTo(new Date(stageDay.getTime() + 3_600_000));
      await waitFor(() => receiver.received.length >= 1);
      expect(receiver.received[0].json).toMatchObject({
        event: 'payment_method.expiring_soon',
        data: { id: card.id, stage: 30 },
      });
      // The sweep also scheduled the next step.
      expect(
        runtime.scheduler.pending().some((e) => e.name === `pm-expiry-test-${s.sellerId}-${card.id}-14`),
      ).toBe(true);
    });
  });

  it('sends nothing for a deleted card and cancels its schedule', async () => {
    const s = await seller();
    await withReceiver(s, ['payment_method.expiring_soon', 'payment_method.expired'], async (receiver) => {
      const card = await seedCard(s, expiryAhead(2));
      const kept = await seedCard(s, { number: '5555555555554444', ...expiryAhead(2) });
      expect((await api.del(`${listPath(s.customer.uuid)}/${card.id}`, { token: s.key })).status).toBe(200);
      expect(
        runtime.scheduler
          .pending()
          .some((e) => e.name.startsWith(`pm-expiry-test-${s.sellerId}-${card.id}-`)),
      ).toBe(false);
      await advanceTo(new Date(Date.parse(card.expiresAt) + 3_600_000));
      await waitFor(() => receiver.received.length >= 4);
      expect(new Set(receiver.received.map((r) => r.json.data.id))).toEqual(new Set([kept.id]));
    });
  });
});
