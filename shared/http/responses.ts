import type * as z from 'zod';
import type { LazySchema, RawContent, RequestSchema, Route, RouteGroup } from './types';

const loaded = new Map<LazySchema, z.ZodType>();

const isLazy = (value: unknown): value is LazySchema =>
  typeof value === 'object' && value !== null && 'lazy' in value;

type RequestPart = 'path' | 'query' | 'body';
const REQUEST_PARTS: readonly RequestPart[] = ['path', 'query', 'body'];

/** Every schema a route names: its request parts' and its responses'. */
const schemasOf = (route: Route): unknown[] => [
  ...REQUEST_PARTS.map((part) => route.request?.[part]),
  ...Object.values(route.responses),
];

/**
 * Imports every lazy schema (request and response) of these groups. The OpenAPI generator, the
 * local runtime and the tests call it before they read a route's schemas; a Lambda never does (its
 * validation loads the one route's request schemas on that route's first request).
 */
export async function loadSchemas(groups: readonly RouteGroup[]): Promise<void> {
  const pending = groups
    .flatMap((group) => group.routes)
    .flatMap(schemasOf)
    .filter(isLazy)
    .filter((schema) => !loaded.has(schema));
  await Promise.all(
    pending.map(async (schema) => {
      loaded.set(schema, await schema.lazy());
    }),
  );
}

/** A request schema, imported with its module the first time a request of its route needs it. */
export async function resolveSchema(schema: RequestSchema): Promise<z.ZodType> {
  if (!isLazy(schema)) return schema;
  let value = loaded.get(schema);
  if (!value) {
    value = await schema.lazy();
    loaded.set(schema, value);
  }
  return value;
}

/**
 * The schema of a route's request part, undefined when it has none. A lazy schema must have been
 * loaded (loadSchemas) first.
 */
export function declaredRequest(route: Route, part: RequestPart): z.ZodType | undefined {
  const value = route.request?.[part];
  if (!isLazy(value)) return value;
  const schema = loaded.get(value);
  if (!schema) throw new Error(`${route.operationId} ${part}: request schema not loaded (loadSchemas)`);
  return schema;
}

/**
 * The answer a route declares for a status: a zod schema, RawContent, `null` for an empty body,
 * undefined when it declares none. A lazy schema must have been loaded (loadSchemas) first.
 */
export function declaredResponse(route: Route, status: number): z.ZodType | RawContent | null | undefined {
  const value = route.responses[status];
  if (!isLazy(value)) return value;
  const schema = loaded.get(value);
  if (!schema) throw new Error(`${route.operationId} ${status}: response schema not loaded (loadSchemas)`);
  return schema;
}
