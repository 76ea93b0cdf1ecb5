import { defineRoutes } from '#shared/http/types';
import { REFERENCE_ASSETS } from './asset-names';
import { referenceAssetParam } from './shapes';

/** The files the reference page loads, all served by this group (no CDN: the page's CSP allows 'self' only). */
export { REFERENCE_ASSETS };

// Public and not rate limited: static answers that never touch the table, so the per-IP counter
// would be the only DynamoDB traffic of the group.
export const docsRoutes = defineRoutes('docs', [
  {
    operationId: 'getRoot',
    method: 'GET',
    path: '/',
    auth: [],
    rateLimited: false,
    summary: 'The service root: redirects to the seller dashboard',
    description:
      'A 302 to `/dashboard` (Location header), where a seller opening the base URL signs up or logs in. The API reference is at `/docs`.',
    responses: {
      302: { contentType: 'text/plain', description: 'Found: the Location header is `/dashboard`.' },
    },
  },
  {
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/api/openapi.json',
    auth: [],
    rateLimited: false,
    summary: 'The OpenAPI 3.1 document of this API',
    responses: {
      200: {
        contentType: 'application/json',
        description: 'The OpenAPI 3.1.0 document, generated from the route tables.',
      },
    },
  },
  {
    operationId: 'getApiReference',
    method: 'GET',
    path: '/docs',
    auth: [],
    rateLimited: false,
    summary: 'API reference page',
    responses: {
      200: {
        contentType: 'text/html',
        description: 'The API reference, rendered in the browser from /api/openapi.json.',
      },
    },
  },
  {
    operationId: 'getApiReferenceAsset',
    method: 'GET',
    path: '/docs/assets/{file}',
    auth: [],
    rateLimited: false,
    summary: 'Script or style sheet of the API reference page',
    request: { path: referenceAssetParam },
    notFound: 'Asset not found',
    responses: {
      200: { contentType: 'text/*', description: 'A script (text/javascript) or style sheet (text/css).' },
    },
  },
]);
