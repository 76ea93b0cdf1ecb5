import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { sellerFixtures } from '../support/fixtures';
import { Receiver } from '../support/receiver';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 340_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const PAGE = 'page must be an integer of at least 1';
const LIMIT = 'limit must be an integer from 1 to 100';

/** A seller with one of everything a list shows: customer, product, scheduled charge, endpoint. */
async function seller() {
  const { key, customer } = await fixtures.seller({
    customer: {},
    product: { name: 'Aulas de violão', image: 'https://cdn.example.com/v.png', installments: 1 },
  });
  const charge = await api.post(
    '/api/v1/scheduled-charges',
    {
      customerId: customer.id,
      amount: 49.9,
      dueDate: addDays(saoPauloDate(runtime.clock.now()), 1),
      methods: ['pix'],
      type: 'one_time',
      description: 'Aula avulsa',
    },
    { token: key },
  );
  expect(charge.status, JSON.stringify(charge.body)).toBe(201);
  const receiver = await new Receiver().start();
  const endpoint = await api.post(
    '/api/webhook-endpoints',
    { url: receiver.url, events: ['*'] },
    { token: key },
  );
  await receiver.stop();
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  return { key, chargeId: charge.body.id as string, endpointId: endpoint.body.id as string };
}

describe('paging, the same on every list', () => {
  it('answers a page past the end with 200, an empty page and the same totals as page 1', async () => {
    const s = await seller();
    const numbered = [
      '/api/transactions',
      '/api/v1/customers',
      '/api/products/seller',
      '/api/products',
      '/api/subscriptions',
      '/api/v1/scheduled-charges',
      `/api/v1/scheduled-charges/${s.chargeId}/attempts`,
      '/api/v1/installment-plans',
      '/api/checkout/sessions',
    ];
    for (const path of numbered) {
      const first = await api.get(path, { token: s.key });
      expect(first.status, path).toBe(200);
      for (const query of ['?page=2&limit=100', '?page=999', '?page=1000000&limit=100']) {
        const past = await api.get(`${path}${query}`, { token: s.key });
        expect(past.status, `${path}${query}: ${JSON.stringify(past.body)}`).toBe(200);
        const { data, count, page, ...totals } = past.body;
        expect([data, count], `${path}${query}`).toEqual([[], 0]);
        const { data: _d, count: _c, page: _p, ...firstTotals } = first.body;
        if (query.includes('limit=100')) expect(totals.totalCount, path).toBe(firstTotals.totalCount);
        else expect(totals, path).toEqual(firstTotals);
        if (page !== undefined) expect(page).toBe(Number(new URLSearchParams(query).get('page')));
      }
    }
  });

  // Under the 100 requests a minute of one key: 3 limits, 2 pages or a cursor per list beside the set-up.
  it('words a bad page, limit or cursor the same on every list, numbered or by cursor', async () => {
    const s = await seller();
    const numbered = [
      '/api/transactions',
      '/api/v1/customers',
      '/api/products/seller',
      '/api/products',
      '/api/subscriptions',
      '/api/v1/scheduled-charges',
      `/api/v1/scheduled-charges/${s.chargeId}/attempts`,
      '/api/v1/installment-plans',
      '/api/checkout/sessions',
    ];
    const byCursor = [
      '/api/v1/charges',
      '/api/v1/products',
      '/api/webhook-endpoints',
      `/api/webhook-endpoints/${s.endpointId}/deliveries`,
      '/api/test-helpers/mail',
    ];
    const refusals: [string, string][] = [];
    for (const path of [...numbered, ...byCursor]) {
      for (const limit of ['0', '101', 'x']) refusals.push([`${path}?limit=${limit}`, LIMIT]);
    }
    for (const path of numbered) {
      for (const page of ['0', '1.5']) refusals.push([`${path}?page=${page}`, PAGE]);
    }
    for (const path of byCursor) refusals.push([`${path}?cursor=garbage`, 'cursor is not valid']);
    for (const [path, message] of refusals) {
      const res = await api.get(path, { token: s.key });
      expect([res.status, res.body.message], path).toEqual([400, [message]]);
    }
  });
});
