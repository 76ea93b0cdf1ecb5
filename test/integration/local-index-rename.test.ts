import { randomUUID } from 'node:crypto';
import {
  CreateTableCommand,
  DescribeTableCommand,
  PutItemCommand,
  QueryCommand,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureTable, localClient } from '#infra/local/dynamodb-local';
import { createTableInput } from '#shared/adapters/dynamodb/table-definition';
import { fileDynamoEndpoint } from '../support/file-dynamo';

/** The semantic index names the table had before the entities named their own access patterns. */
const OLD_NAMES = [
  'byUuidOrOwner',
  'byStatusOrName',
  'byGatewayPayId',
  'byProduct',
  'byCustomer',
  'byStatusAndMethod',
];

describe('a kept local table whose indexes had the old semantic names', () => {
  it('gets the generic indexes built from its items at start, the old ones dropped, its items untouched', async () => {
    const endpoint = await fileDynamoEndpoint();
    const tableName = `rename-${randomUUID()}`;
    const client = localClient(endpoint);
    try {
      const input = createTableInput(tableName);
      await client.send(
        new CreateTableCommand({
          ...input,
          GlobalSecondaryIndexes: input.GlobalSecondaryIndexes.map((index, i) => ({
            ...index,
            IndexName: OLD_NAMES[i],
          })),
        }),
      );
      // A transaction as the old code wrote it: the index attributes are the same gsiN attributes.
      await client.send(
        new PutItemCommand({
          TableName: tableName,
          Item: {
            pk: { S: 'SELLER#7#test' },
            sk: { S: 'TXN#000000000001' },
            gsi3pk: { S: 'GATEWAYPAY#900' },
            gsi3sk: { S: 'sandbox#7#test' },
          },
        }),
      );

      expect((await ensureTable(endpoint, tableName)).created).toBe(false);

      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      expect((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort()).toEqual(
        input.GlobalSecondaryIndexes.map((i) => i.IndexName).sort(),
      );
      const found = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: 'gsi3',
          KeyConditionExpression: 'gsi3pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: 'GATEWAYPAY#900' } },
        }),
      );
      expect(found.Items?.map((item) => item.sk.S)).toEqual(['TXN#000000000001']);
    } finally {
      client.destroy();
    }
  });
});
