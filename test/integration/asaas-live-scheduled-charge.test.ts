import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../infra/local/runtime';
import { addDays, saoPauloDate } from '../../shared/dates';
import { type AsaasLive, connectAsaas, LIVE_CUSTOMER, liveKeyOf, useAsaasLive } from '../support/asaas-live';
import { FAKE_PIX_PAYLOAD, type FakeAsaas } from '../support/fake-asaas/server';
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
      const issued = before.transactions.find((t: { paymentMethod: string }) => t.paymentMethod === method);
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
});
