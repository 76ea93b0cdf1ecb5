import { describe, expect, it } from 'vitest';
import {
  AppError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  isConflict,
  NotFoundError,
  PreconditionRequiredError,
  ServiceUnavailableError,
  TooManyRequestsError,
  toErrorBody,
  UnauthorizedError,
  UnprocessableError,
  ValidationError,
} from '#shared/errors';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const PATH = '/api/products';

interface Row {
  error: AppError;
  type: new (...args: never[]) => AppError;
  statusCode: number;
  code: string;
  message: string | string[];
  headers?: Record<string, string>;
}

const rows: Row[] = [
  {
    error: new ValidationError(['name is required', 'value must be at least 5']),
    type: ValidationError,
    statusCode: 400,
    code: 'validation_failed',
    message: ['name is required', 'value must be at least 5'],
  },
  {
    error: new ValidationError('cursor is not valid'),
    type: ValidationError,
    statusCode: 400,
    code: 'validation_failed',
    message: 'cursor is not valid',
  },
  {
    error: new BadRequestError('Body is not valid JSON'),
    type: BadRequestError,
    statusCode: 400,
    code: 'bad_request',
    message: 'Body is not valid JSON',
  },
  {
    error: new BadRequestError('Body is not valid JSON', 'malformed_json'),
    type: BadRequestError,
    statusCode: 400,
    code: 'malformed_json',
    message: 'Body is not valid JSON',
  },
  {
    error: new UnauthorizedError(),
    type: UnauthorizedError,
    statusCode: 401,
    code: 'unauthorized',
    message: 'Unauthorized',
  },
  {
    error: new ForbiddenError(),
    type: ForbiddenError,
    statusCode: 403,
    code: 'forbidden',
    message: 'Insufficient permissions',
  },
  {
    error: new NotFoundError(),
    type: NotFoundError,
    statusCode: 404,
    code: 'not_found',
    message: 'Not found',
  },
  {
    error: new NotFoundError('API key not found'),
    type: NotFoundError,
    statusCode: 404,
    code: 'not_found',
    message: 'API key not found',
  },
  {
    error: new ConflictError('Already exists'),
    type: ConflictError,
    statusCode: 409,
    code: 'conflict',
    message: 'Already exists',
  },
  {
    error: new ConflictError('Still running', 'idempotency_in_progress'),
    type: ConflictError,
    statusCode: 409,
    code: 'idempotency_in_progress',
    message: 'Still running',
  },
  {
    error: new ConflictError('The product changed at the same time; retry', 'concurrent_update', {
      reason: 'changed',
      current: { secret: 'stored state' },
    }),
    type: ConflictError,
    statusCode: 409,
    code: 'concurrent_update',
    message: 'The product changed at the same time; retry',
  },
  {
    error: new UnprocessableError('Cannot refund'),
    type: UnprocessableError,
    statusCode: 422,
    code: 'unprocessable',
    message: 'Cannot refund',
  },
  {
    error: new TooManyRequestsError(42),
    type: TooManyRequestsError,
    statusCode: 429,
    code: 'rate_limited',
    message: 'Muitas tentativas. Aguarde um momento e tente novamente.',
    headers: { 'retry-after': '42' },
  },
  {
    error: new TooManyRequestsError(600, 'card_attempts_blocked', 'Muitas tentativas com cartão.'),
    type: TooManyRequestsError,
    statusCode: 429,
    code: 'card_attempts_blocked',
    message: 'Muitas tentativas com cartão.',
    headers: { 'retry-after': '600' },
  },
  {
    error: new PreconditionRequiredError('Solve the challenge', 'proof_of_work_required', {
      'x-proof-of-work-challenge': 'pow1.16.1.abc.def',
    }),
    type: PreconditionRequiredError,
    statusCode: 428,
    code: 'proof_of_work_required',
    message: 'Solve the challenge',
    headers: { 'x-proof-of-work-challenge': 'pow1.16.1.abc.def' },
  },
  {
    error: new ServiceUnavailableError('Gateway down'),
    type: ServiceUnavailableError,
    statusCode: 503,
    code: 'service_unavailable',
    message: 'Gateway down',
  },
  {
    error: new ServiceUnavailableError('Gateway down', 'gateway_unavailable'),
    type: ServiceUnavailableError,
    statusCode: 503,
    code: 'gateway_unavailable',
    message: 'Gateway down',
  },
];

describe('error classes', () => {
  it.each(rows.map((r) => [r.error.name, r.statusCode, r.code, r] as const))(
    '%s has status %i and code %s',
    (name, statusCode, code, row) => {
      expect(row.error).toBeInstanceOf(row.type);
      expect(row.error).toBeInstanceOf(AppError);
      expect(row.error).toBeInstanceOf(Error);
      expect(name).toBe(row.type.name);
      expect(row.error.statusCode).toBe(statusCode);
      expect(row.error.code).toBe(code);
      expect(row.error.messages).toEqual(row.message);
      expect(row.error.headers).toEqual(row.headers ?? {});
      expect(row.error.expose).toBe(statusCode < 500);
    },
  );

  it('joins several validation messages into Error.message', () => {
    expect(new ValidationError(['a is required', 'b is required']).message).toBe(
      'a is required; b is required',
    );
  });

  it('gives every conflict a reason (invalid_state unless named) for use cases to branch on', () => {
    expect(new ConflictError('x').reason).toBe('invalid_state');
    const lost = new ConflictError('x', 'concurrent_update', { reason: 'changed', current: { v: 2 } });
    expect(lost.reason).toBe('changed');
    expect(lost.current).toEqual({ v: 2 });
    expect(isConflict(lost)).toBe(true);
    expect(isConflict(lost, 'changed')).toBe(true);
    expect(isConflict(lost, 'already_exists')).toBe(false);
    expect(isConflict(new NotFoundError(), 'changed')).toBe(false);
    expect(isConflict(new Error('x'))).toBe(false);
  });

  it('keeps the cause', () => {
    const cause = new Error('root');
    expect(new NotFoundError('x', { cause }).cause).toBe(cause);
    expect(new ValidationError('x', { cause }).cause).toBe(cause);
  });
});

describe('toErrorBody', () => {
  it.each(rows.map((r) => [r.error.name, r.code, r] as const))(
    'maps %s (%s) to the spec body',
    (_, __, row) => {
      expect(toErrorBody(row.error, PATH, NOW)).toEqual({
        statusCode: row.statusCode,
        message: row.message,
        code: row.code,
        timestamp: '2026-11-21T12:00:00.000Z',
        path: PATH,
      });
    },
  );

  it('turns a plain Error into a generic 500 without its message or stack', () => {
    const error = new Error('connect ECONNREFUSED 10.0.0.12:8000 (secret table payments-prod)');
    const body = toErrorBody(error, PATH, NOW);
    expect(body).toEqual({
      statusCode: 500,
      message: 'Internal server error',
      code: 'internal_error',
      timestamp: '2026-11-21T12:00:00.000Z',
      path: PATH,
    });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|10\.0\.0\.12|payments-prod|at /);
  });

  it.each([
    ['a string', 'boom: password=123'],
    ['null', null],
    ['undefined', undefined],
    ['an object', { secret: 'x', statusCode: 400, message: 'fake' }],
    ['a number', 42],
  ])('turns a thrown %s into a generic 500', (_, value) => {
    const body = toErrorBody(value, PATH, NOW);
    expect(body).toEqual({
      statusCode: 500,
      message: 'Internal server error',
      code: 'internal_error',
      timestamp: '2026-11-21T12:00:00.000Z',
      path: PATH,
    });
  });

  it('keeps the message and code of an AppError with status 500 or more', () => {
    const error = new AppError(502, 'gateway_error', 'Upstream gateway failed');
    expect(toErrorBody(error, PATH, NOW)).toEqual({
      statusCode: 502,
      message: 'Upstream gateway failed',
      code: 'gateway_error',
      timestamp: '2026-11-21T12:00:00.000Z',
      path: PATH,
    });
  });

  it('marks AppErrors of 500 and above as not exposed', () => {
    expect(new AppError(500, 'x', 'y').expose).toBe(false);
    expect(new AppError(499, 'x', 'y').expose).toBe(true);
  });
});
