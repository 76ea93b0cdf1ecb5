import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '#shared/domain/ports';
import { entriesOfLines, REQUEST_LOG_FIELD } from '#shared/domain/request-log/request-log';

const entry: RequestLogEntry = {
  tenant: { sellerId: 7, environment: 'test' },
  requestId: 'req-1',
  method: 'POST',
  path: '/api/products',
  status: 201,
  latencyMs: 12,
  idempotencyKey: 'k-1',
  via: 'apiKey',
  at: '2026-11-28T12:00:00.000Z',
};

describe("the request-log writer's lines", () => {
  it('keeps the entries and skips every other line of the log group', () => {
    const lines = [
      JSON.stringify({ [REQUEST_LOG_FIELD]: entry }),
      '{"level":"info","message":"request","status":201}',
      'START RequestId: 1 Version: $LATEST',
      JSON.stringify({ [REQUEST_LOG_FIELD]: { ...entry, tenant: { sellerId: 'x' } } }),
      JSON.stringify({ [REQUEST_LOG_FIELD]: { ...entry, requestId: 'req-2', idempotencyKey: null } }),
    ];
    expect(entriesOfLines(lines)).toEqual([entry, { ...entry, requestId: 'req-2', idempotencyKey: null }]);
  });
});
