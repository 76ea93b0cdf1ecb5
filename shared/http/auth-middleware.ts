import { authenticate } from '#shared/auth/authenticate';
import type { PipelineMiddleware, PipelineRequest } from './pipeline';

/** Authentication and rate limiting, from the schemes the route table declares. */
export function authentication(): PipelineMiddleware {
  return {
    before: async (request) => {
      const req = request as PipelineRequest;
      try {
        const { auth, headers } = await authenticate(req.internal.http, req.internal.route);
        req.internal.http.auth = auth;
        Object.assign(req.internal.responseHeaders, headers);
      } catch (error) {
        const headers = (error as { headers?: Record<string, string> }).headers;
        if (headers) Object.assign(req.internal.responseHeaders, headers);
        throw error;
      }
    },
  };
}
