import { addAffiliation } from '#shared/domain/affiliates/affiliations';
import { addAffiliationSchema } from '#shared/domain/affiliates/schemas';
import type { Tenant } from '#shared/domain/tenant';
import { createProducts, live } from './fixtures';
import type { BenchContext, Recipe } from './recipes';

/**
 * The affiliate routes of functions/products, through the dashboard JWT (live tenant). An affiliate
 * is another seller: the bench registers them straight through the repository (not measured).
 */

const affiliates = (productId: number) => `/api/products/${productId}/affiliates`;

/** `count` sellers to affiliate; returns their ids. */
async function affiliateSellers(ctx: BenchContext, count: number): Promise<number[]> {
  const { deps } = ctx.runtime;
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(await deps.repos.sellers.create(`Bench affiliate ${i}`, deps.clock.now()));
  }
  return ids;
}

/** A live product of a new seller with `count` active affiliations (10% commission). */
async function productWithAffiliates(ctx: BenchContext, count: number) {
  const { sellerId, token } = await ctx.newSeller();
  const tenant: Tenant = live(sellerId);
  const [product] = await createProducts(ctx, tenant, 1);
  const affiliateIds = await affiliateSellers(ctx, count);
  const { deps } = ctx.runtime;
  const affiliateDeps = {
    affiliations: deps.repos.affiliations,
    products: deps.repos.products,
    clock: deps.clock,
  };
  for (const affiliateId of affiliateIds) {
    const input = addAffiliationSchema.parse({ affiliateId, commissionPercent: 10 });
    await addAffiliation(affiliateDeps, tenant, String(product.id), input);
  }
  return { token, product, affiliateIds };
}

export const affiliateRecipes: Record<string, Recipe> = {
  'POST /api/products/{id}/affiliates': {
    prepare: async (ctx, count) => {
      // A new affiliate (an existing seller) on the same product each time.
      const { token, product } = await productWithAffiliates(ctx, 0);
      const affiliateIds = await affiliateSellers(ctx, count);
      return (i) => ({
        method: 'POST',
        path: affiliates(product.id),
        token,
        body: { affiliateId: affiliateIds[i], commissionPercent: 12.5 },
        expect: 201,
      });
    },
  },
  'GET /api/products/{id}/affiliates': {
    prepare: async (ctx) => {
      // A product with a few affiliates, by its integer id (the one-query path).
      const { token, product } = await productWithAffiliates(ctx, 5);
      return () => ({ method: 'GET', path: affiliates(product.id), token, expect: 200 });
    },
  },
  'DELETE /api/products/{id}/affiliates/{affiliateId}': {
    prepare: async (ctx, count) => {
      // An active affiliation to end on every request.
      const { token, product, affiliateIds } = await productWithAffiliates(ctx, count);
      return (i) => ({
        method: 'DELETE',
        path: `${affiliates(product.id)}/${affiliateIds[i]}`,
        token,
        expect: 200,
      });
    },
  },
};
