import { createHttpHandler } from '#shared/http/pipeline';
import { openApiDocument, referenceAsset, referencePage } from './reference';
import { docsRoutes } from './routes';

export const handler = createHttpHandler(docsRoutes, () => ({
  getOpenApiDocument: ({ request }) => openApiDocument(request.headers['accept-encoding']),
  getApiReference: async () => referencePage(),
  getApiReferenceAsset: ({ path, request }) => referenceAsset(path.file, request.headers['accept-encoding']),
}));
