import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { buyer, card, decliningCard } from '../support/checkout-fixtures';
import { sellerFixtures } from '../support/fixtures';
import { type client, nextRateWindow, useTestRuntime } from '../support/runtime';

/**
 * GET /api/dashboard/summary against the transactions it sums: the daily figures kept by the
 * transactions' writes must equal what the seller's own list of transactions adds up to, through
 * payments, a decline, a partial refund, a chargeback still open and one reversed.
 */

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 373_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

type Sale = { id: number; status: string };

async function sell(productUuid: string, paymentMethod: string, cardNumber?: string): Promise<Sale> {
  const res = await api.post('/api/transactions', {
    productId: productUuid,
    paymentMethod,
    customer: buyer,
    ...(cardNumber ? { card: card(cardNumber) } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Sale;
}

const helper = async (id: number, action: string, key: string) => {
  const res = await api.post(`/api/test-helpers/transactions/${id}/${action}`, {}, { token: key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

const cents = (reais: number) => Math.round(reais * 100);

interface Listed {
  status: string;
  paymentMethod: string;
  value: number;
  valueSeller: number;
  refundedAmount: number;
  chargeback: { status: string } | null;
  deadline: string | null;
  paidAt: string | null;
}

/** The figures as the seller would add them up from the list, in centavos. */
function sums(list: Listed[]) {
  const paid = list.filter((t) => ['captured', 'payedBoleto', 'payedPix', 'reversed'].includes(t.status));
  const kept = (t: Listed) => {
    const returned =
      t.status === 'reversed' && t.chargeback?.status === 'open' ? cents(t.value) : cents(t.refundedAmount);
    return { gross: cents(t.value) - returned, net: cents(t.valueSeller) - returned };
  };
  const of = (ts: Listed[]) => ({
    gross: ts.reduce((s, t) => s + kept(t).gross, 0),
    net: ts.reduce((s, t) => s + kept(t).net, 0),
    count: ts.length,
  });
  return {
    all: of(paid),
    method: (m: string) => of(paid.filter((t) => t.paymentMethod === m)),
    declined: list.filter((t) => t.status === 'denied').length,
  };
}

const inCents = (f: { gross: number; net: number; count: number }) => ({
  gross: cents(f.gross),
  net: cents(f.net),
  count: f.count,
});

describe('GET /api/dashboard/summary', () => {
  it("equals the sums of the seller's transactions through refunds and chargebacks", async () => {
    await nextRateWindow(runtime, api);
    const s = await fixtures.seller({ product: { installments: 3 } });
    const other = await fixtures.seller({ product: {} });
    const uuid = s.product.uuid as string;

    const pix = await sell(uuid, 'pix');
    await helper(pix.id, 'pay', s.key);
    const boleto = await sell(uuid, 'boleto');
    await helper(boleto.id, 'pay', s.key);
    const refunded = await sell(uuid, 'creditcard', '4111111111111111');
    const refund = await api.post(
      `/api/transactions/${refunded.id}/refund`,
      { amount: 10 },
      { token: s.key },
    );
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    const won = await sell(uuid, 'creditcard', '4111111111111111');
    await helper(won.id, 'chargeback', s.key);
    await helper(won.id, 'chargeback-reversal', s.key);
    const lost = await sell(uuid, 'creditcard', '4111111111111111');
    await helper(lost.id, 'chargeback', s.key);
    const declined = await sell(uuid, 'creditcard', decliningCard(1));
    expect(declined.status).toBe('denied');
    await sell(uuid, 'pix');
    await sell(uuid, 'boleto');
    await sell(other.product.uuid as string, 'pix').then((t) => helper(t.id, 'pay', other.key));

    const list = (await api.get('/api/transactions?limit=100', { token: s.key })).body.data as Listed[];
    expect(list).toHaveLength(8);
    const expected = sums(list);
    expect(expected.all.count).toBe(5);

    const today = saoPauloDate(runtime.clock.now());
    const from = addDays(today, -6);
    const res = await api.get(`/api/dashboard/summary?from=${from}&to=${today}`, { token: s.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const summary = res.body;
    expect(inCents(summary)).toEqual(expected.all);
    expect(inCents(summary.byMethod.pix)).toEqual(expected.method('pix'));
    expect(inCents(summary.byMethod.boleto)).toEqual(expected.method('boleto'));
    expect(inCents(summary.byMethod.card)).toEqual(expected.method('creditcard'));
    expect(summary.byMethod.pixAutomatic).toEqual({ gross: 0, net: 0, count: 0 });
    expect(summary.declined).toBe(1);
    expect(summary.approvalRate).toBe(Math.round((5 / 6) * 10_000) / 10_000);
    expect(summary.averageTicket).toBe(Math.round(expected.all.gross / 5) / 100);
    expect(summary.byDay).toHaveLength(7);
    expect(summary.byDay.map((d: { date: string }) => d.date)).toEqual(
      Array.from({ length: 7 }, (_, i) => addDays(from, i)),
    );
    expect(inCents(summary.byDay.at(-1))).toEqual(expected.all);

    // A receber: the pending pix and boleto by their due date, the cards kept at D+30, the paid boleto at D+1.
    const receivable = list.reduce((sum, t) => {
      if (t.status === 'pendingPix' || t.status === 'pendingBoleto') return sum + cents(t.valueSeller);
      if (t.status === 'captured') return sum + cents(t.valueSeller) - cents(t.refundedAmount);
      if (t.status === 'payedBoleto') return sum + cents(t.valueSeller);
      return sum;
    }, 0);
    expect(cents(summary.receivables.total)).toBe(receivable);
    const cardDay = summary.receivables.days.find((d: { date: string }) => d.date === addDays(today, 30));
    expect(cents(cardDay.card)).toBe(
      list
        .filter((t) => t.status === 'captured')
        .reduce((sum, t) => sum + cents(t.valueSeller) - cents(t.refundedAmount), 0),
    );
    expect(summary.recentActivity.length).toBeGreaterThan(0);

    // The dashboard's JWT reads the same; the other seller sees only its own sale.
    const byJwt = await api.get(`/api/dashboard/summary?from=${from}&to=${today}`, {
      token: s.jwt,
      headers: { 'x-environment': 'test' },
    });
    expect(byJwt.status).toBe(200);
    expect(byJwt.body.gross).toBe(summary.gross);
    const theirs = await api.get(`/api/dashboard/summary?from=${from}&to=${today}`, { token: other.key });
    expect(theirs.body.count).toBe(1);
  });

  it('answers 400 naming the field for a date that is none, a reversed range or one too long', async () => {
    await nextRateWindow(runtime, api);
    const s = await fixtures.seller();
    const bad = async (query: string, field: string) => {
      const res = await api.get(`/api/dashboard/summary?${query}`, { token: s.key });
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body.message), query).toContain(field);
    };
    await bad('from=2026-02-30&to=2026-03-01', 'from');
    await bad('from=2026-03-01', 'to');
    await bad('from=2026-03-10&to=2026-03-01', 'to must not be before from');
    await bad('from=2026-01-01&to=2026-04-03', 'at most 92 days');
    const quarter = await api.get('/api/dashboard/summary?from=2026-01-01&to=2026-04-01', { token: s.key });
    expect(quarter.status).toBe(200);
    expect(quarter.body.byDay).toHaveLength(91);
  });
});
