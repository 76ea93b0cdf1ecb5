import { MAX_WEBHOOK_ENDPOINTS } from '#shared/domain/webhooks/endpoints';
import {
  createEndpoints,
  deliveredIds,
  emitAndDeliver,
  live,
  receiverUrl,
  sandbox,
  sellersFor,
  testApiKey,
} from './fixtures';
import type { Recipe } from './recipes';

/**
 * functions/webhook-endpoints and functions/test-helpers. Endpoint management goes through the
 * dashboard JWT (live tenant); the sandbox routes (test events, deliveries, resend) through an
 * sk_test_ key, since test helpers act on the test environment only.
 */
export const webhookRecipes: Record<string, Recipe> = {
  'POST /api/webhook-endpoints': {
    prepare: async (ctx, count) => {
      // A seller holds at most MAX_WEBHOOK_ENDPOINTS: the creates are spread over sellers.
      const sellers = await sellersFor(ctx, count, MAX_WEBHOOK_ENDPOINTS);
      const url = await receiverUrl();
      return (i) => ({
        method: 'POST',
        path: '/api/webhook-endpoints',
        token: sellers[Math.floor(i / MAX_WEBHOOK_ENDPOINTS)].token,
        body: { url, events: ['product.created', 'product.updated'], description: `bench endpoint ${i}` },
        expect: 201,
      });
    },
  },
  'GET /api/webhook-endpoints': {
    prepare: async (ctx) => {
      // A seller with a few endpoints, as the dashboard's Webhooks page lists them.
      const { sellerId, token } = await ctx.newSeller();
      await createEndpoints(ctx, live(sellerId), 5);
      return () => ({ method: 'GET', path: '/api/webhook-endpoints', token, expect: 200 });
    },
  },
  'GET /api/webhook-endpoints/{id}': {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      const [id] = await createEndpoints(ctx, live(sellerId), 1);
      return () => ({ method: 'GET', path: `/api/webhook-endpoints/${id}`, token, expect: 200 });
    },
  },
  'PATCH /api/webhook-endpoints/{id}': {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      const [id] = await createEndpoints(ctx, live(sellerId), 1);
      return (i) => ({
        method: 'PATCH',
        path: `/api/webhook-endpoints/${id}`,
        token,
        body: { description: `renamed ${i}`, events: ['product.created'] },
        expect: 200,
      });
    },
  },
  'DELETE /api/webhook-endpoints/{id}': {
    prepare: async (ctx, count) => {
      const made: { id: string; token: string }[] = [];
      for (const { sellerId, token } of await sellersFor(ctx, count, MAX_WEBHOOK_ENDPOINTS)) {
        const ids = await createEndpoints(
          ctx,
          live(sellerId),
          Math.min(MAX_WEBHOOK_ENDPOINTS, count - made.length),
        );
        made.push(...ids.map((id) => ({ id, token })));
      }
      return (i) => ({
        method: 'DELETE',
        path: `/api/webhook-endpoints/${made[i].id}`,
        token: made[i].token,
        expect: 200,
      });
    },
  },
  'POST /api/webhook-endpoints/{id}/rotate-secret': {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      const [id] = await createEndpoints(ctx, live(sellerId), 1);
      return () => ({
        method: 'POST',
        path: `/api/webhook-endpoints/${id}/rotate-secret`,
        token,
        expect: 200,
      });
    },
  },
  'GET /api/webhook-endpoints/{id}/deliveries': {
    prepare: async (ctx) => {
      // A sandbox endpoint with a short delivery log, each event delivered to the local receiver.
      const { sellerId } = await ctx.newSeller();
      const key = await testApiKey(ctx, sellerId);
      const [id] = await createEndpoints(ctx, sandbox(sellerId), 1);
      await emitAndDeliver(ctx, key, 5);
      await deliveredIds(ctx, sandbox(sellerId), id, 5);
      return () => ({
        method: 'GET',
        path: `/api/webhook-endpoints/${id}/deliveries`,
        token: key,
        expect: 200,
      });
    },
  },
  'POST /api/webhook-deliveries/{id}/resend': {
    prepare: async (ctx) => {
      // One delivered event, attempted again by hand on every request (the receiver answers 200).
      const { sellerId } = await ctx.newSeller();
      const key = await testApiKey(ctx, sellerId);
      const [endpointId] = await createEndpoints(ctx, sandbox(sellerId), 1);
      await emitAndDeliver(ctx, key, 1);
      const [id] = await deliveredIds(ctx, sandbox(sellerId), endpointId, 1);
      return () => ({
        method: 'POST',
        path: `/api/webhook-deliveries/${id}/resend`,
        token: key,
        expect: 200,
      });
    },
  },

  'POST /api/test-helpers/events': {
    prepare: async (ctx) => {
      // Registered endpoints do not change the request (fan-out runs later, off the request).
      const { sellerId } = await ctx.newSeller();
      const key = await testApiKey(ctx, sellerId);
      await createEndpoints(ctx, sandbox(sellerId), 1, ['product.updated']);
      return () => ({
        method: 'POST',
        path: '/api/test-helpers/events',
        token: key,
        body: { event: 'product.updated' },
        expect: 201,
      });
    },
  },
};
