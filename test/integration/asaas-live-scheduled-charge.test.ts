import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { type AsaasLive, connectAsaas, LIVE_CUSTOMER, liveKeyOf, useAsaasLive } from '../support/asaas-live';
import { FAKE_CARDS, FAKE_PIX_PAYLOAD, type FakeAsaas } from '../support/fake-asaas/server';
import type { client } from '../support/runtime';

/** A scheduled charge of a live seller: its pix and boleto are Asaas's, and an Asaas notification pays the cycle. */

const BASE = '/api/v1/scheduled-charges';

let fake: FakeAsaas;
let runtime: Runtime;
let api: ReturnType<typeof client>;
let nextSeller = 162_000;

let live: AsaasLive;

useAsaasLive((l) => {
  live = l;
  ({ fake, runtime, api } = l);
});

const today = () => saoPauloDate(runtime.clock.now());

async function connectedLiveSeller() {
  const sellerId = nextSeller++;
  const { jwt, key } = await liveKeyOf(live, sellerId);
  const customer = (await api.post('/api/v1/customers', LIVE_CUSTOMER, { token: key })).body;
  const res = await connectAsaas(live, jwt);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { key, customer };
}

const detail = async (key: string, id: string) => (await api.get(`${BASE}/${id}`, { token: key })).body;

describe('a live scheduled charge on Asaas', () => {
  it.each([
    ['pix', 'PIX', 'payedPix'],
    ['boleto', 'BOLETO', 'payedBoleto'],
  ])(
    'issues its %s at Asaas, and PAYMENT_RECEIVED pays the cycle',
    async (method, billingType, paidStatus) => {
      const s = await connectedLiveSeller();
      const created = await api.post(
        BASE,
        {
          customerId: s.customer.id,
          amount: 150.5,
          dueDate: addDays(today(), 2),
          methods: ['pix', 'boleto'],
          type: 'one_time',
          description: 'Aula particular',
        },
        { token: s.key },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const before = await detail(s.key, created.body.id);
      const issued = before.cycles[0].issued.find(
        (t: { paymentMethod: string }) => t.paymentMethod === method,
      );
      expect(issued).toMatchObject({ value: 150.5 });
      if (method === 'pix') expect(issued.pix.qrCode).toBe(FAKE_PIX_PAYLOAD);
      const payment = fake.paymentByReference(String(issued.gatewayPayId));
      expect(payment).toMatchObject({ billingType, value: 150.5, status: 'PENDING' });

      const answer = await fake.pay(payment?.id as string);
      expect(answer?.status).toBe(200);
      expect(await answer?.json()).toMatchObject({ applied: true, status: paidStatus });
      const after = await detail(s.key, created.body.id);
      expect(after.status).toBe('paid');
      expect(after.cycles[0]).toMatchObject({ status: 'paid', paidBy: 'transaction' });
    },
  );

  it('charges cycle 2 silently on the saved Asaas card token, and retries a declined cycle 3 on it', async () => {
    const s = await connectedLiveSeller();
    const [y, m] = today().split('-').map(Number);
    const card = {
      number: FAKE_CARDS.approved,
      holderName: 'MARIA SOUZA',
      expiryMonth: m,
      expiryYear: y + 2,
      cvv: '123',
    };
    const created = await api.post(
      BASE,
      {
        customerId: s.customer.id,
        amount: 49.9,
        dueDate: addDays(today(), 1),
        methods: ['card'],
        type: 'recurring',
        recurrence: { interval: 'month' },
        description: 'Mensalidade',
      },
      { token: s.key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const cycle = (charge: { cycles: { cycleNumber: number }[] }, n: number) =>
      charge.cycles.find((c) => c.cycleNumber === n) as Record<string, any>;

    // Cycle 1 on its link: the card is charged at Asaas and its token kept.
    const first = cycle(await detail(s.key, id), 1);
    const token = String(first.payUrl).split('/').pop();
    const paid = await api.post(`/api/public/cobranca/${token}/card`, { card });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body).toMatchObject({ status: 'paid' });
    let charge = await detail(s.key, id);
    expect(cycle(charge, 1)).toMatchObject({ status: 'paid', paidBy: 'transaction' });
    const firstPayment = fake.paymentByReference(String(charge.transactions[0].gatewayPayId));
    // The holder is the registered customer: its phone (it has no address on file, so none is sent).
    const firstRequest = fake.requests.find(
      (r) => r.body?.externalReference === firstPayment?.externalReference,
    );
    expect(firstRequest?.body.creditCardHolderInfo).toEqual({
      name: LIVE_CUSTOMER.name,
      email: LIVE_CUSTOMER.email,
      cpfCnpj: LIVE_CUSTOMER.document,
      phone: LIVE_CUSTOMER.phone,
    });
    const savedToken = firstPayment?.creditCard?.creditCardToken;
    expect(savedToken).toEqual(expect.any(String));
    expect(JSON.stringify(charge)).not.toContain(String(savedToken));

    // 00:00 of cycle 2's due date: a payment on the token, without the card number or the CVV.
    const intoDay = (date: string) => new Date(startOfSaoPauloDay(date).getTime() + 3_600_000);
    const advanceTo = async (at: Date) => {
      const seconds = Math.ceil((at.getTime() - runtime.clock.now().getTime()) / 1000);
      if (seconds > 0)
        expect((await api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);
    };
    fake.requests.length = 0;
    await advanceTo(intoDay(cycle(charge, 2).dueDate));
    charge = await detail(s.key, id);
    expect(cycle(charge, 2)).toMatchObject({ status: 'paid', attemptCount: 1 });
    const silent = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v3/payments');
    expect(silent).toHaveLength(1);
    expect(silent[0]?.body).toMatchObject({
      billingType: 'CREDIT_CARD',
      creditCardToken: savedToken,
      value: 49.9,
      // No buyer at cycle 2: the IP the buyer paid cycle 1 (and saved the card) from.
      remoteIp: expect.stringMatching(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/),
    });
    expect(silent[0]?.body.creditCard).toBeUndefined();
    const captured = charge.transactions.filter((t: { status: string }) => t.status === 'captured');
    expect(captured).toHaveLength(2);
    expect(captured.map((t: { value: number }) => t.value)).toEqual([49.9, 49.9]);

    // Cycle 3: Asaas refuses the token once (400, nothing persisted); the retry 3 days later is paid.
    fake.failNext({
      status: 400,
      body: {
        errors: [
          { code: 'invalid_creditCard', description: 'Transação não autorizada. Saldo insuficiente.' },
        ],
      },
    });
    await advanceTo(intoDay(cycle(charge, 3).dueDate));
    const declined = cycle(await detail(s.key, id), 3);
    expect(declined).toMatchObject({ attemptCount: 1, failureCode: 'insufficient_funds' });
    expect(declined.nextRetryAt).not.toBeNull();
    await advanceTo(new Date(Date.parse(declined.nextRetryAt) + 3_600_000));
    expect(cycle(await detail(s.key, id), 3)).toMatchObject({ status: 'paid', attemptCount: 2 });
  });
});
