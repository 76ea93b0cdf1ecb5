import type { RouteGroup } from '#shared/http/types';
import { create, list, revoke } from './api-keys';

/** Spec: api-keys routes accept the dashboard bearer token only. */
export const apiKeyRoutes: RouteGroup = {
  name: 'api-keys',
  routes: [
    { method: 'POST', path: '/api/api-keys', auth: ['jwt'], summary: 'Create an API key', handler: create },
    { method: 'GET', path: '/api/api-keys', auth: ['jwt'], summary: 'List API keys', handler: list },
    {
      method: 'DELETE',
      path: '/api/api-keys/{id}',
      auth: ['jwt'],
      summary: 'Revoke an API key',
      handler: revoke,
    },
  ],
};
