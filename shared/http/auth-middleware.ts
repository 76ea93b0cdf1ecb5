import { authenticate } from '#shared/auth/authenticate';
import { ForbiddenError, NotFoundError } from '#shared/errors';
import type { PipelineMiddleware, PipelineRequest } from './pipeline';

/** Authentication and rate limiting, from the schemes the route table declares; sandbox-only routes refuse live callers. */
export function authentication(): PipelineMiddleware {
  return {
    before: async (request) => {
      const req = request as PipelineRequest;
      try {
        const { auth, headers } = await authenticate(req.internal.http, req.internal.route);
        req.internal.http.auth = auth;
        Object.assign(req.internal.responseHeaders, headers);
        const { testOnly } = req.internal.route;
        if (testOnly && auth.tenant?.environment !== 'test') {
          const { method, path } = req.internal.http;
          if (testOnly === 'hidden') throw new NotFoundError(`Cannot ${method} ${path}`);
          throw new ForbiddenError('Test helpers work only in the test environment');
        }
      } catch (error) {
        const headers = (error as { headers?: Record<string, string> }).headers;
        if (headers) Object.assign(req.internal.responseHeaders, headers);
        throw error;
      }
    },
  };
}
