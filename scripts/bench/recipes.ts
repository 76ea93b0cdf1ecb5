import type { Runtime } from '#infra/local/runtime';
import { MAX_ACTIVE_API_KEYS } from '#shared/domain/auth/api-keys';
import type { FakeAsaas } from '../../test/support/fake-asaas/server';
import { affiliateRecipes } from './affiliate-recipes';
import { chargePlanRecipes } from './charge-plan-recipes';
import { checkoutRecipes } from './checkout-recipes';
import { connectionAreaRecipes } from './connection-area-recipes';
import { customerRecipes } from './customer-recipes';
import { docsRecipes } from './docs-recipes';
import { sellersFor } from './fixtures';
import { installmentPlanRecipes } from './installment-plan-recipes';
import { mailRecipes } from './mail-recipes';
import { paymentMethodRecipes } from './payment-method-recipes';
import { portalRecipes } from './portal-recipes';
import { productRecipes } from './product-recipes';
import { subscriptionRecipes } from './subscription-recipes';
import { transactionRecipes } from './transaction-recipes';
import { webhookRecipes } from './webhook-recipes';

/** One HTTP request of a measurement, and the status that means it did what it should. */
export interface BenchRequest {
  method: string;
  path: string;
  /** Sent as `Authorization: Bearer <token>` (a dashboard JWT or an API key). */
  token?: string;
  /** Further request headers (a provider's webhook token, say), sent as they are. */
  headers?: Record<string, string>;
  body?: unknown;
  expect: number;
}

export interface BenchContext {
  runtime: Runtime;
  /** The tests' fake Asaas the runtime's asaasBaseUrl points at (endpoints phase only; see endpoints.ts). */
  asaas?: FakeAsaas;
  /** A seller of its own and its dashboard token: recipes share no data and no rate-limit counter. */
  newSeller(): Promise<{ sellerId: number; token: string }>;
  /** Creates API keys straight through the domain (no HTTP, not measured); returns their ids. */
  createKeys(sellerId: number, count: number): Promise<string[]>;
}

/**
 * How to exercise one route: `prepare` runs once, outside the measurement, and returns the i-th
 * request (0 <= i < count; warm-up requests come first). The bench spaces requests so that no
 * principal goes over the rate limit, so a recipe never has to think about it.
 */
export interface Recipe {
  prepare(ctx: BenchContext, count: number): Promise<(i: number) => BenchRequest>;
}

const simpleGet = (path: string, expect = 200): Recipe => ({
  prepare: async () => () => ({ method: 'GET', path, expect }),
});

/** Keyed by `METHOD path`, as in the route tables. A route without an entry is reported as "no recipe". */
export const recipes: Record<string, Recipe> = {
  'GET /api/health': simpleGet('/api/health'),
  'GET /api/health/db': simpleGet('/api/health/db'),
  'GET /api/health/cron': simpleGet('/api/health/cron'),
  'GET /api/health/gateway': simpleGet('/api/health/gateway'),

  'POST /api/api-keys': {
    prepare: async (ctx, count) => {
      // A seller holds at most MAX_ACTIVE_API_KEYS active keys: the creates are spread over sellers.
      const sellers = await sellersFor(ctx, count, MAX_ACTIVE_API_KEYS);
      return (i) => ({
        method: 'POST',
        path: '/api/api-keys',
        token: sellers[Math.floor(i / MAX_ACTIVE_API_KEYS)].token,
        body: { name: `bench key ${i}`, environment: 'test' },
        expect: 201,
      });
    },
  },
  'GET /api/request-logs': {
    prepare: async (ctx) => {
      // The seller's own request log (its writes are the request-log function's, never the request's).
      const { token } = await ctx.newSeller();
      return () => ({ method: 'GET', path: '/api/request-logs', token, expect: 200 });
    },
  },
  'GET /api/api-keys': {
    prepare: async (ctx) => {
      // A seller with a few keys, as a dashboard would list them.
      const { sellerId, token } = await ctx.newSeller();
      await ctx.createKeys(sellerId, 5);
      return () => ({ method: 'GET', path: '/api/api-keys', token, expect: 200 });
    },
  },
  'DELETE /api/api-keys/{id}': {
    prepare: async (ctx, count) => {
      const keys: { id: string; token: string }[] = [];
      for (const { sellerId, token } of await sellersFor(ctx, count, MAX_ACTIVE_API_KEYS)) {
        const ids = await ctx.createKeys(sellerId, Math.min(MAX_ACTIVE_API_KEYS, count - keys.length));
        keys.push(...ids.map((id) => ({ id, token })));
      }
      return (i) => ({
        method: 'DELETE',
        path: `/api/api-keys/${keys[i].id}`,
        token: keys[i].token,
        expect: 200,
      });
    },
  },

  ...webhookRecipes,
  ...productRecipes,
  ...customerRecipes,
  ...transactionRecipes,
  ...checkoutRecipes,
  ...affiliateRecipes,
  ...paymentMethodRecipes,
  ...mailRecipes,
  ...docsRecipes,
  ...subscriptionRecipes,
  ...portalRecipes,
  ...chargePlanRecipes,
  ...connectionAreaRecipes,
  ...installmentPlanRecipes,
};
