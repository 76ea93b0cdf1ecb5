/**
 * The API's errors as classes by status. Every error answer has the same body
 * (`{statusCode, message, code, timestamp, path}`, the ErrorBody of docs/openapi.json); validation
 * failures give `message` as one sentence per invalid field, each starting with the field's name.
 */

/** One invalid field of a validation failure: `customer.email must be an e-mail address`. */
export interface FieldError {
  /** The field's path as the API names it (`customer.email`, `items[0].value`). */
  field: string;
  message: string;
}

export interface ApiErrorDetails {
  status: number;
  code: string;
  message: string | string[];
  headers: Headers;
  body: unknown;
}

/** Base of every error the SDK throws. */
export class PaymentServiceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** An answer of 400 or more. Catch a subclass for one status, or this for all. */
export class ApiError extends PaymentServiceError {
  /** The HTTP status. */
  readonly status: number;
  /** The API's stable snake_case error code (`validation_failed`, `not_found`, …). */
  readonly code: string;
  /** Every sentence of the answer's message (one per invalid field for validation failures). */
  readonly messages: string[];
  /** The invalid fields, when the API named them (validation failures). */
  readonly fieldErrors: FieldError[];
  /** The answer's headers (Retry-After, Idempotent-Replayed, …). */
  readonly headers: Headers;
  /** The answer's body as received. */
  readonly body: unknown;

  constructor(details: ApiErrorDetails) {
    const messages = Array.isArray(details.message) ? details.message : [details.message];
    super(messages.join('; ') || `HTTP ${details.status}`);
    this.status = details.status;
    this.code = details.code;
    this.messages = messages;
    this.fieldErrors = details.code === 'validation_failed' ? messages.map(fieldErrorOf) : [];
    this.headers = details.headers;
    this.body = details.body;
  }
}

/** 400: the request is malformed or a field is invalid (see `fieldErrors`). */
export class BadRequestError extends ApiError {}
/** 401: no API key, or one that is invalid or revoked. */
export class AuthenticationError extends ApiError {}
/** 403: the key may not do this (a read-only key writing, a live-only route…). */
export class PermissionError extends ApiError {}
/** 404: no such resource for this seller (another seller's resource answers the same). */
export class NotFoundError extends ApiError {}
/** 409: the resource's state refuses the operation, or the same idempotency key is still running. */
export class ConflictError extends ApiError {}
/** 422: understood but refused, such as an idempotency key reused with another body. */
export class UnprocessableError extends ApiError {}
/** 429: too many requests; `retryAfterSeconds` says when to come back. */
export class RateLimitError extends ApiError {
  /** Seconds from Retry-After, when the answer gave it. */
  get retryAfterSeconds(): number | null {
    const value = this.headers.get('retry-after');
    return value !== null && /^\d+$/.test(value) ? Number(value) : null;
  }
}
/** 5xx: the service failed; retried automatically where that is safe before this is thrown. */
export class ServerError extends ApiError {}

/** The request never got an answer (connection refused or reset, DNS, the timeout). */
export class ConnectionError extends PaymentServiceError {}

const BY_STATUS: Record<number, new (details: ApiErrorDetails) => ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableError,
  429: RateLimitError,
};

/** The error class of an answer: by its status, ServerError for any 5xx, ApiError otherwise. */
export function apiErrorFrom(status: number, body: unknown, headers: Headers): ApiError {
  const known = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const message =
    typeof known.message === 'string' || Array.isArray(known.message)
      ? (known.message as string | string[])
      : typeof body === 'string' && body.length > 0
        ? body.slice(0, 500)
        : `HTTP ${status}`;
  const code = typeof known.code === 'string' ? known.code : `http_${status}`;
  const ErrorClass = BY_STATUS[status] ?? (status >= 500 ? ServerError : ApiError);
  return new ErrorClass({ status, code, message, headers, body });
}

function fieldErrorOf(message: string): FieldError {
  // "customer.email must be …", "X-Idempotency-Key must be …": the field is the first word.
  const space = message.indexOf(' ');
  return { field: space > 0 ? message.slice(0, space) : '', message };
}
