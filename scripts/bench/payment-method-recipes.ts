import { createSale, createTransactionSchema } from '#shared/domain/transactions/create';
import { sandbox, throwingReporter } from './fixtures';
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

/** Customers the cards are spread over: a list answers at most 100 methods of one customer. */
const CUSTOMERS = 10;

/**
 * A sandbox seller with `count` saved cards over `customers` customers (card i belongs to buyer
 * i % customers); answers the seller, its key and each card as its customer's uuid and id and its id.
 */
export async function customersWithCards(ctx: BenchContext, count: number, customers = CUSTOMERS) {
  const seller = await testSeller(ctx);
  const { deps } = ctx.runtime;
  const createDeps = {
    products: deps.repos.products,
    portalConfigs: deps.repos.portalConfigs,
    transactions: deps.repos.transactions,
    attempts: deps.repos.attempts,
    customers: deps.repos.customers,
    sessions: deps.repos.checkoutSessions,
    atomically: deps.atomically,
    affiliations: deps.repos.affiliations,
    paymentMethods: deps.repos.paymentMethods,
    payments: deps.payments,
    scheduler: deps.scheduler,
    clock: deps.clock,
    ids: deps.ids,
    reporter: throwingReporter,
  };
  const owners = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const body = {
      productId: seller.product.uuid,
      paymentMethod: 'creditcard',
      customer: buyer(seller.sellerId, i % customers),
      card: { ...APPROVED_CARD, ...expiryOf(i) },
      saveCard: true,
    };
    const { customer } = await createSale(createDeps, createTransactionSchema.parse(body));
    owners.set(customer.uuid, customer.id);
  }
  const cards: { customerUuid: string; customerId: number; id: number }[] = [];
  for (const [customerUuid, customerId] of owners) {
    const saved = await deps.repos.paymentMethods.listByCustomer(sandbox(seller.sellerId), customerUuid);
    for (const pm of saved) cards.push({ customerUuid, customerId, id: pm.id });
  }
  if (cards.length !== count)
    throw new Error(`bench set-up: expected ${count} saved cards, found ${cards.length}`);
  return { sellerId: seller.sellerId, key: seller.key, cards };
}

export const paymentMethodRecipes: Record<string, Recipe> = {
  'GET /api/v1/customers/{uuid}/payment-methods': {
    prepare: async (ctx) => {
      // One customer with a few saved cards.
      const { key, cards } = await customersWithCards(ctx, 3, 1);
      const customerUuid = cards[0].customerUuid;
      return () => ({ method: 'GET', path: methods(customerUuid), token: key, expect: 200 });
    },
  },
  'DELETE /api/v1/customers/{uuid}/payment-methods/{id}': {
    prepare: async (ctx, count) => {
      // A saved card to detach on every request (its expiry schedule is cancelled and the sandbox
      // forgets its token).
      const { key, cards } = await customersWithCards(ctx, count);
      return (i) => ({
        method: 'DELETE',
        path: `${methods(cards[i].customerUuid)}/${cards[i].id}`,
        token: key,
        expect: 200,
      });
    },
  },
};
