import { createHttpHandler } from '#shared/http/pipeline';
import { apiKeyRoutes } from './routes';

// Use cases load on their route's first request, not at cold start (docs/decisions.md, "Cold start").
const authApiKeys = () => import('#shared/domain/auth/api-keys');

export const handler = createHttpHandler(apiKeyRoutes, (c) => {
  const deps = { apiKeys: c.repos.apiKeys, clock: c.clock, ids: c.ids };
  return {
    createApiKey: async ({ tenant, body }) => (await authApiKeys()).createApiKey(deps, tenant.sellerId, body),
    listApiKeys: async ({ tenant, query }) => ({
      data: await (await authApiKeys()).listApiKeys(deps, tenant.sellerId, query.environment),
    }),
    revokeApiKey: async ({ tenant, path }) =>
      (await authApiKeys()).revokeApiKey(deps, tenant.sellerId, path.id),
  };
});
