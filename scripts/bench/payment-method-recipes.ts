import { createSale, createTransactionSchema } from '#shared/domain/transactions/create';
import { sandbox } from './fixtures';
import type { BenchContext, Recipe } from './recipes';
import { APPROVED_CARD, buyer, testSeller } from './transaction-recipes';

/**
 * The saved-card routes of functions/customers, through an sk_test_ key: only the sandbox provider
 * tokenizes cards. Cards are saved the way a buyer saves them, by an approved card payment with
 * `saveCard: true` made straight through the domain (not measured); each differs by its expiry,
 * since the same card saved twice for a customer is kept once.
 */

const methods = (uuid: string) => `/api/v1/customers/${uuid}/payment-methods`;

/** The i-th distinct expiry, from January 2030 on. */
const expiryOf = (i: number) => ({ expiryMonth: (i % 12) + 1, expiryYear: 2030 + Math.floor(i / 12) });

/** A sandbox seller whose one customer has `count` saved cards; answers the customer and the card ids. */
async function customerWithCards(ctx: BenchContext, count: number) {
  const seller = await testSeller(ctx);
  const { deps } = ctx.runtime;
  const createDeps = {
    products: deps.repos.products,
    transactions: deps.repos.transactions,
    customers: deps.repos.customers,
    affiliations: deps.repos.affiliations,
    paymentMethods: deps.repos.paymentMethods,
    payments: deps.payments,
    scheduler: deps.scheduler,
    clock: deps.clock,
    ids: deps.ids,
    onSaveCardError: (error: unknown) => {
      throw error;
    },
  };
  let customerUuid = '';
  for (let i = 0; i < count; i++) {
    const body = {
      productId: seller.product.uuid,
      paymentMethod: 'creditcard',
      customer: buyer(seller.sellerId, 0),
      card: { ...APPROVED_CARD, ...expiryOf(i) },
      saveCard: true,
    };
    const t = await createSale(createDeps, createTransactionSchema.parse(body));
    customerUuid = t.customer.uuid;
  }
  const saved = await deps.repos.paymentMethods.listByCustomer(sandbox(seller.sellerId), customerUuid);
  if (saved.length !== count)
    throw new Error(`bench set-up: expected ${count} saved cards, found ${saved.length}`);
  return { key: seller.key, customerUuid, ids: saved.map((pm) => pm.id) };
}

export const paymentMethodRecipes: Record<string, Recipe> = {
  'GET /api/v1/customers/{uuid}/payment-methods': {
    prepare: async (ctx) => {
      // A customer with a few saved cards.
      const { key, customerUuid } = await customerWithCards(ctx, 3);
      return () => ({ method: 'GET', path: methods(customerUuid), token: key, expect: 200 });
    },
  },
  'DELETE /api/v1/customers/{uuid}/payment-methods/{id}': {
    prepare: async (ctx, count) => {
      // A saved card to detach on every request (its expiry schedule is cancelled and the sandbox
      // forgets its token).
      const { key, customerUuid, ids } = await customerWithCards(ctx, count);
      return (i) => ({
        method: 'DELETE',
        path: `${methods(customerUuid)}/${ids[i]}`,
        token: key,
        expect: 200,
      });
    },
  },
};
