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
  constructor(message = 'Unauthorized', options?: { cause?: unknown }) {
    super(401, 'unauthorized', message, options);
  }
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

export class ConflictError extends AppError {
  constructor(message: string, code = 'conflict', options?: { cause?: unknown }) {
    super(409, code, message, options);
  }
}

export class UnprocessableError extends AppError {
  constructor(message: string, code = 'unprocessable', options?: { cause?: unknown }) {
    super(422, code, message, options);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Muitas tentativas. Aguarde um momento e tente novamente.', {
      headers: { 'retry-after': String(retryAfterSeconds) },
    });
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string, code = 'service_unavailable', options?: { cause?: unknown }) {
    super(503, code, message, options);
  }
}

export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  code: string;
  timestamp: string;
  path: string;
}

/** The one function that maps any thrown value to the spec's error body. */
export function toErrorBody(error: unknown, path: string, now: Date): ErrorBody {
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
