import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { ApiKeyView, createApiKey, listApiKeys, revokeApiKey } from './api-keys';

const fields = {
  id: z.string(),
  name: z.string(),
  environment: z.enum(['test', 'live']),
  keyPreview: z.string().describe('The key prefix and its last four characters'),
  permissions: z.enum(['write', 'read']).describe('`read` keys may only read (GET)'),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable().describe('null until the key is used'),
  revokedAt: z.iso.datetime().nullable().describe('null while the key is active'),
};

/** GET /api/api-keys items and DELETE /api/api-keys/{id}: the key without its secret. */
export const apiKeyResponse = z.lazy(() =>
  z
    .object(fields)
    .meta({ id: 'ApiKey', description: 'An API key (the secret itself is shown once, at creation)' }),
);

/** POST /api/api-keys (201): the view plus the full key, shown this once. */
export const apiKeyCreatedResponse = z.lazy(() =>
  z
    .object({ ...fields, key: z.string().describe('The full key; it is never shown again') })
    .meta({ id: 'ApiKeyCreated', description: 'A new API key with its secret, shown this once' }),
);

/** GET /api/api-keys: every key of the seller (optionally of one environment), not paged. */
export const apiKeyListResponse = z.lazy(() =>
  z
    .object({ data: z.array(apiKeyResponse) })
    .meta({ id: 'ApiKeyList', description: "The seller's API keys" }),
);

type _View = Assert<Equals<z.output<typeof apiKeyResponse>, ApiKeyView>>;
type _Revoke = Assert<Equals<z.output<typeof apiKeyResponse>, Awaited<ReturnType<typeof revokeApiKey>>>>;
type _Created = Assert<
  Equals<z.output<typeof apiKeyCreatedResponse>, Awaited<ReturnType<typeof createApiKey>>>
>;
type _List = Assert<
  Equals<z.output<typeof apiKeyListResponse>['data'], Awaited<ReturnType<typeof listApiKeys>>>
>;
