import { listApiKeys, revokeApiKey } from '#shared/domain/auth/api-keys';
import { createDashboardApiKey } from '#shared/domain/identity/live-gate';
import { defineHandlers } from '#shared/http/pipeline';
import { apiKeyRoutes } from './routes';

export const group = defineHandlers(apiKeyRoutes, (c) => {
  // Keys are credentials: made, used and revoked on real time, never on the test clock.
  const deps = { ...c.deps, clock: c.deps.wallClock };
  return {
    createApiKey: ({ tenant, body, request }) =>
      createDashboardApiKey(deps, tenant.sellerId, request.user, body),
    listApiKeys: async ({ tenant, query }) => ({
      data: await listApiKeys(deps, tenant.sellerId, query.environment),
    }),
    revokeApiKey: ({ tenant, path }) => revokeApiKey(deps, tenant.sellerId, path.id),
  };
});
