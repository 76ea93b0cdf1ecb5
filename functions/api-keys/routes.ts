import { createApiKeySchema } from '#shared/domain/auth/api-key-schema';
import { apiKeyCreatedResponse, apiKeyListResponse, apiKeyResponse } from '#shared/domain/auth/responses';
import { opaqueIdParam } from '#shared/domain/params';
import { defineRoutes } from '#shared/http/types';
import { listApiKeysQuery } from './shapes';

/** Spec: api-keys routes accept the dashboard bearer token only. */
export const apiKeyRoutes = defineRoutes('api-keys', [
  {
    operationId: 'createApiKey',
    method: 'POST',
    access: 'developer',
    path: '/api/api-keys',
    auth: ['jwt'],
    summary: 'Create an API key (the key is shown once)',
    request: { body: createApiKeySchema },
    errors: [403, 409],
    responses: { 201: apiKeyCreatedResponse },
  },
  {
    operationId: 'listApiKeys',
    method: 'GET',
    path: '/api/api-keys',
    auth: ['jwt'],
    summary: 'List API keys',
    request: { query: listApiKeysQuery },
    responses: { 200: apiKeyListResponse },
  },
  {
    operationId: 'revokeApiKey',
    method: 'DELETE',
    access: 'developer',
    path: '/api/api-keys/{id}',
    auth: ['jwt'],
    summary: 'Revoke an API key',
    request: { path: opaqueIdParam },
    notFound: 'API key not found',
    responses: { 200: apiKeyResponse },
  },
]);
