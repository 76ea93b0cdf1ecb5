import { addDays, saoPauloDate } from '#shared/dates';
import { createCustomer } from '#shared/domain/customers/customers';
import { createCustomerSchema } from '#shared/domain/customers/schemas';
import { cpfCheckDigits } from '#shared/domain/documents';
import { sandbox, testApiKey } from './fixtures';
import type { BenchContext, Recipe } from './recipes';

/**
 * The create routes of functions/scheduled-charges and functions/installment-plans, with an sk_test_
 * key (the sandbox provider). Each request is for a customer of its own (a carnê identical to one
 * just created is refused), registered in `prepare` straight through the domain.
 */

/** A seller with an sk_test_ key, `count` customers and a product that sells by boleto and carnê. */
async function sellerWithCustomers(ctx: BenchContext, count: number) {
  const { sellerId } = await ctx.newSeller();
  const key = await testApiKey(ctx, sellerId);
  const { deps } = ctx.runtime;
  const customerDeps = { customers: deps.repos.customers, clock: deps.clock, ids: deps.ids };
  const customerIds: number[] = [];
  for (let i = 0; i < count; i++) {
    const base = `3${String(sellerId % 1000).padStart(3, '0')}${String(i).padStart(5, '0')}`;
    const input = createCustomerSchema.parse({
      name: `Bench Payer ${i}`,
      email: `payer${i}@example.com`,
      document: `${base}${cpfCheckDigits(base)}`,
      phone: '11987654321',
      personType: 'fisica',
    });
    customerIds.push((await createCustomer(customerDeps, sandbox(sellerId), input)).customer.id);
  }
  const res = await fetch(`${ctx.runtime.baseUrl}/api/products`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench carnê',
      image: 'https://cdn.example.com/c.png',
      value: 1000,
      boleto: true,
      carne: { enabled: true, maxInstallments: 6, interestFactors: { '3': 1.0349 } },
    }),
  });
  if (res.status !== 201) throw new Error(`bench product: ${res.status} ${await res.text()}`);
  const product = (await res.json()) as { uuid: string };
  return { sellerId, key, customerIds, product };
}

const today = (ctx: BenchContext) => saoPauloDate(ctx.runtime.clock.now());

/** Requests a key sends within one rate window while charges are prepared (the limit is 100 a minute). */
const REQUESTS_PER_KEY = 90;

/**
 * `count` one-time charges due in 10 days, one per customer, created over HTTP with keys of their
 * own (outside the measurement). With `payLinks`, each one's detail is read too and the first
 * cycle's pay link token answered beside its id. Answers the key the measured requests use.
 */
async function oneTimeCharges(
  ctx: BenchContext,
  count: number,
  methods: string[],
  options: { payLinks?: boolean; dueInDays?: number } = {},
): Promise<{ key: string; charges: { id: string; token?: string }[] }> {
  const payLinks = options.payLinks ?? false;
  const { sellerId, key, customerIds, product } = await sellerWithCustomers(ctx, count);
  const perCharge = payLinks ? 2 : 1;
  const keys = [key];
  const keyOf = (i: number) => keys[Math.floor((i * perCharge) / REQUESTS_PER_KEY)];
  while (keys.length * REQUESTS_PER_KEY < count * perCharge)
    keys.push(await testApiKey(ctx, sellerId, `bench charges ${keys.length}`));
  const charges: { id: string; token?: string }[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${ctx.runtime.baseUrl}/api/v1/scheduled-charges`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keyOf(i)}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        customerId: customerIds[i],
        productId: product.uuid,
        amount: 49.9,
        dueDate: addDays(today(ctx), options.dueInDays ?? 10),
        methods,
        type: 'one_time',
        description: `Bench charge ${i}`,
      }),
    });
    if (res.status !== 201) throw new Error(`bench charge: ${res.status} ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    if (!payLinks) {
      charges.push({ id });
      continue;
    }
    // The create answers the charge; its detail carries the cycles and their pay links.
    const detail = await fetch(`${ctx.runtime.baseUrl}/api/v1/scheduled-charges/${id}`, {
      headers: { authorization: `Bearer ${keyOf(i)}` },
    });
    if (detail.status !== 200) throw new Error(`bench charge detail: ${detail.status}`);
    const charge = (await detail.json()) as { cycles: { payUrl: string }[] };
    charges.push({ id, token: charge.cycles[0].payUrl.split('/').pop() as string });
  }
  return { key: keys[keys.length - 1], charges };
}

/** An action on a charge of its own per request (due in `dueInDays`), with the seller's key. */
const chargeAction = (
  method: string,
  action: string,
  body: (ctx: BenchContext) => unknown,
  dueInDays = 10,
): Recipe => ({
  prepare: async (ctx, count) => {
    const { key, charges } = await oneTimeCharges(ctx, count, ['pix', 'boleto'], { dueInDays });
    const sent = body(ctx);
    return (i) => ({
      method,
      path: `/api/v1/scheduled-charges/${charges[i].id}${action}`,
      token: key,
      ...(sent === undefined ? {} : { body: sent }),
      expect: 200,
    });
  },
});

export const chargePlanRecipes: Record<string, Recipe> = {
  'GET /api/v1/scheduled-charges/{id}': chargeAction('GET', '', () => undefined),
  // Only a charge due today or overdue can be marked paid.
  'POST /api/v1/scheduled-charges/{id}/mark-paid': chargeAction(
    'POST',
    '/mark-paid',
    (ctx) => ({ paymentDate: today(ctx), externalReference: 'bench' }),
    0,
  ),
  'POST /api/v1/scheduled-charges/{id}/postpone': chargeAction('POST', '/postpone', (ctx) => ({
    newDueDate: addDays(today(ctx), 20),
  })),
  'POST /api/v1/scheduled-charges/{id}/cancel': chargeAction('POST', '/cancel', () => ({ reason: 'bench' })),
  'PATCH /api/v1/scheduled-charges/{id}': chargeAction('PATCH', '', () => ({ description: 'Bench update' })),
  /** The customer pays a one-time card charge on its public pay link (a sale of its own). */
  'POST /api/public/cobranca/{payToken}/card': {
    prepare: async (ctx, count) => {
      const { charges } = await oneTimeCharges(ctx, count, ['card'], { payLinks: true });
      const [year, month] = today(ctx).split('-').map(Number);
      const card = {
        number: '4111111111111111',
        holderName: 'MARIA SOUZA',
        expiryMonth: month,
        expiryYear: year + 2,
        cvv: '123',
      };
      return (i) => ({
        method: 'POST',
        path: `/api/public/cobranca/${charges[i].token}/card`,
        body: { card },
        expect: 201,
      });
    },
  },
  'POST /api/v1/scheduled-charges': {
    prepare: async (ctx, count) => {
      const { key, customerIds, product } = await sellerWithCustomers(ctx, count);
      return (i) => ({
        method: 'POST',
        path: '/api/v1/scheduled-charges',
        token: key,
        body: {
          customerId: customerIds[i],
          productId: product.uuid,
          amount: 150.5,
          dueDate: addDays(today(ctx), 10),
          methods: ['pix', 'boleto'],
          type: 'one_time',
          description: `Bench charge ${i}`,
        },
        expect: 201,
      });
    },
  },
  'POST /api/v1/installment-plans': {
    prepare: async (ctx, count) => {
      const { key, customerIds, product } = await sellerWithCustomers(ctx, count);
      return (i) => ({
        method: 'POST',
        path: '/api/v1/installment-plans',
        token: key,
        body: {
          productId: product.uuid,
          customerId: customerIds[i],
          installments: 3,
          firstDueDate: addDays(today(ctx), 5),
        },
        expect: 201,
      });
    },
  },
};
