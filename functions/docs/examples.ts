import { defineExamples } from '#shared/http/examples';
import pkg from '../../package.json' with { type: 'json' };
import { REFERENCE_PAGE } from './reference';
import { docsRoutes } from './routes';

/** Calls of the reference's own routes (read by the OpenAPI generator and the tests only). */
export const examples = defineExamples(docsRoutes, {
  getOpenApiDocument: {
    responses: {
      200: {
        openapi: '3.1.0',
        info: {
          title: 'Payment Service API',
          version: pkg.version,
          description: 'Sell products and collect…',
        },
        paths: { '/api/health': { get: { operationId: 'getHealth', summary: 'Overall health' } } },
      },
    },
  },
  getApiReference: { responses: { 200: REFERENCE_PAGE } },
  getApiReferenceAsset: { path: { file: 'reference.css' } },
});
