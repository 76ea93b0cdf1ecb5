import { signatureHeader } from '#events/signing';
import { createCustomer } from '#shared/domain/customers/customers';
import { createCustomerSchema } from '#shared/domain/customers/schemas';
import { cpfCheckDigits } from '#shared/domain/documents';
import type { ChargeMethod } from '#shared/domain/payments/gateway';
import type { ProductView } from '#shared/domain/products/products';
import { createTransaction, createTransactionSchema } from '#shared/domain/transactions/create';
import { createProducts, sandbox, testApiKey } from './fixtures';
import type { BenchContext, BenchRequest, Recipe } from './recipes';

/**
 * functions/transactions and the sandbox test helpers of functions/test-helpers. Everything acts
 * on the test environment (the live slot has no provider): sk_test_ keys, or the dashboard JWT with
 * X-Environment: test on the panel-only cancel. Routes that change a transaction get a fresh one
 * per request, bought in `prepare` straight through the domain (no HTTP, no rate limit).
 *
 * The runner keys one recipe per route, so POST /api/transactions is measured with pix;
 * checkoutRecipe('boleto' | 'creditcard') measures the other methods once the runner has variants.
 */

/** A test card the sandbox approves (4000000000000002 would be declined). */
export const APPROVED_CARD = {
  number: '4111111111111111',
  holderName: 'BENCH BUYER',
  expiryMonth: 12,
  expiryYear: 2034,
  cvv: '123',
};

/** A buyer of its own per (seller, i), with a valid CPF: i = 0 is reused for "returning buyer" runs. */
export function buyer(sellerId: number, i: number) {
  const base = `2${String(sellerId % 1000).padStart(3, '0')}${String(i).padStart(5, '0')}`;
  return {
    name: `Bench Buyer ${i}`,
    email: `buyer${i}@example.com`,
    document: `${base}${cpfCheckDigits(base)}`,
    phone: '11987654321',
  };
}

/** A POST /api/transactions body; cards get the approved test card. */
export const checkoutBody = (product: ProductView, method: ChargeMethod, customer = buyer(0, 0)) => ({
  productId: product.uuid,
  paymentMethod: method,
  customer,
  ...(method === 'creditcard' ? { card: APPROVED_CARD } : {}),
});

interface TestSeller {
  sellerId: number;
  /** Dashboard JWT (live unless the request says X-Environment: test). */
  token: string;
  /** sk_test_ key: its requests act on the test environment. */
  key: string;
  /** A test-environment product that accepts pix, boleto and card. */
  product: ProductView;
}

export async function testSeller(ctx: BenchContext): Promise<TestSeller> {
  const { sellerId, token } = await ctx.newSeller();
  const key = await testApiKey(ctx, sellerId);
  const [product] = await createProducts(ctx, sandbox(sellerId), 1);
  return { sellerId, token, key, product };
}

export type TransactionView = Awaited<ReturnType<typeof createTransaction>>;

/**
 * Transactions bought through the domain, as the checkout would (the sandbox keeps its own charge
 * record, which pay/cancel/refund need). Sequential: one tenant's counters take one write at a time.
 */
export async function buy(
  ctx: BenchContext,
  seller: TestSeller,
  method: ChargeMethod,
  count: number,
): Promise<TransactionView[]> {
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
    reporter: deps.reporter,
  };
  const out: TransactionView[] = [];
  for (let i = 0; i < count; i++) {
    const body = checkoutBody(seller.product, method, buyer(seller.sellerId, i % 10));
    out.push(await createTransaction(createDeps, createTransactionSchema.parse(body)));
  }
  return out;
}

/** A provider notification signed now (the runner asks for request i just before it sends it). */
function signedNotification(ctx: BenchContext, t: TransactionView, i: number): BenchRequest {
  const { runtime } = ctx;
  const now = runtime.clock.now();
  const body = {
    id: `ntf_bench_${t.gatewayPayId}_${i}`,
    provider: 'sandbox',
    type: 'charge.paid',
    gatewayPayId: t.gatewayPayId,
    amount: Math.round(t.value * 100),
    occurredAt: now.toISOString(),
  };
  const raw = JSON.stringify(body);
  const secret = runtime.sandboxNotificationSecret;
  // The runner sends the body as JSON.stringify(body): the very bytes signed here.
  const signature = signatureHeader([secret], Math.floor(now.getTime() / 1000), raw);
  return {
    method: 'POST',
    path: '/api/transactions/handle-webhook',
    body,
    headers: { 'x-signature': signature },
    expect: 201,
  };
}

/** A sandbox test helper on a fresh transaction per request. */
const simulate = (action: 'pay' | 'fail' | 'chargeback', method: ChargeMethod): Recipe => ({
  prepare: async (ctx, count) => {
    const seller = await testSeller(ctx);
    const txs = await buy(ctx, seller, method, count);
    return (i) => ({
      method: 'POST',
      path: `/api/test-helpers/transactions/${txs[i].id}/${action}`,
      token: seller.key,
      body: action === 'fail' ? { failureCode: 'expired' } : {},
      expect: 200,
    });
  },
});

/** A checkout of `method`: even requests a new buyer, odd ones the same returning buyer. */
export const checkoutRecipe = (method: ChargeMethod): Recipe => ({
  prepare: async (ctx) => {
    const seller = await testSeller(ctx);
    return (i) => ({
      method: 'POST',
      path: '/api/transactions',
      body: checkoutBody(seller.product, method, buyer(seller.sellerId, i % 2 === 0 ? i + 1 : 0)),
      expect: 201,
    });
  },
});

/**
 * POST /api/transactions (pix) over four buyers in turn (issue 17): a new one; the same returning
 * buyer, whose earlier sales this container made; a buyer the seller registered by API (POST
 * /api/v1/customers' path, so no sale of this container has seen it); and a buyer only another
 * seller registered (the sale adds this seller's profile of a known global customer).
 */
const saleRecipe: Recipe = {
  prepare: async (ctx, count) => {
    const seller = await testSeller(ctx);
    const other = await ctx.newSeller();
    const { deps } = ctx.runtime;
    const customerDeps = { customers: deps.repos.customers, clock: deps.clock, ids: deps.ids };
    const register = (sellerId: number, customer: ReturnType<typeof buyer>) =>
      createCustomer(
        customerDeps,
        sandbox(sellerId),
        createCustomerSchema.parse({ ...customer, personType: 'fisica' }),
      );
    const customers: ReturnType<typeof buyer>[] = [];
    for (let i = 0; i < count; i++) {
      const kind = i % 4;
      const customer = buyer(seller.sellerId, kind === 1 ? 0 : 10_000 + i);
      if (kind === 2) await register(seller.sellerId, customer);
      if (kind === 3) await register(other.sellerId, customer);
      customers.push(customer);
    }
    return (i) => ({
      method: 'POST',
      path: '/api/transactions',
      body: checkoutBody(seller.product, 'pix', customers[i]),
      expect: 201,
    });
  },
};

/** A seller with more transactions than one page (default limit 20), of every method. */
async function sellerWithHistory(ctx: BenchContext) {
  const seller = await testSeller(ctx);
  const txs = [
    ...(await buy(ctx, seller, 'pix', 10)),
    ...(await buy(ctx, seller, 'boleto', 8)),
    ...(await buy(ctx, seller, 'creditcard', 7)),
  ];
  return { seller, txs };
}

export const transactionRecipes: Record<string, Recipe> = {
  'POST /api/test-helpers/transactions/{id}/pay': simulate('pay', 'pix'),
  'POST /api/test-helpers/transactions/{id}/fail': simulate('fail', 'boleto'),
  // An approved card is paid at once: the sandbox can charge it back.
  'POST /api/test-helpers/transactions/{id}/chargeback': simulate('chargeback', 'creditcard'),

  // Public: the rate limit counts the client IP; the runner's batches stay under it.
  'POST /api/transactions': saleRecipe,
  'GET /api/transactions': {
    prepare: async (ctx) => {
      const { seller } = await sellerWithHistory(ctx);
      return () => ({ method: 'GET', path: '/api/transactions', token: seller.key, expect: 200 });
    },
  },
  'POST /api/transactions/handle-webhook': {
    prepare: async (ctx, count) => {
      // A signed charge.paid for a fresh pending pix each time: the notification is applied.
      const seller = await testSeller(ctx);
      const txs = await buy(ctx, seller, 'pix', count);
      return (i) => signedNotification(ctx, txs[i], i);
    },
  },
  'GET /api/transactions/status/{gatewayPayId}': {
    prepare: async (ctx) => {
      const seller = await testSeller(ctx);
      const [t] = await buy(ctx, seller, 'pix', 1);
      return () => ({ method: 'GET', path: `/api/transactions/status/${t.gatewayPayId}`, expect: 200 });
    },
  },
  'GET /api/transactions/{id}': {
    prepare: async (ctx) => {
      const seller = await testSeller(ctx);
      const [t] = await buy(ctx, seller, 'pix', 1);
      return () => ({ method: 'GET', path: `/api/transactions/${t.id}`, token: seller.key, expect: 200 });
    },
  },
  'DELETE /api/transactions/{id}': {
    prepare: async (ctx, count) => {
      // Panel only: the dashboard JWT with X-Environment: test; the path id is the gatewayPayId.
      const seller = await testSeller(ctx);
      const txs = await buy(ctx, seller, 'pix', count);
      return (i) => ({
        method: 'DELETE',
        path: `/api/transactions/${txs[i].gatewayPayId}`,
        token: seller.token,
        headers: { 'x-environment': 'test' },
        expect: 200,
      });
    },
  },
  'POST /api/transactions/{id}/refund': {
    prepare: async (ctx, count) => {
      // Full refunds of approved cards (paid at once): each ends reversed.
      const seller = await testSeller(ctx);
      const txs = await buy(ctx, seller, 'creditcard', count);
      return (i) => ({
        method: 'POST',
        path: `/api/transactions/${txs[i].id}/refund`,
        token: seller.key,
        body: { reason: 'bench' },
        expect: 200,
      });
    },
  },
  'GET /api/v1/charges': {
    prepare: async (ctx) => {
      const { seller } = await sellerWithHistory(ctx);
      return () => ({ method: 'GET', path: '/api/v1/charges', token: seller.key, expect: 200 });
    },
  },
  'DELETE /api/v1/charges/{uuid}': {
    prepare: async (ctx, count) => {
      const seller = await testSeller(ctx);
      const txs = await buy(ctx, seller, 'pix', count);
      return (i) => ({
        method: 'DELETE',
        path: `/api/v1/charges/${txs[i].uuid}`,
        token: seller.key,
        expect: 200,
      });
    },
  },
  'GET /api/sandbox/boletos/{gatewayPayId}/pdf': {
    prepare: async (ctx) => {
      // Public, like the checkout: the buyer opens the boleto's pdfUrl.
      const seller = await testSeller(ctx);
      const [t] = await buy(ctx, seller, 'boleto', 1);
      const link = new URL(t.boleto?.pdfUrl as string);
      return () => ({ method: 'GET', path: `${link.pathname}${link.search}`, expect: 200 });
    },
  },
};
