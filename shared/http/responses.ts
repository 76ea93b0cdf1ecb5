import type * as z from 'zod';
import type { LazySchema, RawContent, Route, RouteGroup } from './types';

const loaded = new Map<LazySchema, z.ZodType>();

const isLazy = (value: unknown): value is LazySchema =>
  typeof value === 'object' && value !== null && 'lazy' in value;

/**
 * Imports every lazy response schema of these groups. The OpenAPI generator, the local runtime
 * and the tests call it before they read a route's responses; a Lambda never does.
 */
export async function loadResponses(groups: readonly RouteGroup[]): Promise<void> {
  const pending = groups
    .flatMap((group) => group.routes)
    .flatMap((route) => Object.values(route.responses))
    .filter(isLazy)
    .filter((schema) => !loaded.has(schema));
  await Promise.all(
    pending.map(async (schema) => {
      loaded.set(schema, await schema.lazy());
    }),
  );
}

/**
 * The answer a route declares for a status: a zod schema, RawContent, `null` for an empty body,
 * undefined when it declares none. A lazy schema must have been loaded (loadResponses) first.
 */
export function declaredResponse(route: Route, status: number): z.ZodType | RawContent | null | undefined {
  const value = route.responses[status];
  if (!isLazy(value)) return value;
  const schema = loaded.get(value);
  if (!schema) throw new Error(`${route.operationId} ${status}: response schema not loaded (loadResponses)`);
  return schema;
}
