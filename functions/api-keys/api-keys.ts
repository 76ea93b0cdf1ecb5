import * as z from 'zod';
import { createApiKey, createApiKeySchema, listApiKeys, revokeApiKey } from '#shared/domain/auth/api-keys';
import { tenantOf } from '#shared/http/tenant';
import type { HttpRequest } from '#shared/http/types';
import { parseInput } from '#shared/validation';

const deps = (req: HttpRequest) => ({
  apiKeys: req.deps.repos.apiKeys,
  clock: req.deps.clock,
  ids: req.deps.ids,
});
const listQuery = z.object({ environment: z.enum(['test', 'live']).optional() });

export async function create(req: HttpRequest) {
  const input = parseInput(createApiKeySchema, req.body);
  return { statusCode: 201, body: await createApiKey(deps(req), tenantOf(req).sellerId, input) };
}

export async function list(req: HttpRequest) {
  const { environment } = parseInput(listQuery, req.query);
  return {
    statusCode: 200,
    body: { data: await listApiKeys(deps(req), tenantOf(req).sellerId, environment) },
  };
}

export async function revoke(req: HttpRequest) {
  return { statusCode: 200, body: await revokeApiKey(deps(req), tenantOf(req).sellerId, req.pathParams.id) };
}
