import type * as z from 'zod';
import type { AppError } from '#shared/errors';
import type { RawContent, Route, RouteGroup } from './types';

/**
 * Hand-picked examples of the API reference, kept beside each group's route rows
 * (`functions/<group>/examples.ts`) and read only by the OpenAPI generator and the tests: never by
 * a Lambda, so they cost no cold start. A test checks that every operation has one and that each
 * validates against its route's schemas, both the zod schema the pipeline runs and the JSON Schema
 * the document shows.
 */

/** Examples are only read: shared `as const` values (readonly arrays) fit where the schema takes arrays. */
type Frozen<T> = T extends readonly (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;
type Accepted<S> = Frozen<S extends z.ZodType ? z.input<S> : never>;
type RequestPart<R extends Route, P extends 'path' | 'query' | 'body'> = NonNullable<R['request']> extends {
  [K in P]: infer S;
}
  ? Accepted<S>
  : never;

type Answer<S> = S extends RawContent ? string | Readonly<Record<string, unknown>> : Accepted<S>;

/** One call of an operation as an integrator makes it: the request's parts and what it answers. */
export interface Scenario<R extends Route = Route> {
  /** The key of this call among the operation's several (`pix`, `card-declined`). */
  name?: string;
  /** One line the reference shows in its examples list. */
  summary?: string;
  /** Path parameters as they appear in the URL. */
  path?:
    | RequestPart<R, 'path'>
    | (NonNullable<R['request']> extends { path: unknown } ? never : Record<string, string>);
  query?: RequestPart<R, 'query'>;
  body?: RequestPart<R, 'body'>;
  /** The answers, by status: JSON as its schema takes it, a page or a file's text (an excerpt). */
  responses?: { [S in keyof R['responses']]?: Answer<R['responses'][S]> };
  /**
   * A refusal this call gets, by status, as the error the service throws (its own class and text):
   * the reference shows the error mapper's body of it. Generic causes (a missing key, an empty
   * body, the rate limit) are shown for every operation without being listed here.
   */
  errors?: { readonly [status: number]: AppError };
}

export type NamedScenario<R extends Route = Route> = Scenario<R> & { name: string; summary: string };

/** One call, or several named ones (each shown as a choice in the reference). */
export type OperationExamples<R extends Route = Route> = Scenario<R> | readonly NamedScenario<R>[];

/** Examples by operationId. */
export type ExampleBook = Readonly<Record<string, OperationExamples>>;

/**
 * A group's examples, typed by its route rows: a misspelt operation, a body or an answer that its
 * schema's type refuses fails the typecheck. Operations without an example fail the test instead.
 */
export function defineExamples<R extends Route>(
  _group: RouteGroup<R>,
  examples: { [K in R['operationId']]?: OperationExamples<Extract<R, { operationId: K }>> },
): ExampleBook {
  return examples as ExampleBook;
}

/** The calls of an operation as a list (one call is a list of one). */
export const scenariosOf = (examples: OperationExamples | undefined): readonly Scenario[] =>
  examples === undefined ? [] : Array.isArray(examples) ? examples : [examples as Scenario];
