import { createApiKey, listApiKeys, revokeApiKey } from '#shared/domain/auth/api-keys';
import { createHttpHandler } from '#shared/http/pipeline';
import { apiKeyRoutes } from './routes';

export const handler = createHttpHandler(apiKeyRoutes, (c) => {
  const deps = { apiKeys: c.repos.apiKeys, clock: c.clock, ids: c.ids };
  return {
    createApiKey: ({ tenant, body }) => createApiKey(deps, tenant.sellerId, body),
    listApiKeys: async ({ tenant, query }) => ({
      data: await listApiKeys(deps, tenant.sellerId, query.environment),
    }),
    revokeApiKey: ({ tenant, path }) => revokeApiKey(deps, tenant.sellerId, path.id),
  };
});
