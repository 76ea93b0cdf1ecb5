import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAsaas } from '../support/fake-asaas/server';

/** The fake Asaas's admin surface and seeded faults, which the fault suite drives from another process. */
const KEY = '$aact_fake_faults_key';
let fake: FakeAsaas;
let admin: string;

beforeAll(async () => {
  fake = await new FakeAsaas().start();
  admin = `${fake.baseUrl.replace(/\/v3$/, '')}/__admin`;
  await fetch(`${admin}/accounts`, { method: 'POST', body: JSON.stringify({ apiKey: KEY, name: 'Loja' }) });
});
afterAll(() => fake.stop());

const newCustomer = async () =>
  (
    (await (
      await fetch(`${fake.baseUrl}/customers`, {
        method: 'POST',
        headers: { access_token: KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Maria', cpfCnpj: '52998224725' }),
      })
    ).json()) as { id: string }
  ).id;

const createPayment = (customer: string, externalReference: string, timeoutMs = 5_000) =>
  fetch(`${fake.baseUrl}/payments`, {
    method: 'POST',
    headers: { access_token: KEY, 'content-type': 'application/json' },
    body: JSON.stringify({
      customer,
      billingType: 'PIX',
      value: 10,
      dueDate: '2026-12-01',
      externalReference,
    }),
    signal: AbortSignal.timeout(timeoutMs),
  });

const payments = async () =>
  ((await (await fetch(`${admin}/payments`)).json()) as { data: { externalReference: string }[] }).data;

describe('the fake Asaas in its own process', () => {
  it('answers 5xx for the next N calls, then as usual', async () => {
    await fetch(`${admin}/faults`, {
      method: 'PUT',
      body: JSON.stringify({ mode: 'error', next: 1, status: 502 }),
    });
    const customer = await fetch(`${fake.baseUrl}/customers`, {
      method: 'POST',
      headers: { access_token: KEY },
      body: JSON.stringify({ name: 'Maria', cpfCnpj: '52998224725' }),
    });
    expect(customer.status).toBe(502);
    expect((await createPayment(await newCustomer(), 'ref-after-error')).status).toBe(200);
    expect((await payments()).map((p) => p.externalReference)).toContain('ref-after-error');
  });

  it('loses the answer of a call it acted on: the payment exists, the client timed out', async () => {
    const customer = await newCustomer();
    await fetch(`${admin}/faults`, { method: 'PUT', body: JSON.stringify({ mode: 'lost', next: 1 }) });
    await expect(createPayment(customer, 'ref-lost', 300)).rejects.toThrow();
    await fetch(`${admin}/faults`, { method: 'DELETE' });
    expect((await payments()).map((p) => p.externalReference)).toContain('ref-lost');
  });

  it('hits the same calls again for the same seed and share', async () => {
    const hits = async (seed: number) => {
      await fetch(`${admin}/faults`, {
        method: 'PUT',
        body: JSON.stringify({ mode: 'error', share: 0.5, seed }),
      });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++)
        statuses.push(
          (await fetch(`${fake.baseUrl}/myAccount/commercialInfo`, { headers: { access_token: KEY } }))
            .status,
        );
      await fetch(`${admin}/faults`, { method: 'DELETE' });
      return statuses;
    };
    const first = await hits(11);
    expect(await hits(11)).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
  });
});
