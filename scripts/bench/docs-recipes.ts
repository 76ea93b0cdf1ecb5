import type { Recipe } from './recipes';

const simpleGet = (path: string): Recipe => ({
  prepare: async () => () => ({ method: 'GET', path, expect: 200 }),
});

/** functions/docs: public static answers, not rate limited, that never touch the table. */
export const docsRecipes: Record<string, Recipe> = {
  'GET /': { prepare: async () => () => ({ method: 'GET', path: '/', expect: 302 }) },
  'GET /api/openapi.json': simpleGet('/api/openapi.json'),
  'GET /docs': simpleGet('/docs'),
  'GET /docs/assets/{file}': simpleGet('/docs/assets/reference.js'),
};
