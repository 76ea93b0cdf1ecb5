import {
  DynamoDBClient,
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ThrottlingException,
} from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Table } from '#shared/adapters/dynamodb/table';
import { REQUEST_DEADLINE_MS, requestDeadline, withDeadline } from '#shared/deadline';
import { AppError, toErrorBody, unavailableOf } from '#shared/errors';
import { cancelled, caught } from '../support/transact-failures';

/** A saturated or unreachable store answers 503 with Retry-After; only a bug is a 500. */

const NOW = new Date('2026-11-28T12:00:00.000Z');
const meta = { $metadata: {} };
const timeout = () =>
  Object.assign(new Error('the request socket timed out after 3000 ms of inactivity'), {
    name: 'TimeoutError',
  });
const network = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:8000`), { code });

describe('the error mapper on a dependency that is overloaded or does not answer', () => {
  it.each([
    [
      'ProvisionedThroughputExceededException',
      new ProvisionedThroughputExceededException({ message: 'x', ...meta }),
    ],
    ['ThrottlingException', new ThrottlingException({ message: 'x', ...meta })],
    ['RequestLimitExceeded', new RequestLimitExceeded({ message: 'x', ...meta })],
    ['InternalServerError', new InternalServerError({ message: 'x', ...meta })],
    ['the SDK socket timeout (TimeoutError)', timeout()],
    ['ECONNRESET', network('ECONNRESET')],
    ['ECONNREFUSED', network('ECONNREFUSED')],
    ['a transaction cancelled for throttling', cancelled(['None', 'ThrottlingError'])],
    ['a transaction cancelled over provisioned throughput', cancelled(['ProvisionedThroughputExceeded'])],
  ])('answers %s as 503 service_overloaded with Retry-After', (_name, error) => {
    const mapped = unavailableOf(error);
    expect(mapped).toBeInstanceOf(AppError);
    expect(mapped?.statusCode).toBe(503);
    expect(mapped?.headers).toEqual({ 'retry-after': '2' });
    expect(mapped?.cause).toBe(error);
    expect(toErrorBody(error, '/api/transactions', NOW)).toEqual({
      statusCode: 503,
      message: 'The service is overloaded or a dependency did not answer in time; retry later.',
      code: 'service_overloaded',
      timestamp: NOW.toISOString(),
      path: '/api/transactions',
    });
  });

  it.each([
    ['a TypeError (a bug)', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a plain Error', new Error('unexpected')],
    [
      'a transaction cancelled by a condition (never left untranslated)',
      cancelled(['ConditionalCheckFailed']),
    ],
    ['a thrown string', 'boom'],
  ])('keeps %s a generic 500', (_name, error) => {
    expect(unavailableOf(error)).toBeNull();
    expect(toErrorBody(error, '/x', NOW)).toMatchObject({ statusCode: 500, code: 'internal_error' });
  });
});

describe('the table under throttling (aws-sdk-client-mock)', () => {
  // Mocked for this block only: the deadline's test below sends through a real client.
  let mock: ReturnType<typeof mockClient>;
  beforeAll(() => {
    mock = mockClient(DynamoDBDocumentClient);
  });
  afterEach(() => mock.reset());
  afterAll(() => mock.restore());
  const table = () => new Table({ tableName: 't', client: new DynamoDBClient({ region: 'sa-east-1' }) });

  it('lets a throttled read reach the mapper as the 503 it answers', async () => {
    mock.on(GetCommand).rejects(new ProvisionedThroughputExceededException({ message: 'x', ...meta }));
    const error = await caught(table().get({ pk: 'SELLER#1', sk: 'PRODUCT#1' }));
    expect(toErrorBody(error, '/api/products/1', NOW).statusCode).toBe(503);
  });

  it('lets a transaction DynamoDB cancelled for throttling answer 503, not a conflict', async () => {
    mock.on(TransactWriteCommand).rejects(cancelled(['ThrottlingError', 'None']));
    const error = await caught(
      table().transact([
        { Put: { Item: { pk: 'SELLER#1', sk: 'PRODUCT#1' } } },
        { Put: { Item: { pk: 'a', sk: 'b' } } },
      ]),
    );
    expect(toErrorBody(error, '/api/products', NOW)).toMatchObject({
      statusCode: 503,
      code: 'service_overloaded',
    });
  });

  it('lets a query that timed out answer 503', async () => {
    mock.on(QueryCommand).rejects(timeout());
    const error = await caught(
      table().query({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'SELLER#1' },
      }),
    );
    expect(toErrorBody(error, '/api/products', NOW).statusCode).toBe(503);
  });
});

describe('the request deadline', () => {
  it('starts no DynamoDB call past it: 503 deadline_exceeded, and no connection is tried', async () => {
    // Port 1 refuses connections: a call that went out would fail ECONNREFUSED instead.
    const table = new Table({ tableName: 't', endpoint: 'http://127.0.0.1:1' });
    try {
      const error = await caught(withDeadline(Date.now() - 1, () => table.get({ pk: 'a', sk: 'b' })));
      expect(toErrorBody(error, '/api/transactions', NOW)).toMatchObject({
        statusCode: 503,
        code: 'deadline_exceeded',
      });
      expect((error as AppError).headers).toEqual({ 'retry-after': '2' });
    } finally {
      table.client.destroy();
    }
  });

  it(`ends ${REQUEST_DEADLINE_MS} ms after API Gateway received the request`, () => {
    const now = NOW.getTime();
    expect(requestDeadline(now - 1_000, now)).toBe(now - 1_000 + REQUEST_DEADLINE_MS);
    // A clock ahead of ours never grants more than the whole budget.
    expect(requestDeadline(now + 60_000, now)).toBe(now + REQUEST_DEADLINE_MS);
    expect(requestDeadline(undefined, now)).toBe(now + REQUEST_DEADLINE_MS);
  });

  it('sheds at once a request that waited so long that less than 10 s would be left', () => {
    const now = NOW.getTime();
    expect(() => requestDeadline(now - 10_000, now)).not.toThrow();
    const shed = (() => {
      try {
        requestDeadline(now - 10_001, now);
      } catch (error) {
        return error as AppError;
      }
    })();
    expect(shed).toMatchObject({ statusCode: 503, code: 'deadline_exceeded' });
  });
});
