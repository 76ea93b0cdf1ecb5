import { DuplicateKeyNameError } from '#shared/domain/auth/api-keys';
import { defineExamples } from '#shared/http/examples';
import { apiKeyRoutes } from './routes';

/** Calls of the API key routes for the API reference (read by the OpenAPI generator and the tests only). */

const server = {
  id: 'key_GvFZO4TE9t1TIKKPtXMh',
  name: 'Servidor da loja',
  environment: 'test',
  keyPreview: 'sk_test_…vGzf',
  permissions: 'write',
  createdAt: '2026-11-28T16:59:22.102Z',
  lastUsedAt: '2026-11-28T17:42:05.310Z',
  revokedAt: null,
} as const;
const reports = {
  id: 'key_Tt716iQRpoWcHGOaWXVA',
  name: 'Relatórios',
  environment: 'test',
  keyPreview: 'sk_test_…cYx0',
  permissions: 'read',
  createdAt: '2026-11-28T16:59:22.149Z',
  lastUsedAt: null,
  revokedAt: null,
} as const;

export const examples = defineExamples(apiKeyRoutes, {
  createApiKey: [
    {
      name: 'write',
      summary: "A sandbox key for the shop's server (the full key is shown only here)",
      body: { name: 'Servidor da loja', environment: 'test' },
      responses: {
        201: { ...server, lastUsedAt: null, key: 'sk_test_yc7y3vtVxJso1vscZhwdiESNfldAAQ53hJhGvGzf' },
      },
    },
    {
      name: 'read-only',
      summary: 'A read-only key: GET routes only, any write answers 403',
      body: { name: 'Relatórios', environment: 'test', permissions: 'read' },
      responses: { 201: { ...reports, key: 'sk_test_65TL8SlzyBGWci8u92yEHyqsEbkfyrfxKSFpcYx0' } },
    },
    {
      name: 'duplicate-name',
      summary: 'A name the environment already has: 409',
      body: { name: 'Servidor da loja', environment: 'test' },
      errors: { 409: new DuplicateKeyNameError('Servidor da loja', 'test') },
    },
  ],
  listApiKeys: {
    query: { environment: 'test' },
    responses: { 200: { data: [reports, server] } },
  },
  revokeApiKey: {
    path: { id: reports.id },
    responses: { 200: { ...reports, revokedAt: '2026-11-28T18:03:41.236Z' } },
  },
});
