import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { RECONCILIATION_JOB, reconcileTenantDay } from '#shared/domain/reconciliation/daily';
import { receiveVerifiedNotification } from '#shared/domain/transactions/follow-ups';
import { runJob } from '#shared/jobs';
import { type AsaasLive, connectAsaas, liveKeyOf, useAsaasLive } from '../support/asaas-live';
import { FAKE_CARDS, type FakeAsaas } from '../support/fake-asaas/server';
import { type client, logLines } from '../support/runtime';

let fake: FakeAsaas;
let runtime: Runtime;
let api: ReturnType<typeof client>;
let live: AsaasLive;
let nextSeller = 340_000;

useAsaasLive((l) => {
  live = l;
  ({ fake, runtime, api } = l);
  // The provider's calendar is the service's business clock (the test clock).
  fake.today = () => saoPauloDate(runtime.clock.now());
});

const buyer = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '11987654321',
};

/** A live seller with an Asaas account of its own at the fake, connected, and a product. */
async function liveSeller() {
  const sellerId = nextSeller++;
  const apiKey = `$aact_${randomBytes(30).toString('base64url')}`;
  fake.addAccount(apiKey, `Loja ${sellerId}`);
  const { jwt, key } = await liveKeyOf(live, sellerId);
  expect((await connectAsaas(live, jwt, apiKey)).status).toBe(200);
  const product = (
    await api.post(
      '/api/products',
      { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100, installments: 6 },
      { token: key },
    )
  ).body;
  return { sellerId, jwt, key, apiKey, product };
}
type Seller = Awaited<ReturnType<typeof liveSeller>>;

async function sell(s: Seller, paymentMethod: 'pix' | 'creditcard') {
  const extra =
    paymentMethod === 'creditcard'
      ? {
          installments: 1,
          card: {
            number: FAKE_CARDS.approved,
            holderName: 'MARIA SOUZA',
            expiryMonth: 12,
            expiryYear: 2034,
            cvv: '123',
          },
        }
      : {};
  const res = await api.post('/api/transactions', {
    productId: s.product.uuid,
    paymentMethod,
    customer: buyer,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const payment = fake.paymentByReference(String(res.body.gatewayPayId));
  if (!payment) throw new Error('the sale has no payment at the fake');
  return { tx: res.body as { id: number; gatewayPayId: number; status: string }, payment };
}

const reconciliations = (s: Seller, token = s.key) => api.get('/api/reconciliations', { token });
const recordOf = async (s: Seller, day: string) =>
  (await reconciliations(s)).body.data.find((r: { day: string }) => r.day === day);

/**
 * A test that reconciles "today" sells in the middle of a Sao Paulo day: near midnight its payments
 * and transactions could fall on two days. Outside 06:00-23:00 the clock moves to the next noon first.
 */
async function awayFromMidnight() {
  const now = runtime.clock.now().getTime();
  const dayStart = startOfSaoPauloDay(saoPauloDate(runtime.clock.now())).getTime();
  const hours = (now - dayStart) / 3_600_000;
  if (hours >= 6 && hours < 23) return;
  const next =
    hours < 6 ? dayStart : startOfSaoPauloDay(addDays(saoPauloDate(runtime.clock.now()), 1)).getTime();
  const seconds = Math.ceil((next + 12 * 3_600_000 - now) / 1000);
  expect((await api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);
}

/** Moves the test clock to 03:00:30 of the next Sao Paulo day: the daily schedule reconciles `day`. */
async function runDailyScheduleFor(day: string) {
  const at = startOfSaoPauloDay(addDays(day, 1)).getTime() + 3 * 3_600_000 + 30_000;
  const seconds = Math.ceil((at - runtime.clock.now().getTime()) / 1000);
  expect(seconds).toBeGreaterThan(0);
  await api.post('/api/test-helpers/clock/advance', { seconds });
  await runtime.timeline.tick();
}

describe('the daily reconciliation with Asaas', () => {
  let day: string;
  let matching: Seller;
  let drifting: Seller;
  let repairedPix: { id: number; gatewayPayId: number };
  let amountCard: { id: number; gatewayPayId: number };
  let missingPix: { id: number; gatewayPayId: number };
  let foreignId: string;

  it('records a day where every payment matches a transaction, and one with each kind of difference', async () => {
    await awayFromMidnight();
    day = saoPauloDate(runtime.clock.now());
    matching = await liveSeller();
    await sell(matching, 'pix');
    await sell(matching, 'creditcard');

    drifting = await liveSeller();
    // Paid at the provider, its webhook lost: ours is still pendingPix.
    const paid = await sell(drifting, 'pix');
    paid.payment.status = 'RECEIVED';
    repairedPix = paid.tx;
    // The provider holds another amount than the sale.
    const card = await sell(drifting, 'creditcard');
    card.payment.value = 99.5;
    amountCard = card.tx;
    // A transaction the provider holds no payment for.
    const gone = await sell(drifting, 'pix');
    fake.forget(gone.payment.id);
    missingPix = gone.tx;
    // A payment made at the provider outside the service: reported, never made a transaction.
    foreignId = fake.addForeignPayment(drifting.apiKey, { value: 12.34 }).id;

    await runDailyScheduleFor(day);

    const clean = await recordOf(matching, day);
    expect(clean).toMatchObject({
      provider: 'asaas',
      day,
      environment: 'live',
      status: 'matched',
      providerPayments: 2,
      transactions: 2,
      differenceCount: 0,
      repairedCount: 0,
      differences: [],
    });

    const record = await recordOf(drifting, day);
    expect(record).toMatchObject({
      status: 'differences',
      providerPayments: 3,
      transactions: 3,
      differenceCount: 4,
      repairedCount: 1,
    });
    const byKind = Object.fromEntries(record.differences.map((d: { kind: string }) => [d.kind, d])) as Record<
      string,
      unknown
    >;
    expect(byKind.status_mismatch).toMatchObject({
      transactionId: repairedPix.id,
      gatewayPayId: repairedPix.gatewayPayId,
      providerStatus: 'paid',
      ourStatus: 'pendingPix',
      repair: 'charge.paid',
    });
    expect(byKind.amount_mismatch).toMatchObject({
      transactionId: amountCard.id,
      providerAmount: 99.5,
      ourAmount: 100,
      repair: null,
    });
    expect(byKind.missing_payment).toMatchObject({
      transactionId: missingPix.id,
      gatewayPayId: missingPix.gatewayPayId,
      providerPaymentId: null,
      ourStatus: 'pendingPix',
      repair: null,
    });
    expect(byKind.unknown_payment).toMatchObject({
      providerPaymentId: foreignId,
      gatewayPayId: null,
      transactionId: null,
      providerAmount: 12.34,
      providerStatus: 'paid',
      repair: null,
    });
    // The same record through its own route, by API key and by the dashboard's JWT.
    expect((await api.get(`/api/reconciliations/${record.id}`, { token: drifting.key })).body).toEqual(
      record,
    );
    const byJwt = await api.get(`/api/reconciliations/${record.id}`, {
      token: drifting.jwt,
      headers: { 'x-environment': 'live' },
    });
    expect(byJwt.body).toEqual(record);

    const line = logLines.find(
      (l) => l.includes('reconciliation found differences') && l.includes(record.id),
    );
    expect(line).toContain('"differenceCount":4');
    expect(runtime.metrics.ReconciliationDifferences).toBeGreaterThanOrEqual(4);
  });

  it('repairs a status the provider moved forward through the notification path, with its event', async () => {
    const tx = await api.get(`/api/transactions/${repairedPix.id}`, { token: drifting.key });
    expect(tx.body).toMatchObject({ status: 'payedPix' });
    const events = await api.get(
      `/api/events?type=transaction.payment.succeeded&resourceId=${repairedPix.id}`,
      { token: drifting.key },
    );
    expect(events.body.data).toHaveLength(1);
    // Nothing is invented from the unknown payment, and the missing one is left as it was.
    const listed = await api.get('/api/transactions?limit=100', { token: drifting.key });
    expect(listed.body.data).toHaveLength(3);
    expect((await api.get(`/api/transactions/${missingPix.id}`, { token: drifting.key })).body.status).toBe(
      'pendingPix',
    );
  });

  it('writes one record per seller and day and repairs nothing twice when run again', async () => {
    const before = (await recordOf(drifting, day)) as { id: string };
    // Any state the first run saw may have moved since: the record of a reconciled day stands.
    fake.addForeignPayment(drifting.apiKey, { value: 1 });
    const again = (await runJob(runtime.deps, { job: RECONCILIATION_JOB, id: day })) as {
      reconciled: number;
    };
    expect(again.reconciled).toBeGreaterThanOrEqual(2);
    await runtime.timeline.tick();
    const list = (await reconciliations(drifting)).body.data.filter((r: { day: string }) => r.day === day);
    expect(list).toEqual([await recordOf(drifting, day)]);
    expect(list[0]).toMatchObject({ id: before.id, differenceCount: 4 });
    const events = await api.get(
      `/api/events?type=transaction.payment.succeeded&resourceId=${repairedPix.id}`,
      { token: drifting.key },
    );
    expect(events.body.data).toHaveLength(1);
  });

  it("answers another seller's record as a missing one", async () => {
    const record = (await recordOf(drifting, day)) as { id: string };
    const other = await api.get(`/api/reconciliations/${record.id}`, { token: matching.key });
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('Reconciliation not found');
    expect((await reconciliations(matching)).body.data.map((r: { id: string }) => r.id)).not.toContain(
      record.id,
    );
    // An id of no reconciliation's shape answers like a missing one too.
    expect((await api.get('/api/reconciliations/rcn_nope', { token: matching.key })).status).toBe(404);
  });
});

describe('reconciling a sandbox day through its records', () => {
  it('lists the sandbox charges of the day and pays a pix the sandbox marked paid without notifying', async () => {
    await awayFromMidnight();
    const sellerId = nextSeller++;
    const { jwt } = await liveKeyOf(live, sellerId);
    const key = (await api.post('/api/api-keys', { name: 'test', environment: 'test' }, { token: jwt })).body
      .key as string;
    const product = (
      await api.post(
        '/api/products',
        { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 25, installments: 1 },
        { token: key },
      )
    ).body;
    const sale = async () =>
      (
        await api.post('/api/transactions', {
          productId: product.uuid,
          paymentMethod: 'pix',
          customer: buyer,
        })
      ).body as { id: number; gatewayPayId: number };
    const stuck = await sale();
    const pending = await sale();
    // The sandbox marks the charge paid and dies before its notification leaves.
    await api.post(`/api/test-helpers/transactions/${stuck.id}/pay`, { notify: false }, { token: key });
    const day = saoPauloDate(runtime.clock.now());
    const tenant = { sellerId, environment: 'test' as const };
    const sandbox = runtime.deps.deps.payments.forEnvironment('test');

    const listed = await sandbox.listPayments(tenant, day);
    expect(listed.map((p) => [p.gatewayPayId, p.amountCentavos, p.status]).sort()).toEqual(
      [
        [stuck.gatewayPayId, 2500, 'paid'],
        [pending.gatewayPayId, 2500, 'pending'],
      ].sort(),
    );
    expect(await sandbox.listPayments({ sellerId: sellerId + 1, environment: 'test' }, day)).toEqual([]);

    const service = runtime.deps.deps;
    const deps = {
      ...service,
      apply: (n: Parameters<typeof receiveVerifiedNotification>[1]) =>
        receiveVerifiedNotification(service, n),
    };
    const record = await runtime.deps.unitOfWork(() => reconcileTenantDay(deps, tenant, sandbox, day));
    expect(record).toMatchObject({ provider: 'sandbox', differenceCount: 1, repairedCount: 1 });
    expect(record.differences[0]).toMatchObject({
      kind: 'status_mismatch',
      transactionId: stuck.id,
      providerStatus: 'paid',
      ourStatus: 'pendingPix',
      repair: 'charge.paid',
    });
    await runtime.timeline.tick();
    expect((await api.get(`/api/transactions/${stuck.id}`, { token: key })).body.status).toBe('payedPix');
    const shown = await api.get(`/api/reconciliations/${record.id}`, { token: key });
    expect(shown.body).toMatchObject({ environment: 'test', provider: 'sandbox', repairedCount: 1 });

    // The next day holds only its own sale, on both sides.
    await api.post('/api/test-helpers/clock/advance', { seconds: 86_400 });
    const next = await sale();
    const nextDay = saoPauloDate(runtime.clock.now());
    expect(nextDay).toBe(addDays(day, 1));
    const second = await runtime.deps.unitOfWork(() => reconcileTenantDay(deps, tenant, sandbox, nextDay));
    expect(second).toMatchObject({
      providerPayments: 1,
      transactions: 1,
      differenceCount: 0,
      status: 'matched',
    });
    expect((await sandbox.listPayments(tenant, nextDay)).map((p) => p.gatewayPayId)).toEqual([
      next.gatewayPayId,
    ]);
  });
});
