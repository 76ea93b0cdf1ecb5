import { defineExamples } from '#shared/http/examples';
import { docsRoutes } from './routes';

/** Calls of the reference's own routes (read by the OpenAPI generator and the tests only). */
export const examples = defineExamples(docsRoutes, {
  getApiReferenceAsset: { path: { file: 'swagger-ui.css' } },
});
