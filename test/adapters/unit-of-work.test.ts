import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { Table } from '../../shared/adapters/dynamodb/table';
import { inUnitOfWork } from '../../shared/adapters/dynamodb/unit-of-work';

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
