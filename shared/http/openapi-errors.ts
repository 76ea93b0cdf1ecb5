import type * as z from 'zod';
import { PROOF_OF_WORK_REQUIRED } from '#shared/domain/card-testing/guard';
import { resolveExisting, validateKey } from '#shared/domain/idempotency';
import {
  type AppError,
  authFailure,
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  PreconditionRequiredError,
  TooManyRequestsError,
  toErrorBody,
  ValidationError,
} from '#shared/errors';
import { describeIssue } from '#shared/parse-input';
import { declaredRequest } from './responses';
import type { Route } from './types';

/**
 * The error answers the API reference shows, made by the service's own errors and error mapper:
 * the validation messages are the route's schema's over an empty body, the idempotency, proof of
 * work and rate limit texts their modules' own. Only the generic causes of a status are shown; an operation's
 * business refusals (a 409 of its state, a 503 without a provider) are described in words.
 * test/integration/docs.test.ts checks these against the running service.
 */

/** When the examples' errors happened (a fixed instant, so the document is the same on every build). */
const AT = new Date('2026-11-28T17:30:00.000Z');

const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
};

/** What an empty body gets: every required field named, as the pipeline's parse says it. */
function emptyBodyError(route: Route): ValidationError | undefined {
  const body = declaredRequest(route, 'body') as z.ZodType | undefined;
  const parsed = body?.safeParse({});
  if (!parsed || parsed.success) return undefined;
  return new ValidationError([...new Set(parsed.error.issues.map(describeIssue))]);
}

function errorOf(route: Route, status: number): unknown {
  const dashboard = route.auth.includes('jwt') || route.auth.includes('panel');
  switch (status) {
    case 400:
      return (
        emptyBodyError(route) ??
        (route.idempotent ? thrown(() => validateKey('')) : undefined) ??
        (dashboard
          ? new BadRequestError('X-Environment must be one of: test, live', 'invalid_environment')
          : undefined)
      );
    case 401:
      return authFailure(route.auth.includes('apiKey') ? 'apiKeyMissing' : 'authorizationMissing');
    case 403:
      return route.testOnly === true
        ? new ForbiddenError('Test helpers work only in the test environment')
        : new ForbiddenError();
    case 404:
      if (route.notFound) return new NotFoundError(route.notFound);
      return route.testOnly === 'hidden'
        ? new NotFoundError(`Cannot ${route.method} ${route.path}`)
        : undefined;
    case 409:
      return route.idempotent
        ? thrown(() => resolveExisting({ state: 'in_progress', fingerprint: 'a' }, 'a'))
        : undefined;
    case 422:
      return route.idempotent
        ? thrown(() => resolveExisting({ state: 'in_progress', fingerprint: 'a' }, 'b'))
        : undefined;
    case 428:
      return new PreconditionRequiredError(PROOF_OF_WORK_REQUIRED, 'proof_of_work_required', {});
    case 429:
      return new TooManyRequestsError(60);
    case 500:
      return new Error('an unexpected failure');
    default:
      return undefined;
  }
}

/** The error body a route answers for a generic cause of `status`, at `path`; undefined when it has none. */
export function errorExample(route: Route, status: number, path: string) {
  const error = errorOf(route, status);
  return error === undefined ? undefined : toErrorBody(error, path, AT);
}

/** The body the error mapper makes of an example's refusal. */
export const refusalExample = (error: AppError, path: string) => toErrorBody(error, path, AT);
