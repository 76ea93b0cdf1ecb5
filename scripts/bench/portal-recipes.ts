import { cancelSubscription, pauseSubscription } from '#shared/domain/subscriptions/actions';
import type { SubscriptionView } from '#shared/domain/subscriptions/subscription';
import { createPortalConfig } from './fixtures';
import type { BenchContext, Recipe } from './recipes';
import {
  type CardHolder,
  cardHolders,
  portalToken,
  type SubscriptionSeller,
  subscribe,
  subscriptionDeps,
  subscriptionSeller,
} from './subscription-fixtures';
import { APPROVED_CARD } from './transaction-recipes';

/**
 * functions/portal (the session through an sk_test_ key, the token routes with `?token=`) and the
 * portal page of functions/pages. The seller keeps a portal configuration that allows every
 * action and requires a cancel reason; set-up goes straight through the domain. A token lives an
 * hour: the runner's 220 requests span about three rate windows of the test clock, well inside it.
 * Every token route of one recipe uses one session (the rate limit counts `portal:<session>`).
 */

const portal = '/api/portal';
const customer = { by: 'customer' } as const;

interface PortalCustomer {
  seller: SubscriptionSeller;
  holder: CardHolder;
  subs: SubscriptionView[];
  token: string;
}

/** A seller with its portal configuration, one buyer with `cards` saved cards, `count` subscriptions, a session. */
async function portalCustomer(ctx: BenchContext, count: number, cards = 1): Promise<PortalCustomer> {
  const seller = await subscriptionSeller(ctx);
  await createPortalConfig(ctx, seller.tenant);
  const [holder] = await cardHolders(ctx, seller, 1, cards);
  const subs = await subscribe(ctx, seller, holder, count);
  return { seller, holder, subs, token: await portalToken(ctx, seller, holder) };
}

/** A token route on a fresh subscription per request, moved first by `before` (not measured). */
const action = (
  verb: string,
  body?: unknown,
  before?: (ctx: BenchContext, p: PortalCustomer, sub: SubscriptionView) => Promise<unknown>,
): Recipe => ({
  prepare: async (ctx, count) => {
    const p = await portalCustomer(ctx, count);
    if (before) for (const sub of p.subs) await before(ctx, p, sub);
    return (i) => ({
      method: 'POST',
      path: `${portal}/subscriptions/${p.subs[i].id}/${verb}?token=${p.token}`,
      ...(body === undefined ? {} : { body }),
      expect: 200,
    });
  },
});

const scopeOf = (p: PortalCustomer) => ({ ...customer, customerId: p.holder.customerId });

export const portalRecipes: Record<string, Recipe> = {
  'POST /api/portal/sessions': {
    prepare: async (ctx) => {
      // The seller's server opens a session for a subscriber each time they visit.
      const seller = await subscriptionSeller(ctx);
      const [holder] = await cardHolders(ctx, seller, 1);
      await subscribe(ctx, seller, holder, 1);
      return () => ({
        method: 'POST',
        path: `${portal}/sessions`,
        token: seller.key,
        body: { customerId: holder.customerId },
        expect: 201,
      });
    },
  },
  'GET /api/portal': {
    prepare: async (ctx) => {
      // The portal read (issue 12): a subscriber with two saved cards and three subscriptions,
      // one running, one paused, one cancelled at period end.
      const p = await portalCustomer(ctx, 3, 2);
      const deps = subscriptionDeps(ctx.runtime);
      await pauseSubscription(deps, p.seller.tenant, p.subs[1].id, scopeOf(p));
      await cancelSubscription(deps, p.seller.tenant, p.subs[2].id, { atPeriodEnd: true, ...scopeOf(p) });
      return () => ({ method: 'GET', path: `${portal}?token=${p.token}`, expect: 200 });
    },
  },
  // At period end with the reason the configuration requires; the cancellation e-mail is sent.
  'POST /api/portal/subscriptions/{id}/cancel': action('cancel', {
    atPeriodEnd: true,
    reason: 'Too expensive',
  }),
  'POST /api/portal/subscriptions/{id}/pause': action('pause'),
  'POST /api/portal/subscriptions/{id}/resume': action('resume', undefined, (ctx, p, sub) =>
    pauseSubscription(subscriptionDeps(ctx.runtime), p.seller.tenant, sub.id, scopeOf(p)),
  ),
  // The subscriber changes their mind before the period ends (no charge).
  'POST /api/portal/subscriptions/{id}/reactivate': action('reactivate', undefined, (ctx, p, sub) =>
    cancelSubscription(subscriptionDeps(ctx.runtime), p.seller.tenant, sub.id, {
      atPeriodEnd: true,
      ...scopeOf(p),
    }),
  ),
  'POST /api/portal/subscriptions/{id}/update-payment-method': {
    prepare: async (ctx, count) => {
      // Subscriptions on the first saved card move to the second; the card-updated e-mail is sent.
      const p = await portalCustomer(ctx, count, 2);
      return (i) => ({
        method: 'POST',
        path: `${portal}/subscriptions/${p.subs[i].id}/update-payment-method?token=${p.token}`,
        body: { paymentMethodId: p.holder.cards[1].id },
        expect: 200,
      });
    },
  },
  'POST /api/portal/subscriptions/{id}/add-card-and-update': {
    prepare: async (ctx, count) => {
      // A new card per request (its own expiry: the same card saved twice is kept once), tokenized
      // by the provider, saved, and set on the subscription.
      const p = await portalCustomer(ctx, count);
      return (i) => ({
        method: 'POST',
        path: `${portal}/subscriptions/${p.subs[i].id}/add-card-and-update?token=${p.token}`,
        body: {
          cardNumber: APPROVED_CARD.number,
          holderName: APPROVED_CARD.holderName,
          expiryMonth: (i % 12) + 1,
          expiryYear: 2040 + Math.floor(i / 12),
          cvv: APPROVED_CARD.cvv,
        },
        expect: 200,
      });
    },
  },
  'GET /api/portal/subscriptions/{id}/events': {
    prepare: async (ctx) => {
      const p = await portalCustomer(ctx, 1);
      return () => ({
        method: 'GET',
        path: `${portal}/subscriptions/${p.subs[0].id}/events?token=${p.token}`,
        expect: 200,
      });
    },
  },
  'PUT /api/portal/customer-info': {
    prepare: async (ctx) => {
      const p = await portalCustomer(ctx, 1);
      return (i) => ({
        method: 'PUT',
        path: `${portal}/customer-info?token=${p.token}`,
        body: { name: `Bench Subscriber ${i}`, phone: '11987654321' },
        expect: 200,
      });
    },
  },

  // functions/pages: the hosted portal page and its theme style sheet.
  'GET /portal': {
    prepare: async (ctx) => {
      // The page as the subscriber opens the portal URL: one subscription, one card.
      const p = await portalCustomer(ctx, 1);
      return () => ({ method: 'GET', path: `/portal?token=${p.token}`, expect: 200 });
    },
  },
  'GET /pages/themes/{color}': {
    prepare: async () => () => ({ method: 'GET', path: '/pages/themes/257264', expect: 200 }),
  },
};
