import { cancelSubscription, pauseSubscription } from '#shared/domain/subscriptions/actions';
import type { SubscriptionView } from '#shared/domain/subscriptions/subscription';
import { createSale, createTransactionSchema } from '#shared/domain/transactions/create';
import type { BenchContext, Recipe } from './recipes';
import {
  cardHolders,
  createPrices,
  priceBody,
  type SubscriptionSeller,
  subscribe,
  subscriptionDeps,
  subscriptionSeller,
} from './subscription-fixtures';
import { buyer } from './transaction-recipes';

/**
 * functions/subscriptions (prices and subscriptions through an sk_test_ key) and the sandbox test
 * helpers of issue 12. Subscriptions are started in `prepare` as POST /api/subscriptions starts them
 * (first cycle charged on a saved card), straight through the domain; a route that changes a
 * subscription gets a fresh one per request, already in the state the action starts from.
 */

const subscriptions = '/api/subscriptions';
const prices = (productId: number) => `/api/products/${productId}/prices`;
const seller = { by: 'seller' } as const;

/** A seller with `count` active subscriptions of one buyer (with `cards` saved cards). */
async function sellerWithSubscriptions(ctx: BenchContext, count: number, cards = 1) {
  const s = await subscriptionSeller(ctx);
  const [holder] = await cardHolders(ctx, s, 1, cards);
  return { seller: s, holder, subs: await subscribe(ctx, s, holder, count) };
}

/** A subscription action on a fresh subscription per request, moved first by `before` (not measured). */
const action = (
  verb: string,
  body?: unknown,
  before?: (ctx: BenchContext, s: SubscriptionSeller, sub: SubscriptionView) => Promise<unknown>,
): Recipe => ({
  prepare: async (ctx, count) => {
    const { seller: s, subs } = await sellerWithSubscriptions(ctx, count);
    if (before) for (const sub of subs) await before(ctx, s, sub);
    return (i) => ({
      method: 'POST',
      path: `${subscriptions}/${subs[i].id}/${verb}`,
      token: s.key,
      ...(body === undefined ? {} : { body }),
      expect: 200,
    });
  },
});

/** Pix Automático authorizations the sandbox issued: pending pix charges that carry the consent. */
async function pixAuthorizations(ctx: BenchContext, s: SubscriptionSeller, count: number): Promise<string[]> {
  const { deps } = ctx.runtime;
  const saleDeps = {
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
    reporter: deps.reporter,
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = { productId: s.product.uuid, paymentMethod: 'pix', customer: buyer(s.sellerId, i % 10) };
    const sale = await createSale(saleDeps, createTransactionSchema.parse(body), {
      recurringConsent: { maxAmountCentavos: 10_000, description: 'Bench plan' },
    });
    const id = sale.pix?.authorizationId;
    if (!id) throw new Error('bench set-up: a pix charge with a recurring consent carries no authorization');
    out.push(id);
  }
  return out;
}

export const subscriptionRecipes: Record<string, Recipe> = {
  'POST /api/products/{id}/prices': {
    prepare: async (ctx) => {
      const s = await subscriptionSeller(ctx);
      return (i) => ({
        method: 'POST',
        path: prices(s.product.id),
        token: s.key,
        body: priceBody(i),
        expect: 201,
      });
    },
  },
  'GET /api/products/{id}/prices': {
    prepare: async (ctx) => {
      // A product with a few plans (monthly and others), as a pricing page lists them.
      const s = await subscriptionSeller(ctx);
      await createPrices(ctx, s.tenant, s.product.id, 3);
      return () => ({ method: 'GET', path: prices(s.product.id), token: s.key, expect: 200 });
    },
  },
  'DELETE /api/products/{id}/prices/{priceId}': {
    prepare: async (ctx, count) => {
      const s = await subscriptionSeller(ctx);
      const all = await createPrices(ctx, s.tenant, s.product.id, count);
      return (i) => ({
        method: 'DELETE',
        path: `${prices(s.product.id)}/${all[i].id}`,
        token: s.key,
        expect: 200,
      });
    },
  },

  'POST /api/subscriptions': {
    prepare: async (ctx) => {
      // The API create charges the saved card at once (the price has no trial): active, renewal
      // scheduled. One buyer subscribing again and again; nothing in the request depends on it.
      const s = await subscriptionSeller(ctx);
      const [holder] = await cardHolders(ctx, s, 1);
      return () => ({
        method: 'POST',
        path: subscriptions,
        token: s.key,
        body: { customerId: holder.customerId, priceId: s.price.id, paymentMethodId: holder.cards[0].id },
        expect: 201,
      });
    },
  },
  'GET /api/subscriptions': {
    prepare: async (ctx) => {
      // More subscriptions than one page (default limit 20), unfiltered, as a dashboard lists them.
      const s = await subscriptionSeller(ctx);
      const holders = await cardHolders(ctx, s, 5);
      for (const holder of holders) await subscribe(ctx, s, holder, 5);
      return () => ({ method: 'GET', path: subscriptions, token: s.key, expect: 200 });
    },
  },
  'GET /api/subscriptions/{id}': {
    prepare: async (ctx) => {
      const { seller: s, subs } = await sellerWithSubscriptions(ctx, 1);
      return () => ({ method: 'GET', path: `${subscriptions}/${subs[0].id}`, token: s.key, expect: 200 });
    },
  },
  'GET /api/subscriptions/{id}/events': {
    prepare: async (ctx) => {
      // A new paid subscription's history: created, activated, payment_success.
      const { seller: s, subs } = await sellerWithSubscriptions(ctx, 1);
      return () => ({
        method: 'GET',
        path: `${subscriptions}/${subs[0].id}/events`,
        token: s.key,
        expect: 200,
      });
    },
  },
  // Cancel now, as the spec's plain POST (no body): canceled, the renewal schedule deleted.
  'POST /api/subscriptions/{id}/cancel': action('cancel'),
  'POST /api/subscriptions/{id}/pause': action('pause'),
  'POST /api/subscriptions/{id}/resume': action('resume', undefined, (ctx, s, sub) =>
    pauseSubscription(subscriptionDeps(ctx.runtime), s.tenant, sub.id, seller),
  ),
  // The common reactivation: undoing a cancel at period end before the period ends (no charge).
  'POST /api/subscriptions/{id}/reactivate': action('reactivate', undefined, (ctx, s, sub) =>
    cancelSubscription(subscriptionDeps(ctx.runtime), s.tenant, sub.id, { atPeriodEnd: true, ...seller }),
  ),
  'POST /api/subscriptions/{id}/payment-method': {
    prepare: async (ctx, count) => {
      // Subscriptions on the buyer's first card move to the second.
      const { seller: s, holder, subs } = await sellerWithSubscriptions(ctx, count, 2);
      return (i) => ({
        method: 'POST',
        path: `${subscriptions}/${subs[i].id}/payment-method`,
        token: s.key,
        body: { paymentMethodId: holder.cards[1].id },
        expect: 200,
      });
    },
  },

  // Sandbox test helpers of issue 12.
  'POST /api/test-helpers/payment-methods/{id}/outcome': {
    prepare: async (ctx) => {
      // A renewal test's set-up: the saved card declines from now on (set again each time).
      const s = await subscriptionSeller(ctx);
      const [holder] = await cardHolders(ctx, s, 1);
      return () => ({
        method: 'POST',
        path: `/api/test-helpers/payment-methods/${holder.cards[0].id}/outcome`,
        token: s.key,
        body: { outcome: 'declined', failureCode: 'insufficient_funds' },
        expect: 200,
      });
    },
  },
  'POST /api/test-helpers/pix-authorizations/{id}/approve': {
    prepare: async (ctx, count) => {
      // A pending authorization (its first pix not paid) made active by the bank, one per request.
      const s = await subscriptionSeller(ctx);
      const ids = await pixAuthorizations(ctx, s, count);
      return (i) => ({
        method: 'POST',
        path: `/api/test-helpers/pix-authorizations/${ids[i]}/approve`,
        token: s.key,
        expect: 200,
      });
    },
  },
  'POST /api/test-helpers/pix-authorizations/{id}/revoke': {
    prepare: async (ctx, count) => {
      const s = await subscriptionSeller(ctx);
      const ids = await pixAuthorizations(ctx, s, count);
      return (i) => ({
        method: 'POST',
        path: `/api/test-helpers/pix-authorizations/${ids[i]}/revoke`,
        token: s.key,
        expect: 200,
      });
    },
  },
};
