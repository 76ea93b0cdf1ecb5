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
  return { key, customerIds, product };
}

const today = (ctx: BenchContext) => saoPauloDate(ctx.runtime.clock.now());

export const chargePlanRecipes: Record<string, Recipe> = {
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
