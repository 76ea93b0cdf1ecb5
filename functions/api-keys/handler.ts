import { createHttpHandler } from '#shared/http/pipeline';
import { once } from '#shared/once';
import { apiKeyRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

export const handler = createHttpHandler(apiKeyRoutes, (c) => {
  // Keys are credentials: made, used and revoked on real time, never on the test clock.
  const deps = { apiKeys: c.repos.apiKeys, clock: c.wallClock, ids: c.ids, sellerLogins: c.sellerAccounts };
  return {
    createApiKey: async ({ tenant, body }) =>
      (await useCases()).createDashboardApiKey(deps, tenant.sellerId, body),
    listApiKeys: async ({ tenant, query }) => ({
      data: await (await useCases()).listApiKeys(deps, tenant.sellerId, query.environment),
    }),
    revokeApiKey: async ({ tenant, path }) => (await useCases()).revokeApiKey(deps, tenant.sellerId, path.id),
  };
});
