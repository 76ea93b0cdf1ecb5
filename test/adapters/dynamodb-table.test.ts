import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  alreadyExists,
  ConditionFailedError,
  createDynamoClient,
  decodeCursor,
  encodeCursor,
  orConflict,
  patchExpression,
  Table,
} from '#shared/adapters/dynamodb/table';
import { AppError, ConflictError, NotFoundError, ValidationError } from '#shared/errors';

const mock = mockClient(DynamoDBDocumentClient);
const TABLE_NAME = 'payment-service-test';
const table = () => new Table({ tableName: TABLE_NAME, client: new DynamoDBClient({ region: 'sa-east-1' }) });

const conditionFailed = (Item?: Record<string, unknown>) =>
  new ConditionalCheckFailedException({
    message: 'The conditional request failed',
    $metadata: {},
    ...(Item ? { Item: Item as never } : {}),
  });

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

beforeEach(() => {
  mock.reset();
});

describe('createDynamoClient', () => {
  it('leaves out the SDK logger middleware, which redacts every input and output for no logger', () => {
    const names = (c: DynamoDBClient) => c.middlewareStack.identify().map((entry) => entry.split(' ')[0]);
    expect(names(new DynamoDBClient({ region: 'sa-east-1' }))).toContain('loggerMiddleware');
    const client = createDynamoClient({ region: 'sa-east-1' });
    expect(names(client)).not.toContain('loggerMiddleware');
    expect(names(client)).toContain('retryMiddleware');
  });
});

describe('Table.put', () => {
  it('writes to the table asking for the old item when a condition fails', async () => {
    mock.on(PutCommand).resolves({});
    await table().put(
      { pk: 'SELLER#1', sk: 'PROFILE', name: 'Loja' },
      { ConditionExpression: 'attribute_not_exists(pk)' },
    );
    const calls = mock.commandCalls(PutCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({
      TableName: TABLE_NAME,
      Item: { pk: 'SELLER#1', sk: 'PROFILE', name: 'Loja' },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });

  it('turns ConditionalCheckFailedException into ConditionFailedError with the old item unmarshalled', async () => {
    const cause = conditionFailed({ pk: { S: 'SELLER#1' }, sk: { S: 'PROFILE' }, version: { N: '3' } });
    mock.on(PutCommand).rejects(cause);
    const error = await caught(table().put({ pk: 'SELLER#1', sk: 'PROFILE' }));
    expect(error).toBeInstanceOf(ConditionFailedError);
    // Never an AppError: an unmapped one must not reach a client as a 409 of the adapter's making.
    expect(error).not.toBeInstanceOf(AppError);
    const failed = error as ConditionFailedError;
    expect(failed.failedIndexes).toEqual([0]);
    expect(failed.existing).toEqual({ pk: 'SELLER#1', sk: 'PROFILE', version: 3 });
    expect(failed.cause).toBe(cause);
  });

  it('leaves `existing` undefined when the exception carries no item', async () => {
    mock.on(PutCommand).rejects(conditionFailed());
    const error = (await caught(table().put({ pk: 'a', sk: 'b' }))) as ConditionFailedError;
    expect(error).toBeInstanceOf(ConditionFailedError);
    expect(error.existing).toBeUndefined();
  });

  it('lets any other error through unchanged', async () => {
    const throttled = new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} });
    mock.on(PutCommand).rejects(throttled);
    expect(await caught(table().put({ pk: 'a', sk: 'b' }))).toBe(throttled);
  });
});

describe('Table.update and Table.delete', () => {
  it('updates with ALL_OLD on condition failure and returns the attributes', async () => {
    mock.on(UpdateCommand).resolves({ Attributes: { status: 'paid' } });
    const out = await table().update({
      Key: { pk: 'P#1', sk: 'P' },
      UpdateExpression: 'SET #s = :s',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': 'paid' },
      ReturnValues: 'ALL_NEW',
    });
    expect(out).toEqual({ status: 'paid' });
    expect(mock.commandCalls(UpdateCommand)[0].args[0].input).toEqual({
      TableName: TABLE_NAME,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      Key: { pk: 'P#1', sk: 'P' },
      UpdateExpression: 'SET #s = :s',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': 'paid' },
      ReturnValues: 'ALL_NEW',
    });
  });

  it('turns a failed update condition into ConditionFailedError with the old item', async () => {
    mock.on(UpdateCommand).rejects(conditionFailed({ status: { S: 'refunded' } }));
    const error = (await caught(
      table().update({ Key: { pk: 'a', sk: 'b' }, UpdateExpression: 'SET x = :x' }),
    )) as ConditionFailedError;
    expect(error).toBeInstanceOf(ConditionFailedError);
    expect(error.existing).toEqual({ status: 'refunded' });
  });

  it('deletes with the given condition and turns its failure into ConditionFailedError', async () => {
    mock.on(DeleteCommand).rejects(conditionFailed());
    const error = await caught(
      table().delete(
        { pk: 'a', sk: 'b' },
        { condition: '#s = :s', names: { '#s': 'status' }, values: { ':s': 'x' } },
      ),
    );
    expect(error).toBeInstanceOf(ConditionFailedError);
    expect(mock.commandCalls(DeleteCommand)[0].args[0].input).toEqual({
      TableName: TABLE_NAME,
      Key: { pk: 'a', sk: 'b' },
      ConditionExpression: '#s = :s',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': 'x' },
    });
  });
});

describe('Table.deleteIfExists', () => {
  it('deletes on the condition that the item exists and answers true', async () => {
    mock.on(DeleteCommand).resolves({});
    expect(await table().deleteIfExists({ pk: 'a', sk: 'b' })).toBe(true);
    expect(mock.commandCalls(DeleteCommand)[0].args[0].input).toEqual({
      TableName: TABLE_NAME,
      Key: { pk: 'a', sk: 'b' },
      ConditionExpression: 'attribute_exists(#pk)',
      ExpressionAttributeNames: { '#pk': 'pk' },
      ExpressionAttributeValues: undefined,
    });
  });

  it("answers false for a missing item, or throws the caller's error when given one", async () => {
    mock.on(DeleteCommand).rejects(conditionFailed());
    expect(await table().deleteIfExists({ pk: 'a', sk: 'b' })).toBe(false);
    const error = await caught(
      table().deleteIfExists({ pk: 'a', sk: 'b' }, () => new NotFoundError('Webhook endpoint not found')),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toBe('Webhook endpoint not found');
  });

  it('lets any other error through unchanged', async () => {
    const throttled = new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} });
    mock.on(DeleteCommand).rejects(throttled);
    expect(await caught(table().deleteIfExists({ pk: 'a', sk: 'b' }, () => new NotFoundError()))).toBe(
      throttled,
    );
  });
});

describe('orConflict', () => {
  it('turns a failed condition into the domain error it is given, with the failure as cause', async () => {
    const failure = new ConditionFailedError([0]);
    const error = await caught(orConflict(Promise.reject(failure), alreadyExists('The seller')));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      statusCode: 409,
      code: 'already_exists',
      reason: 'already_exists',
      message: 'The seller already exists',
      cause: failure,
    });
  });

  it('passes results and other errors through', async () => {
    expect(await orConflict(Promise.resolve(7), alreadyExists('x'))).toBe(7);
    const other = new Error('network');
    expect(await caught(orConflict(Promise.reject(other), alreadyExists('x')))).toBe(other);
  });
});

describe('Table.batchGet', () => {
  const key = (i: number) => ({ pk: `P#${i}`, sk: 'S' });

  it('asks for the keys once each, consistently when asked, and returns what came back', async () => {
    mock.on(BatchGetCommand).resolves({ Responses: { [TABLE_NAME]: [{ ...key(1), n: 1 }] } });
    const items = await table().batchGet([key(1), key(2), key(1)], { consistent: true });
    expect(items).toEqual([{ ...key(1), n: 1 }]);
    expect(mock.commandCalls(BatchGetCommand)[0].args[0].input).toEqual({
      RequestItems: { [TABLE_NAME]: { Keys: [key(1), key(2)], ConsistentRead: true } },
    });
  });

  it('splits more than 100 keys into requests of at most 100', async () => {
    mock.on(BatchGetCommand).resolves({ Responses: { [TABLE_NAME]: [] } });
    await table().batchGet(Array.from({ length: 250 }, (_, i) => key(i)));
    const sizes = mock
      .commandCalls(BatchGetCommand)
      .map((c) => c.args[0].input.RequestItems?.[TABLE_NAME].Keys?.length);
    expect(sizes).toEqual([100, 100, 50]);
  });

  it('asks again for the keys DynamoDB left unprocessed', async () => {
    mock
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { [TABLE_NAME]: [key(1)] },
        UnprocessedKeys: { [TABLE_NAME]: { Keys: [key(2)] } },
      })
      .resolves({ Responses: { [TABLE_NAME]: [key(2)] } });
    expect(await table().batchGet([key(1), key(2)])).toEqual([key(1), key(2)]);
    const calls = mock.commandCalls(BatchGetCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1].args[0].input.RequestItems?.[TABLE_NAME].Keys).toEqual([key(2)]);
  });

  it('gives up after 5 requests that leave keys unprocessed', async () => {
    mock.on(BatchGetCommand).resolves({ UnprocessedKeys: { [TABLE_NAME]: { Keys: [key(1)] } } });
    const error = await caught(table().batchGet([key(1)]));
    expect((error as Error).message).toMatch(/left 1 keys unprocessed after 5 requests/);
    expect(mock.commandCalls(BatchGetCommand)).toHaveLength(5);
  });

  it('sends nothing for no keys', async () => {
    expect(await table().batchGet([])).toEqual([]);
    expect(mock.commandCalls(BatchGetCommand)).toHaveLength(0);
  });
});

describe('Table.get', () => {
  it('reads one item, consistently when asked', async () => {
    mock.on(GetCommand).resolves({ Item: { pk: 'a', sk: 'b', n: 1 } });
    expect(await table().get({ pk: 'a', sk: 'b' }, { consistent: true })).toEqual({ pk: 'a', sk: 'b', n: 1 });
    expect(mock.commandCalls(GetCommand)[0].args[0].input).toEqual({
      TableName: TABLE_NAME,
      Key: { pk: 'a', sk: 'b' },
      ConsistentRead: true,
    });
  });

  it('answers undefined for a missing item', async () => {
    mock.on(GetCommand).resolves({});
    expect(await table().get({ pk: 'a', sk: 'b' })).toBeUndefined();
  });
});

describe('Table.transact', () => {
  it('adds the table name to every entry', async () => {
    mock.on(TransactWriteCommand).resolves({});
    await table().transact([
      { Put: { Item: { pk: 'a', sk: 'b' }, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          Key: { pk: 'c', sk: 'd' },
          UpdateExpression: 'ADD n :one',
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      { Delete: { Key: { pk: 'e', sk: 'f' } } },
      { ConditionCheck: { Key: { pk: 'g', sk: 'h' }, ConditionExpression: 'attribute_exists(pk)' } },
    ]);
    expect(mock.commandCalls(TransactWriteCommand)[0].args[0].input).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: TABLE_NAME,
            Item: { pk: 'a', sk: 'b' },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: TABLE_NAME,
            Key: { pk: 'c', sk: 'd' },
            UpdateExpression: 'ADD n :one',
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
        { Delete: { TableName: TABLE_NAME, Key: { pk: 'e', sk: 'f' } } },
        {
          ConditionCheck: {
            TableName: TABLE_NAME,
            Key: { pk: 'g', sk: 'h' },
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ],
    });
  });

  it('names the entries whose condition failed from CancellationReasons', async () => {
    const cause = new TransactionCanceledException({
      message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
      $metadata: {},
      CancellationReasons: [
        { Code: 'None' },
        { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
        { Code: 'None' },
        { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
      ],
    });
    mock.on(TransactWriteCommand).rejects(cause);
    const error = (await caught(table().transact([]))) as ConditionFailedError;
    expect(error).toBeInstanceOf(ConditionFailedError);
    expect(error).not.toBeInstanceOf(AppError);
    expect(error.failedIndexes).toEqual([1, 3]);
    expect(error.cause).toBe(cause);
  });

  it('unmarshalls the old item of each failed entry that asked for ALL_OLD', async () => {
    mock.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: {},
        CancellationReasons: [
          { Code: 'ConditionalCheckFailed', Item: { pk: { S: 'a' }, n: { N: '2' } } },
          { Code: 'ConditionalCheckFailed' },
        ],
      }),
    );
    const error = (await caught(table().transact([]))) as ConditionFailedError;
    expect(error.itemAt(0)).toEqual({ pk: 'a', n: 2 });
    expect(error.existing).toEqual({ pk: 'a', n: 2 });
    expect(error.itemAt(1)).toBeUndefined();
  });

  it('lets a cancellation without a failed condition through unchanged', async () => {
    const conflict = new TransactionCanceledException({
      message: 'Transaction cancelled',
      $metadata: {},
      CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
    });
    mock.on(TransactWriteCommand).rejects(conflict);
    expect(await caught(table().transact([]))).toBe(conflict);
  });
});

describe('Table.nextId', () => {
  it('increments the named counter with one atomic ADD and returns the new value', async () => {
    mock.on(UpdateCommand).resolves({ Attributes: { value: 42 } });
    expect(await table().nextId('payments')).toBe(42);
    const calls = mock.commandCalls(UpdateCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({
      TableName: TABLE_NAME,
      Key: { pk: 'COUNTER', sk: 'payments' },
      UpdateExpression: 'ADD #v :n SET #e = :e, #ver = :ver',
      ExpressionAttributeNames: { '#v': 'value', '#e': 'entity', '#ver': 'version' },
      ExpressionAttributeValues: { ':n': 1, ':e': 'id-counter', ':ver': 1 },
      ReturnValues: 'UPDATED_NEW',
    });
  });

  it('reserves a block of ids and hands them out without another round trip (hi/lo)', async () => {
    mock
      .on(UpdateCommand)
      .resolvesOnce({ Attributes: { value: 20 } })
      .resolvesOnce({ Attributes: { value: 40 } });
    const t = table();
    const ids = [];
    for (let i = 0; i < 21; i++) ids.push(await t.nextId('customer', { block: 20 }));
    expect(ids).toEqual([...Array.from({ length: 20 }, (_, i) => i + 1), 21]);
    expect(mock.commandCalls(UpdateCommand)).toHaveLength(2);
    expect(mock.commandCalls(UpdateCommand)[0].args[0].input.ExpressionAttributeValues).toMatchObject({
      ':n': 20,
    });
  });
  it('claims the next block in the background at half, so the id after a block needs no wait', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    mock
      .on(UpdateCommand)
      .resolvesOnce({ Attributes: { value: 10 } })
      .callsFake(async () => {
        await held;
        return { Attributes: { value: 30 } };
      });
    const t = table();
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await t.nextId('transaction', { block: 10 }));
    // The sixth id left half the block: the claim ahead is sent, not awaited.
    expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
    expect(mock.commandCalls(UpdateCommand)).toHaveLength(2);
    expect(t.aheadClaims).toBe(1);
    for (let i = 0; i < 4; i++) ids.push(await t.nextId('transaction', { block: 10 }));
    expect(ids.at(-1)).toBe(10);
    // The block is used up while the claim is still out: the next id waits for that same claim.
    const next = t.nextId('transaction', { block: 10 });
    release();
    expect(await next).toBe(21);
    expect(mock.commandCalls(UpdateCommand)).toHaveLength(2);
  });

  it('claims once for concurrent first ids of a container and hands each caller its own', async () => {
    mock.on(UpdateCommand).resolvesOnce({ Attributes: { value: 100 } });
    const t = table();
    const ids = await Promise.all(Array.from({ length: 5 }, () => t.nextId('customer', { block: 100 })));
    expect(ids.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    expect(mock.commandCalls(UpdateCommand)).toHaveLength(1);
  });
});

describe('Table.query and cursors', () => {
  it('returns no cursor on the last page', async () => {
    mock.on(QueryCommand).resolves({ Items: [{ pk: 'a', sk: '1' }] });
    const page = await table().query({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'a' },
    });
    expect(page).toEqual({ items: [{ pk: 'a', sk: '1' }], cursor: undefined });
    expect(mock.commandCalls(QueryCommand)[0].args[0].input).toEqual({
      TableName: TABLE_NAME,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'a' },
      ExclusiveStartKey: undefined,
    });
  });

  it('turns LastEvaluatedKey into a cursor that starts the next page there', async () => {
    const last = { pk: 'SELLER#1#test', sk: 'PAYMENT#000000000042' };
    mock.on(QueryCommand).resolvesOnce({ Items: [], LastEvaluatedKey: last }).resolves({ Items: [] });
    const first = await table().query({ KeyConditionExpression: 'pk = :pk', Limit: 1 });
    expect(first.cursor).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]+$/));
    await table().query({ KeyConditionExpression: 'pk = :pk', Limit: 1, cursor: first.cursor });
    expect(mock.commandCalls(QueryCommand)[1].args[0].input).toEqual({
      TableName: TABLE_NAME,
      KeyConditionExpression: 'pk = :pk',
      Limit: 1,
      ExclusiveStartKey: last,
    });
  });

  it('refuses a garbage cursor with a ValidationError before calling DynamoDB', async () => {
    const error = await caught(
      table().query({ KeyConditionExpression: 'pk = :pk', cursor: 'not-a-cursor!!' }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).messages).toEqual(['cursor is not valid']);
    expect(mock.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('round-trips any start key through encodeCursor and decodeCursor (property)', () => {
    fc.assert(
      fc.property(
        fc.record(
          { pk: fc.string(), sk: fc.string(), gsi1pk: fc.string(), gsi1sk: fc.string() },
          { requiredKeys: ['pk', 'sk'] },
        ),
        (key) => {
          const cursor = encodeCursor(key) as string;
          expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
          expect(decodeCursor(cursor)).toEqual(key);
        },
      ),
    );
  });

  it('refuses a cursor that names other attributes or non-string values (tampered)', () => {
    for (const tampered of [{ foo: 1 }, { pk: 1, sk: 'a' }, { pk: 'a', sk: 'b', extra: 'c' }]) {
      expect(() => decodeCursor(encodeCursor(tampered))).toThrow(ValidationError);
    }
  });

  it('has no cursor for no key and no key for no cursor', () => {
    expect(encodeCursor(undefined)).toBeUndefined();
    expect(decodeCursor(undefined)).toBeUndefined();
    expect(decodeCursor('')).toBeUndefined();
  });

  it.each([
    ['text that is not base64url JSON', '%%%'],
    ['base64url of a number', Buffer.from('42').toString('base64url')],
    ['base64url of null', Buffer.from('null').toString('base64url')],
    ['base64url of an array', Buffer.from('[1,2]').toString('base64url')],
    ['base64url of a string', Buffer.from('"x"').toString('base64url')],
    ['truncated JSON', Buffer.from('{"pk":"a"').toString('base64url')],
  ])('refuses %s as a cursor', (_, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(ValidationError);
  });
});

describe('patchExpression', () => {
  it('sets the fields with a value, removes the null ones and skips undefined', () => {
    expect(patchExpression({ a: 1, b: null, c: undefined, d: 'x' })).toEqual({
      expression: 'SET #f_a = :f_a, #f_d = :f_d REMOVE #f_b',
      names: { '#f_a': 'a', '#f_b': 'b', '#f_d': 'd' },
      values: { ':f_a': 1, ':f_d': 'x' },
    });
  });

  it('writes only a REMOVE when every field is null', () => {
    expect(patchExpression({ a: null }, 'p').expression).toBe('REMOVE #p_a');
  });
});
