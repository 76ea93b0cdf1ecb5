import { defineRoutes, lazySchemas } from '#shared/http/types';

// Request schemas load with the group's use cases on its first request (./use-cases.ts).
const schemas = lazySchemas(() => import('./use-cases'));

const authResponses = lazySchemas(() => import('#shared/domain/auth/responses'));

/** Spec: api-keys routes accept the dashboard bearer token only. */
export const apiKeyRoutes = defineRoutes('api-keys', [
  {
    operationId: 'createApiKey',
    method: 'POST',
    path: '/api/api-keys',
    auth: ['jwt'],
    summary: 'Create an API key (the key is shown once)',
    request: { body: schemas.createApiKeySchema },
    errors: [403, 409],
    responses: { 201: authResponses.apiKeyCreatedResponse },
  },
  {
    operationId: 'listApiKeys',
    method: 'GET',
    path: '/api/api-keys',
    auth: ['jwt'],
    summary: 'List API keys',
    request: { query: schemas.listApiKeysQuery },
    responses: { 200: authResponses.apiKeyListResponse },
  },
  {
    operationId: 'revokeApiKey',
    method: 'DELETE',
    path: '/api/api-keys/{id}',
    auth: ['jwt'],
    summary: 'Revoke an API key',
    request: { path: schemas.opaqueIdParam },
    notFound: 'API key not found',
    responses: { 200: authResponses.apiKeyResponse },
  },
]);
