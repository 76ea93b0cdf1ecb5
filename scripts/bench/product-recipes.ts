import { createPortalConfig, createProducts, live, portalBody, productBody } from './fixtures';
import type { Recipe } from './recipes';

const config = (id: number | string) => `/api/products/${id}/portal-config`;

/** functions/products: products, their portal configuration, the seller's, the public payment link. */
export const productRecipes: Record<string, Recipe> = {
  'POST /api/products': {
    prepare: async (ctx) => {
      const { token } = await ctx.newSeller();
      return (i) => ({ method: 'POST', path: '/api/products', token, body: productBody(i), expect: 201 });
    },
  },
  'GET /api/products/seller': {
    prepare: async (ctx) => {
      // More products than one page (default limit 20), as a dashboard catalogue.
      const { sellerId, token } = await ctx.newSeller();
      await createProducts(ctx, live(sellerId), 25);
      return () => ({ method: 'GET', path: '/api/products/seller', token, expect: 200 });
    },
  },
  'GET /api/products': {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      await createProducts(ctx, live(sellerId), 25);
      return () => ({ method: 'GET', path: '/api/products', token, expect: 200 });
    },
  },
  'GET /api/products/uuid/{uuid}': {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      const [product] = await createProducts(ctx, live(sellerId), 1);
      return () => ({ method: 'GET', path: `/api/products/uuid/${product.uuid}`, token, expect: 200 });
    },
  },
  'GET /api/products/{id}': {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      const [product] = await createProducts(ctx, live(sellerId), 1);
      return () => ({ method: 'GET', path: `/api/products/${product.id}`, token, expect: 200 });
    },
  },
  'PATCH /api/products/{id}': {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      const [product] = await createProducts(ctx, live(sellerId), 1);
      return (i) => ({
        method: 'PATCH',
        path: `/api/products/${product.id}`,
        token,
        body: { name: `Renamed product ${i}`, value: 59.9 },
        expect: 200,
      });
    },
  },
  'DELETE /api/products/{id}': {
    prepare: async (ctx, count) => {
      const { sellerId, token } = await ctx.newSeller();
      const products = await createProducts(ctx, live(sellerId), count);
      return (i) => ({ method: 'DELETE', path: `/api/products/${products[i].id}`, token, expect: 200 });
    },
  },
  'DELETE /api/v1/products/{uuid}': {
    prepare: async (ctx, count) => {
      const { sellerId, token } = await ctx.newSeller();
      const products = await createProducts(ctx, live(sellerId), count);
      return (i) => ({ method: 'DELETE', path: `/api/v1/products/${products[i].uuid}`, token, expect: 200 });
    },
  },
  'GET /api/products/{id}/portal-config': {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      const [product] = await createProducts(ctx, live(sellerId), 1);
      await createPortalConfig(ctx, live(sellerId), product.id);
      return () => ({ method: 'GET', path: config(product.id), token, expect: 200 });
    },
  },
  'POST /api/products/{id}/portal-config': {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      const [product] = await createProducts(ctx, live(sellerId), 1);
      return (i) => ({ method: 'POST', path: config(product.id), token, body: portalBody(i), expect: 200 });
    },
  },
  'PATCH /api/products/{id}/portal-config': {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      const [product] = await createProducts(ctx, live(sellerId), 1);
      await createPortalConfig(ctx, live(sellerId), product.id);
      return (i) => ({
        method: 'PATCH',
        path: config(product.id),
        token,
        body: { primaryColor: i % 2 === 0 ? '#112233' : '#445566', requireCancelReason: i % 2 === 0 },
        expect: 200,
      });
    },
  },
  'DELETE /api/products/{id}/portal-config': {
    prepare: async (ctx, count) => {
      // A product configuration to remove on every request: one product each.
      const { sellerId, token } = await ctx.newSeller();
      const products = await createProducts(ctx, live(sellerId), count);
      for (const product of products) await createPortalConfig(ctx, live(sellerId), product.id);
      return (i) => ({ method: 'DELETE', path: config(products[i].id), token, expect: 200 });
    },
  },
  'GET /api/products/{id}/portal-config/effective': {
    prepare: async (ctx) => {
      // Both levels stored: the product's configuration wins over the seller's.
      const { sellerId, token } = await ctx.newSeller();
      const [product] = await createProducts(ctx, live(sellerId), 1);
      await createPortalConfig(ctx, live(sellerId), product.id);
      await createPortalConfig(ctx, live(sellerId));
      return () => ({ method: 'GET', path: `${config(product.id)}/effective`, token, expect: 200 });
    },
  },
  'GET /api/portal/configuration': {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      await createPortalConfig(ctx, live(sellerId));
      return () => ({ method: 'GET', path: '/api/portal/configuration', token, expect: 200 });
    },
  },
  'PUT /api/portal/configuration': {
    prepare: async (ctx) => {
      const { token } = await ctx.newSeller();
      return (i) => ({
        method: 'PUT',
        path: '/api/portal/configuration',
        token,
        body: portalBody(i),
        expect: 200,
      });
    },
  },
  'GET /api/payment-links/{uuid}': {
    prepare: async (ctx) => {
      // Public: no token; the rate limit counts the client IP.
      const { sellerId } = await ctx.newSeller();
      const [product] = await createProducts(ctx, live(sellerId), 1);
      return () => ({ method: 'GET', path: `/api/payment-links/${product.uuid}`, expect: 200 });
    },
  },
};
