import { randomUUID } from 'node:crypto';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { checkDataFormat, DATA_FORMAT_VERSION, LocalDataFormatError } from '../../infra/local/data-format';
import { ensureTable, localClient } from '../../infra/local/dynamodb-local';
import { fileDynamoEndpoint } from '../support/file-dynamo';

const DATA_DIR = '/home/dev/payment-service/.local';

async function table() {
  const endpoint = await fileDynamoEndpoint();
  const tableName = `format-${randomUUID()}`;
  const { created } = await ensureTable(endpoint, tableName);
  return { endpoint, tableName, created };
}

async function put(endpoint: string, tableName: string, item: Record<string, unknown>) {
  const client = localClient(endpoint);
  try {
    await client.send(new PutItemCommand({ TableName: tableName, Item: item as never }));
  } finally {
    client.destroy();
  }
}

const refusalOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LocalDataFormatError);
  return (error as Error).message;
};

describe('the local data format check at npm start', () => {
  it('stamps an empty table with the format and lets every later start through', async () => {
    const { endpoint, tableName, created } = await table();
    expect(created).toBe(true);
    await checkDataFormat(endpoint, tableName, DATA_DIR, created);
    await put(endpoint, tableName, { pk: { S: 'SELLER#1' }, sk: { S: 'PRODUCT#1' } });
    // The next start finds the table kept, with its stamp.
    expect((await ensureTable(endpoint, tableName)).created).toBe(false);
    await expect(checkDataFormat(endpoint, tableName, DATA_DIR, false)).resolves.toBeUndefined();
  });

  it('refuses data written before the format was recorded, naming the folder to delete', async () => {
    const { endpoint, tableName } = await table();
    await put(endpoint, tableName, { pk: { S: 'SELLER#1' }, sk: { S: 'PRODUCT#1' } });
    const message = await refusalOf(checkDataFormat(endpoint, tableName, DATA_DIR, false));
    expect(message).toContain(`delete ${DATA_DIR}`);
    expect(message).toContain('before its format was recorded');
  });

  it('refuses data of an older format, and of a newer one, with what was found', async () => {
    for (const format of [DATA_FORMAT_VERSION - 1, DATA_FORMAT_VERSION + 1]) {
      const { endpoint, tableName } = await table();
      const key = { pk: { S: 'LOCAL#DATA_FORMAT' }, sk: { S: 'LOCAL#DATA_FORMAT' } };
      await put(endpoint, tableName, { ...key, format: { N: String(format) } });
      const message = await refusalOf(checkDataFormat(endpoint, tableName, DATA_DIR, false));
      expect(message).toContain(`data of format ${format}`);
      expect(message).toContain(DATA_DIR);
    }
  });
});
