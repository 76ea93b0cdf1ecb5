import type * as z from 'zod';
import type { RawContent, Route } from './types';

type RequestPart = 'path' | 'query' | 'body';

/** The schema of a route's request part, undefined when it has none. */
export function declaredRequest(route: Route, part: RequestPart): z.ZodType | undefined {
  return route.request?.[part];
}

/**
 * The answer a route declares for a status: a zod schema, RawContent, `null` for an empty body,
 * undefined when it declares none.
 */
export function declaredResponse(route: Route, status: number): z.ZodType | RawContent | null | undefined {
  return route.responses[status];
}
