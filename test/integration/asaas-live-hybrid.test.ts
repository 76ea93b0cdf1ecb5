import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { parsePixPayload } from '#shared/domain/payments/pix';
import { type AsaasLive, connectAsaas, LIVE_CUSTOMER, liveKeyOf, useAsaasLive } from '../support/asaas-live';
import type { FakeAsaas } from '../support/fake-asaas/server';
import type { client } from '../support/runtime';

/**
 * A live seller's boleto on Asaas: registered with its fine and interest, carrying the pix QR code
 * Asaas issues for a BOLETO payment, and paid late (as a boleto or by its pix) for the value Asaas
 * reports, which is split into fine and interest.
 */

const BASE = '/api/v1/scheduled-charges';
const DAY_SECONDS = 86_400;

let fake: FakeAsaas;
let runtime: Runtime;
let api: ReturnType<typeof client>;
let nextSeller = 171_000;

let live: AsaasLive;

useAsaasLive((l) => {
  live = l;
  ({ fake, runtime, api } = l);
  // The provider's calendar is the test clock's: a payment made after advancing it is late.
  fake.today = () => saoPauloDate(runtime.clock.now());
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

const events = async (key: string, id: number) =>
  (await api.get(`/api/events?type=transaction.payment.succeeded&resourceId=${id}`, { token: key })).body
    .data as unknown[];

describe('a live boleto híbrido on Asaas, paid 10 days late', () => {
  it.each([
    ['as a boleto', 'BOLETO', 'boleto'],
    ['by its pix', 'PIX', 'pix'],
  ] as const)(
    '%s: collects the fine and the pro rata interest to the centavo, once',
    async (_, via, paidWith) => {
      const s = await connectedLiveSeller();
      const dueDate = addDays(today(), 5);
      const created = await api.post(
        BASE,
        {
          customerId: s.customer.id,
          amount: 344.97,
          dueDate,
          methods: ['boleto'],
          type: 'one_time',
          fine: { type: 'percentage', value: 2 },
          interest: { percentPerMonth: 1 },
        },
        { token: s.key },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const cycle = (await api.get(`${BASE}/${created.body.id}`, { token: s.key })).body.cycles[0];
      const boleto = cycle.issued.find((t: { paymentMethod: string }) => t.paymentMethod === 'boleto');
      const payment = fake.paymentByReference(String(boleto.gatewayPayId));
      if (!payment) throw new Error('no payment at the fake');
      // Registered with its terms, in Asaas's fields.
      expect(payment).toMatchObject({
        billingType: 'BOLETO',
        value: 344.97,
        dueDate,
        fine: { value: 2, type: 'PERCENTAGE' },
        interest: { value: 1 },
      });
      // The boleto's pix is the one Asaas issued for this payment, of the same amount.
      expect(
        fake.requests.some((r) => r.method === 'GET' && r.path === `/v3/payments/${payment.id}/pixQrCode`),
      ).toBe(true);
      expect(parsePixPayload(boleto.boleto.pixQrCode)).toMatchObject({
        pointOfInitiation: 'singleUse',
        amountCentavos: 34497,
        location: expect.stringContaining(payment.id),
      });

      await api.post('/api/test-helpers/clock/advance', { seconds: 15 * DAY_SECONDS });
      expect(today()).toBe(addDays(dueDate, 10));
      const answer = await fake.pay(payment.id, { via });
      expect(answer?.status).toBe(200);
      expect(await answer?.json()).toMatchObject({ applied: true, status: 'payedBoleto' });
      // 344.97 + 2% (6.90) + 344.97 × 1% × 10/30 (1.15) = 353.02, as the provider reports it.
      expect(fake.payment(payment.id)).toMatchObject({
        value: 353.02,
        originalValue: 344.97,
        interestValue: 8.05,
      });
      const t = (await api.get(`/api/transactions/${boleto.id}`, { token: s.key })).body;
      expect(t).toMatchObject({
        status: 'payedBoleto',
        paidWith,
        value: 344.97,
        paidAmount: 353.02,
        fineAmount: 6.9,
        interestAmount: 1.15,
        discountAmount: 0,
      });
      const after = (await api.get(`${BASE}/${created.body.id}`, { token: s.key })).body;
      expect(after.cycles[0]).toMatchObject({ status: 'paid', amountDue: null });

      // The other way to pay is gone at the provider, and the event delivered again changes nothing.
      await expect(fake.pay(payment.id, { via: via === 'PIX' ? 'BOLETO' : 'PIX' })).rejects.toThrow(
        /RECEIVED/,
      );
      const again = await fake.sendEvent(
        fake.payment(payment.id) as NonNullable<ReturnType<FakeAsaas['payment']>>,
        'PAYMENT_RECEIVED',
      );
      expect(await again?.json()).toMatchObject({ applied: false });
      expect(await events(s.key, boleto.id)).toHaveLength(1);
    },
  );
});
