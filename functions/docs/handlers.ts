import { defineHandlers } from '#shared/http/pipeline';
import { rawReply } from '#shared/http/types';
import { openApiDocument, referenceAsset, referencePage } from './reference';
import { docsRoutes } from './routes';

/** Where the base URL sends a person: the seller dashboard (CloudFront serves it from S3 on AWS). */
const ROOT_TARGET = '/dashboard';

export const group = defineHandlers(docsRoutes, () => ({
  getRoot: async () =>
    rawReply('text/plain; charset=utf-8', `Found. Redirecting to ${ROOT_TARGET}\n`, 302, {
      location: ROOT_TARGET,
    }),
  getOpenApiDocument: ({ request }) => openApiDocument(request.headers['accept-encoding']),
  getApiReference: async () => referencePage(),
  getApiReferenceAsset: ({ path, request }) => referenceAsset(path.file, request.headers['accept-encoding']),
}));
