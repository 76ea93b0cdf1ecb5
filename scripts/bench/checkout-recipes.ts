import { type PaymentOutcome, payCheckout } from '#shared/domain/checkout/public';
import { createSessionSchema } from '#shared/domain/checkout/schemas';
import { createSession, type SessionDeps } from '#shared/domain/checkout/sessions';
import type { ProductView } from '#shared/domain/products/products';
import { sandbox } from './fixtures';
import type { BenchContext, Recipe } from './recipes';
import { buyer, testSeller } from './transaction-recipes';

/**
 * functions/checkout (sessions through an sk_test_ key, the hosted page's public routes, the
 * sandbox pay helper) and functions/pages (the HTML pages). Sessions act on the test environment:
 * the live slot has no provider, so only a sandbox session can be paid. Sessions and their payments
 * are made in `prepare` straight through the domain (no HTTP, not measured, no rate limit); a route
 * that changes a session (expire, pay) gets a fresh open session per request.
 */

type SessionView = Awaited<ReturnType<typeof createSession>>;

/** What the checkout handler builds from its container, from the runtime's. */
function checkoutDeps(ctx: BenchContext) {
  const { deps } = ctx.runtime;
  return {
    sessions: deps.repos.checkoutSessions,
    transactions: deps.repos.transactions,
    attempts: deps.repos.attempts,
    products: deps.repos.products,
    portalConfigs: deps.repos.portalConfigs,
    prices: deps.repos.prices,
    subscriptions: deps.repos.subscriptions,
    customers: deps.repos.customers,
    atomically: deps.atomically,
    affiliations: deps.repos.affiliations,
    paymentMethods: deps.repos.paymentMethods,
    payments: deps.payments,
    scheduler: deps.scheduler,
    clock: deps.clock,
    ids: deps.ids,
    publicBaseUrl: deps.config.publicBaseUrl,
    allowLocalHttp: deps.urlPolicy.allowLocalHttp,
    reporter: deps.reporter,
  } satisfies SessionDeps & Record<string, unknown>;
}

/**
 * A POST /api/checkout/sessions body as an integration sends it: a success URL with the session id
 * and the buyer prefilled under the spec's dotted keys (the sandbox pay helper pays with the prefill).
 */
export const sessionBody = (product: ProductView, sellerId: number, i: number) => {
  const b = buyer(sellerId, i);
  return {
    product_id: product.id,
    success_url: 'https://example.com/thanks?session={SESSION_ID}',
    customer: {
      'customer.name': b.name,
      'customer.email': b.email,
      'customer.document': b.document,
      'customer.phone': b.phone,
    },
  };
};

/** Open sessions of the seller's sandbox product, sequentially (one tenant's writes at a time). */
async function createSessions(
  ctx: BenchContext,
  seller: { sellerId: number; product: ProductView },
  count: number,
): Promise<SessionView[]> {
  const deps = checkoutDeps(ctx);
  const out: SessionView[] = [];
  for (let i = 0; i < count; i++) {
    const input = createSessionSchema.parse(sessionBody(seller.product, seller.sellerId, i % 10));
    out.push(await createSession(deps, sandbox(seller.sellerId), input));
  }
  return out;
}

/** A pix payment made on the session's page (pending until the provider's notification). */
async function payByPix(ctx: BenchContext, sellerId: number, session: SessionView): Promise<PaymentOutcome> {
  // The page sends the buyer as the customers API names the fields.
  return payCheckout(checkoutDeps(ctx), session.id, { paymentMethod: 'pix', customer: buyer(sellerId, 0) });
}

const sessions = '/api/checkout/sessions';

export const checkoutRecipes: Record<string, Recipe> = {
  [`POST ${sessions}`]: {
    prepare: async (ctx) => {
      const seller = await testSeller(ctx);
      return (i) => ({
        method: 'POST',
        path: sessions,
        token: seller.key,
        body: sessionBody(seller.product, seller.sellerId, i),
        expect: 201,
      });
    },
  },
  [`GET ${sessions}`]: {
    prepare: async (ctx) => {
      // More sessions than one page (default limit 20), unfiltered, as a dashboard lists them.
      const seller = await testSeller(ctx);
      await createSessions(ctx, seller, 25);
      return () => ({ method: 'GET', path: sessions, token: seller.key, expect: 200 });
    },
  },
  [`GET ${sessions}/{id}`]: {
    prepare: async (ctx) => {
      const seller = await testSeller(ctx);
      const [session] = await createSessions(ctx, seller, 1);
      return () => ({ method: 'GET', path: `${sessions}/${session.id}`, token: seller.key, expect: 200 });
    },
  },
  [`POST ${sessions}/{id}/expire`]: {
    prepare: async (ctx, count) => {
      // A fresh open session each time, without payments: each ends expired.
      const seller = await testSeller(ctx);
      const open = await createSessions(ctx, seller, count);
      return (i) => ({
        method: 'POST',
        path: `${sessions}/${open[i].id}/expire`,
        token: seller.key,
        expect: 200,
      });
    },
  },

  // Public: no token; the rate limit counts the client IP and the runner's batches stay under it.
  'GET /api/public/checkout/{ref}': {
    prepare: async (ctx) => {
      // What the page of a new session reads on load: the session and its product, no payment yet.
      const seller = await testSeller(ctx);
      const [session] = await createSessions(ctx, seller, 1);
      return () => ({ method: 'GET', path: `/api/public/checkout/${session.id}`, expect: 200 });
    },
  },
  'POST /api/public/checkout/{ref}/pay': {
    prepare: async (ctx, count) => {
      // The page's pix payment on a fresh session each time: even requests a new buyer, odd ones
      // the same returning buyer (as POST /api/transactions is measured).
      const seller = await testSeller(ctx);
      const open = await createSessions(ctx, seller, count);
      return (i) => ({
        method: 'POST',
        path: `/api/public/checkout/${open[i].id}/pay`,
        body: { paymentMethod: 'pix', customer: buyer(seller.sellerId, i % 2 === 0 ? i + 1 : 0) },
        expect: 201,
      });
    },
  },
  'GET /api/public/checkout/{ref}/payments/{paymentId}': {
    prepare: async (ctx) => {
      // The page's poll while its pix waits for the provider: the payment stays pending.
      const seller = await testSeller(ctx);
      const [session] = await createSessions(ctx, seller, 1);
      const payment = await payByPix(ctx, seller.sellerId, session);
      return () => ({
        method: 'GET',
        path: `/api/public/checkout/${session.id}/payments/${payment.paymentId}`,
        expect: 200,
      });
    },
  },
  'POST /api/test-helpers/checkout/sessions/{id}/pay': {
    prepare: async (ctx, count) => {
      // Pix on a fresh session each time, paid with its prefill: the helper makes the page's pix
      // payment, then the sandbox pays it by a signed notification (a nested POST to
      // /api/transactions/handle-webhook, whose round trips count in this request), and the
      // session completes.
      const seller = await testSeller(ctx);
      const open = await createSessions(ctx, seller, count);
      return (i) => ({
        method: 'POST',
        path: `/api/test-helpers/checkout/sessions/${open[i].id}/pay`,
        token: seller.key,
        body: { paymentMethod: 'pix' },
        expect: 200,
      });
    },
  },

  // functions/pages: public HTML, rate limited per IP like the JSON routes.
  'GET /pay/{productUuid}': {
    prepare: async (ctx) => {
      // A product's payment link: the page reads the product (by uuid) only.
      const seller = await testSeller(ctx);
      return () => ({ method: 'GET', path: `/pay/${seller.product.uuid}`, expect: 200 });
    },
  },
  'GET /checkout/{id}': {
    prepare: async (ctx) => {
      // A session's url as the buyer first opens it: the session and its product, no payment yet.
      const seller = await testSeller(ctx);
      const [session] = await createSessions(ctx, seller, 1);
      return () => ({ method: 'GET', path: `/checkout/${session.id}`, expect: 200 });
    },
  },
  'GET /pages/assets/{file}': {
    prepare: async () => () => ({ method: 'GET', path: '/pages/assets/checkout.js', expect: 200 }),
  },
};
