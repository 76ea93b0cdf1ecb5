import { NotFoundError } from '#shared/errors';
import { parseInput } from '#shared/parse-input';
import type { PipelineMiddleware, PipelineRequest } from './pipeline';

export interface ParsedInput {
  path: unknown;
  query: unknown;
  body: unknown;
}

/**
 * Validates the request with its route's schemas, last before the handler (after authentication,
 * so an anonymous caller learns nothing of a schema, and after idempotency, so a replay answers as
 * the first request did). A path parameter that fails its schema names no resource: 404, with the
 * route's not-found message; query and body failures are a 400 naming each field.
 */
export function validation(): PipelineMiddleware {
  return {
    before: (request) => {
      const req = request as PipelineRequest;
      if (req.internal.replay) return;
      const { route, http } = req.internal;
      const schemas = route.request ?? {};
      let path: unknown = http.pathParams;
      if (schemas.path) {
        const parsed = schemas.path.safeParse(http.pathParams);
        if (!parsed.success) throw new NotFoundError(route.notFound);
        path = parsed.data;
      }
      const query = schemas.query ? parseInput(schemas.query, http.query) : http.query;
      const raw = http.body === undefined && schemas.optionalBody ? {} : http.body;
      const body = schemas.body ? parseInput(schemas.body, raw) : undefined;
      req.internal.input = { path, query, body };
    },
  };
}
