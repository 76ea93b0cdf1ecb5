import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ConditionFailedError, Table, type TransactItem } from '#shared/adapters/dynamodb/table';
import { atomically, inUnitOfWork } from '#shared/adapters/dynamodb/unit-of-work';
import { ConflictError } from '#shared/errors';
import { cancelled, caught } from '../support/transact-failures';

const mock = mockClient(DynamoDBDocumentClient);
const TABLE_NAME = 'payment-service-test';
const table = () => new Table({ tableName: TABLE_NAME, client: new DynamoDBClient({ region: 'sa-east-1' }) });
const key = (i: number) => ({ pk: `P#${i}`, sk: 'S' });

beforeEach(() => {
  mock.reset();
});

describe('inUnitOfWork', () => {
  it('sends the gets and batch gets started together as one consistent BatchGetItem, each answered its own', async () => {
    mock.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE_NAME]: [
          { ...key(3), n: 3 },
          { ...key(1), n: 1 },
        ],
      },
    });
    const t = table();

    const [one, two, many] = await inUnitOfWork(() =>
      Promise.all([t.get(key(1)), t.get(key(2), { consistent: true }), t.batchGet([key(3), key(1)])]),
    );

    expect(one).toEqual({ ...key(1), n: 1 });
    expect(two).toBeUndefined();
    expect(many).toEqual([
      { ...key(3), n: 3 },
      { ...key(1), n: 1 },
    ]);
    expect(mock.commandCalls(GetCommand)).toHaveLength(0);
    expect(mock.commandCalls(BatchGetCommand).map((c) => c.args[0].input)).toEqual([
      { RequestItems: { [TABLE_NAME]: { Keys: [key(1), key(2), key(3)], ConsistentRead: true } } },
    ]);
  });

  it('sends a lone read as the GetItem it was, and reads started after a flush in a batch of their own', async () => {
    mock.on(GetCommand).resolves({ Item: { ...key(1), n: 1 } });
    const t = table();

    await inUnitOfWork(async () => {
      expect(await t.get(key(1))).toEqual({ ...key(1), n: 1 });
      await t.get(key(1));
    });

    expect(mock.commandCalls(GetCommand).map((c) => c.args[0].input)).toEqual([
      { TableName: TABLE_NAME, Key: key(1), ConsistentRead: false },
      { TableName: TABLE_NAME, Key: key(1), ConsistentRead: false },
    ]);
  });

  it('fails every read of a batch whose request failed', async () => {
    mock.on(BatchGetCommand).rejects(new Error('throttled'));
    const t = table();

    const results = await inUnitOfWork(() => Promise.allSettled([t.get(key(1)), t.get(key(2))]));

    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('leaves reads outside the scope, and reads of two concurrent scopes, apart', async () => {
    mock.on(GetCommand).resolves({});
    const t = table();

    await Promise.all([
      t.get(key(1)),
      t.get(key(2)),
      inUnitOfWork(() => t.get(key(3))),
      inUnitOfWork(() => t.get(key(4))),
    ]);

    expect(mock.commandCalls(GetCommand)).toHaveLength(4);
    expect(mock.commandCalls(BatchGetCommand)).toHaveLength(0);
  });
});

describe('atomically', () => {
  const putOf = (i: number) => ({
    Item: { ...key(i), n: i },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
  const put = (i: number): TransactItem => ({ Put: putOf(i) });
  const sent = (i: number) => ({ Put: { TableName: TABLE_NAME, ...putOf(i) } });
  /** A repository's failure mapping that tells which part failed and what it saw. */
  const part = (name: string, items: TransactItem[]) => ({
    items,
    toError: (failure: ConditionFailedError) =>
      new ConflictError(
        `${name} ${failure.failedIndexes.join(',')} ${JSON.stringify(failure.itemAt(0) ?? null)}`,
        name,
        {
          reason: 'changed',
        },
      ),
  });

  it('sends the writes the work made as one TransactWriteItems when it returns, in the order they were made', async () => {
    mock.on(TransactWriteCommand).resolves({});
    const t = table();

    const answer = await atomically(async () => {
      await t.write(part('customer', [put(1), put(2)]));
      expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
      await t.write(part('transaction', [put(3)]));
      return 'done';
    });

    expect(answer).toBe('done');
    expect(mock.commandCalls(TransactWriteCommand).map((c) => c.args[0].input)).toEqual([
      { TransactItems: [sent(1), sent(2), sent(3)] },
    ]);
  });

  it("throws the failed entry's own repository error, with the failure as that part sees it (its indexes from 0)", async () => {
    mock
      .on(TransactWriteCommand)
      .rejects(cancelled(['None', 'None', { Code: 'ConditionalCheckFailed', Item: { n: 3 } }]));
    const t = table();

    const error = await caught(
      atomically(async () => {
        await t.write(part('customer', [put(1), put(2)]));
        await t.write(part('transaction', [put(3)]));
      }),
    );

    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'transaction', messages: 'transaction 0 {"n":3}' });
  });

  it('maps a TransactionConflict through the first part that says what contention means to it', async () => {
    mock.on(TransactWriteCommand).rejects(cancelled(['None', 'TransactionConflict']));
    const t = table();
    const contended = new ConflictError('contended', 'customer_contention', { reason: 'contended' });

    const error = await caught(
      atomically(async () => {
        await t.write(part('transaction', [put(1)]));
        await t.write({ ...part('customer', [put(2)]), contended: () => contended });
      }),
    );

    expect(error).toBe(contended);
  });

  it('writes nothing when the work throws', async () => {
    const t = table();

    const error = await caught(
      atomically(async () => {
        await t.write(part('customer', [put(1)]));
        throw new Error('refused');
      }),
    );

    expect((error as Error).message).toBe('refused');
    expect(mock.calls()).toHaveLength(0);
  });

  it('refuses more than 100 entries rather than split them (a split would not be all-or-nothing)', async () => {
    const t = table();

    const error = await caught(
      atomically(async () => {
        await t.write(
          part(
            'a',
            Array.from({ length: 60 }, (_, i) => put(i)),
          ),
        );
        await t.write(
          part(
            'b',
            Array.from({ length: 41 }, (_, i) => put(100 + i)),
          ),
        );
      }),
    );

    expect((error as Error).message).toMatch(/at most 100 items \(this one: 101\)/);
    expect(mock.calls()).toHaveLength(0);
  });

  it('joins an enclosing atomically, and sends a write outside one at once (a lone entry as its own PutItem)', async () => {
    mock.on(TransactWriteCommand).resolves({});
    mock.on(PutCommand).resolves({});
    const t = table();

    await t.write(part('alone', [put(9)]));
    expect(mock.commandCalls(PutCommand).map((c) => c.args[0].input.Item)).toEqual([{ ...key(9), n: 9 }]);

    await atomically(async () => {
      await t.write(part('outer', [put(1)]));
      await atomically(() => t.write(part('inner', [put(2)])));
      expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
    });
    expect(mock.commandCalls(TransactWriteCommand).map((c) => c.args[0].input)).toEqual([
      { TransactItems: [sent(1), sent(2)] },
    ]);
  });

  it('refuses a write staged after its unit of work ended (a write the work did not await)', async () => {
    mock.on(PutCommand).resolves({});
    const t = table();
    let late: Promise<void> | undefined;

    await atomically(async () => {
      late = new Promise((resolve) => setImmediate(resolve)).then(() => t.write(part('late', [put(1)])));
    });

    await expect(late).rejects.toThrow('staged after its unit of work ended');
    expect(mock.calls()).toHaveLength(0);
  });
});
