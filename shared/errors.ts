/**
 * One error hierarchy for the whole service. Domain code throws these; the HTTP error mapper
 * turns them into the spec's body. Anything else is an unknown error and becomes a generic 500.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly expose: boolean;
  /** A message or, for validation failures, one message per invalid field. */
  readonly messages: string | string[];
  readonly headers: Record<string, string>;

  constructor(
    statusCode: number,
    code: string,
    message: string | string[],
    options: { cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(Array.isArray(message) ? message.join('; ') : message, { cause: options.cause });
    this.name = new.target.name;
    this.statusCode = statusCode;
    this.code = code;
    this.expose = statusCode < 500;
    this.messages = message;
    this.headers = options.headers ?? {};
  }
}

export class ValidationError extends AppError {
  constructor(messages: string | string[], options?: { cause?: unknown }) {
    super(400, 'validation_failed', messages, options);
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, code = 'bad_request', options?: { cause?: unknown }) {
    super(400, code, message, options);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Unauthorized', options?: { cause?: unknown; code?: string }) {
    super(401, options?.code ?? 'unauthorized', message, options);
  }
}

/**
 * Every reason a credential is refused, as the 401's stable `code` and its message. The spec's texts
 * stay where it names them: `API key is required` when a route that takes API keys gets no
 * credential, `Unauthorized` for a credential that is not valid; the code tells the cases apart.
 */
export const AUTH_FAILURES = {
  apiKeyMissing: { code: 'authorization_missing', message: 'API key is required' },
  authorizationMissing: { code: 'authorization_missing', message: 'Authorization header is required' },
  scheme: {
    code: 'authorization_scheme',
    message: 'Authorization header must be "Bearer <API key or token>"',
  },
  apiKeyInvalid: { code: 'api_key_invalid', message: 'Unauthorized' },
  apiKeyRevoked: { code: 'api_key_revoked', message: 'API key has been revoked' },
  apiKeyNotAccepted: {
    code: 'credential_not_accepted',
    message: 'This route accepts a dashboard token, not an API key',
  },
  tokenNotAccepted: { code: 'credential_not_accepted', message: 'This route accepts an API key only' },
  tokenMissing: { code: 'token_missing', message: 'token is required' },
  tokenInvalid: { code: 'token_invalid', message: 'Unauthorized' },
  tokenExpired: { code: 'token_expired', message: 'Token has expired' },
} as const;

export type AuthFailure = keyof typeof AUTH_FAILURES;

/** The 401 of one AUTH_FAILURES case. */
export function authFailure(reason: AuthFailure, options?: { cause?: unknown }): UnauthorizedError {
  const { code, message } = AUTH_FAILURES[reason];
  return new UnauthorizedError(message, { code, cause: options?.cause });
}

export class ForbiddenError extends AppError {
  constructor(message = 'Insufficient permissions', options?: { cause?: unknown }) {
    super(403, 'forbidden', message, options);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found', options?: { cause?: unknown }) {
    super(404, 'not_found', message, options);
  }
}

/**
 * Why a request lost to the stored state. Repositories throw a ConflictError with one of these for
 * every failed condition, so a use case that has something better to do than answer 409 (reuse the
 * customer that won, answer a repeated notification as processed) branches on the reason, never
 * on a repository-specific return value.
 */
export type ConflictReason =
  /** A uniqueness condition failed: the key, name, document or notification is already there. */
  | 'already_exists'
  /** An optimistic check failed: the item changed (or went away) since it was read. */
  | 'changed'
  /** Other requests held the same items at the same moment; trying again may succeed. */
  | 'contended'
  /** The resource's state refuses the operation (a state-machine refusal, a request still running). */
  | 'invalid_state';

/** The one conflict error: always 409 through the mapper; `code` is for clients, `reason` for use cases. */
export class ConflictError extends AppError {
  readonly reason: ConflictReason;
  /** The stored state that won, when the losing write saw it (a re-registration reuses it). Never sent to clients. */
  readonly current?: unknown;

  constructor(
    message: string,
    code = 'conflict',
    options: { cause?: unknown; reason?: ConflictReason; current?: unknown } = {},
  ) {
    super(409, code, message, { cause: options.cause });
    this.reason = options.reason ?? 'invalid_state';
    this.current = options.current;
  }
}

/** A ConflictError, of the given reason when one is named; `T` types what it carries as `current`. */
export function isConflict<T = unknown>(
  error: unknown,
  reason?: ConflictReason,
): error is ConflictError & { readonly current?: T } {
  return error instanceof ConflictError && (reason === undefined || error.reason === reason);
}

export class UnprocessableError extends AppError {
  constructor(message: string, code = 'unprocessable', options?: { cause?: unknown }) {
    super(422, code, message, options);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(
    retryAfterSeconds: number,
    code = 'rate_limited',
    message = 'Muitas tentativas. Aguarde um momento e tente novamente.',
  ) {
    super(429, code, message, { headers: { 'retry-after': String(retryAfterSeconds) } });
  }
}

/** 428: the request must carry a solved proof of work; `headers` carry the challenge to solve. */
export class PreconditionRequiredError extends AppError {
  constructor(message: string, code: string, headers: Record<string, string>) {
    super(428, code, message, { headers });
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(
    message: string,
    code = 'service_unavailable',
    options: { cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super(503, code, message, {
      cause: options.cause,
      headers:
        options.retryAfterSeconds === undefined ? {} : { 'retry-after': String(options.retryAfterSeconds) },
    });
  }
}

/** What an overloaded dependency's 503 asks the client to wait, in seconds. */
const OVERLOAD_RETRY_AFTER_SECONDS = 2;

/**
 * A dependency that is saturated or did not answer in time, by the error's name as the AWS SDK
 * names it (no SDK is imported here): DynamoDB's throttling (docs: "Error handling with DynamoDB"),
 * other services' throttling, DynamoDB's own 500 ("retry the request"), and the SDK's connection
 * and socket timeouts (`TimeoutError`, also what AbortSignal.timeout raises).
 */
const OVERLOADED_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'TooManyRequestsException',
  'ThrottledException',
  'Throttling',
  'SlowDown',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
/** A transaction DynamoDB cancelled because an item was throttled (CancellationReasons[].Code). */
const OVERLOADED_REASONS = new Set([
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
]);
/** Node's network failures under load: the socket closed, refused or timed out. */
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

/**
 * The 503 an overloaded or unreachable dependency is answered as, with Retry-After; null for any
 * other failure (a bug stays a 500). Applied by toErrorBody and the pipeline's error mapper, so
 * the answer and its stored idempotent copy agree.
 */
export function unavailableOf(error: unknown): ServiceUnavailableError | null {
  if (!(error instanceof Error) || error instanceof AppError) return null;
  const { name, code, CancellationReasons } = error as Error & {
    code?: string;
    CancellationReasons?: { Code?: string }[];
  };
  const overloaded =
    OVERLOADED_NAMES.has(name) ||
    (code !== undefined && NETWORK_CODES.has(code)) ||
    (name === 'TransactionCanceledException' &&
      (CancellationReasons ?? []).some((r) => r.Code !== undefined && OVERLOADED_REASONS.has(r.Code)));
  if (!overloaded) return null;
  return new ServiceUnavailableError(
    'The service is overloaded or a dependency did not answer in time; retry later.',
    'service_overloaded',
    { cause: error, retryAfterSeconds: OVERLOAD_RETRY_AFTER_SECONDS },
  );
}

/** The error as the mapper answers it: an overloaded dependency's failure becomes its 503. */
export const asAnswerable = (error: unknown): unknown => unavailableOf(error) ?? error;

export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  code: string;
  timestamp: string;
  path: string;
}

/** The one function that maps any thrown value to the spec's error body. */
export function toErrorBody(thrown: unknown, path: string, now: Date): ErrorBody {
  const error = asAnswerable(thrown);
  if (error instanceof AppError && error.expose) {
    return {
      statusCode: error.statusCode,
      message: error.messages,
      code: error.code,
      timestamp: now.toISOString(),
      path,
    };
  }
  const statusCode = error instanceof AppError ? error.statusCode : 500;
  const code = error instanceof AppError ? error.code : 'internal_error';
  const message = error instanceof AppError ? error.message : 'Internal server error';
  return { statusCode, message, code, timestamp: now.toISOString(), path };
}
