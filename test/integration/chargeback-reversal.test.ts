import { describe, expect, it } from 'vitest';
import { signatureHeader } from '#events/signing';
import type { Runtime } from '#infra/local/runtime';
import { buyer, card } from '../support/checkout-fixtures';
import { sellerFixtures } from '../support/fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { type client, nextRateWindow, useTestRuntime } from '../support/runtime';

/** A chargeback won on the sandbox: the sale is paid again, as Asaas's AWAITING_CHARGEBACK_REVERSAL. */

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 171_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

async function seller(environment: 'test' | 'live' = 'test') {
  await nextRateWindow(runtime, api);
  return fixtures.seller({ environment, product: { installments: 6 } });
}

const helper = (id: number, action: string, key: string) =>
  api.post(`/api/test-helpers/transactions/${id}/${action}`, {}, { token: key });

async function cardSale(s: { product: { uuid: string } }) {
  const res = await api.post('/api/transactions', {
    productId: s.product.uuid,
    paymentMethod: 'creditcard',
    customer: buyer,
    card: card('4111111111111111'),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; gatewayPayId: number; status: string };
}

const notify = (body: Record<string, unknown>) => {
  const raw = JSON.stringify({ provider: 'sandbox', occurredAt: new Date().toISOString(), ...body });
  const t = Math.floor(runtime.clock.now().getTime() / 1000);
  return api.call('POST', '/api/transactions/handle-webhook', {
    raw,
    headers: { 'x-signature': signatureHeader([runtime.sandboxNotificationSecret], t, raw) },
  });
};

describe('a chargeback reversed on the sandbox', () => {
  it('restores the sale with its chargeback won and tells the seller by webhook', async () => {
    const s = await seller();
    const receiver = await new Receiver().start();
    try {
      await api.post(
        '/api/webhook-endpoints',
        { url: receiver.url, events: ['transaction.chargeback', 'transaction.chargeback_reversed'] },
        { token: s.key },
      );
      const tx = await cardSale(s);
      expect(tx.status).toBe('captured');
      const back = await helper(tx.id, 'chargeback', s.key);
      expect(back.body).toMatchObject({
        status: 'reversed',
        failureCode: 'chargeback',
        chargeback: { status: 'open', closedAt: null },
      });
      await api.post('/api/test-helpers/clock/advance', { seconds: 3600 });

      const won = await helper(tx.id, 'chargeback-reversal', s.key);
      expect(won.status, JSON.stringify(won.body)).toBe(200);
      expect(won.body).toMatchObject({
        status: 'captured',
        failureCode: null,
        failureReason: null,
        refundedAmount: 0,
        chargeback: { status: 'won', openedAt: back.body.chargeback.openedAt },
      });
      expect(
        Date.parse(won.body.chargeback.closedAt) - Date.parse(won.body.chargeback.openedAt),
      ).toBeGreaterThanOrEqual(3_600_000);
      const read = (await api.get(`/api/transactions/${tx.id}`, { token: s.key })).body;
      expect(read).toMatchObject({ status: 'captured', chargeback: { status: 'won' } });

      await waitFor(() => receiver.received.some((r) => r.json.event === 'transaction.chargeback_reversed'));
      const reversed = receiver.received.filter((r) => r.json.event === 'transaction.chargeback_reversed');
      expect(reversed).toHaveLength(1);
      expect(reversed[0]?.json.data).toMatchObject({
        id: tx.id,
        status: 'captured',
        paymentMethod: 'card',
        chargeback: { status: 'won' },
      });

      // The sandbox's charge is paid again: a second reversal is refused there, nothing changes.
      expect((await helper(tx.id, 'chargeback-reversal', s.key)).status).toBe(409);
      // A new chargeback of the restored sale opens a new one.
      expect((await helper(tx.id, 'chargeback', s.key)).body).toMatchObject({
        status: 'reversed',
        chargeback: { status: 'open', closedAt: null },
      });
    } finally {
      await receiver.stop();
    }
  });

  it('answers "not applicable" to a reversal of a sale not reversed by a chargeback, and applies an id once', async () => {
    const s = await seller();
    const paid = await cardSale(s);
    const notCharged = await notify({
      id: `ntf_rev_paid_${paid.id}`,
      type: 'charge.chargeback_reversed',
      gatewayPayId: paid.gatewayPayId,
    });
    expect(notCharged.body).toMatchObject({
      applied: false,
      status: 'captured',
      reason: 'not applicable to captured',
    });

    const refunded = await cardSale(s);
    expect(
      (await api.post(`/api/transactions/${refunded.id}/refund`, {}, { token: s.key })).body,
    ).toMatchObject({
      status: 'reversed',
    });
    const afterRefund = await notify({
      id: `ntf_rev_refunded_${refunded.id}`,
      type: 'charge.chargeback_reversed',
      gatewayPayId: refunded.gatewayPayId,
    });
    expect(afterRefund.body).toMatchObject({ applied: false, status: 'reversed' });
    expect((await api.get(`/api/transactions/${refunded.id}`, { token: s.key })).body).toMatchObject({
      status: 'reversed',
      chargeback: null,
    });

    const charged = await cardSale(s);
    await helper(charged.id, 'chargeback', s.key);
    const body = {
      id: `ntf_rev_${charged.id}`,
      type: 'charge.chargeback_reversed',
      gatewayPayId: charged.gatewayPayId,
    };
    expect((await notify(body)).body).toMatchObject({ applied: true, status: 'captured' });
    expect((await notify(body)).body).toMatchObject({ applied: false, status: 'captured' });
  });

  it('is a test-environment helper only', async () => {
    const s = await seller('live');
    const res = await api.post('/api/test-helpers/transactions/1/chargeback-reversal', {}, { token: s.key });
    expect(res.status).toBe(403);
  });
});
