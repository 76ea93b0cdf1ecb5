import { randomUUID } from 'node:crypto';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { LocalDataFormatError, migrateLocalData } from '#infra/local/data-format';
import { ensureTable, localClient } from '#infra/local/dynamodb-local';
import { keys } from '#shared/adapters/dynamodb/keys';
import { LATEST_FORMAT } from '#shared/adapters/dynamodb/migrations/list';
import { outboxPut } from '#shared/adapters/dynamodb/outbox';
import { type Item, Table } from '#shared/adapters/dynamodb/table';
import { fileDynamoEndpoint } from '../support/file-dynamo';

const DATA_DIR = '/home/dev/payment-service/.local';
const LOCAL_STAMP = { pk: { S: 'LOCAL#DATA_FORMAT' }, sk: { S: 'LOCAL#DATA_FORMAT' } };

async function table() {
  const endpoint = await fileDynamoEndpoint();
  const tableName = `format-${randomUUID()}`;
  await ensureTable(endpoint, tableName);
  return { endpoint, tableName };
}

async function put(endpoint: string, tableName: string, item: Record<string, unknown>) {
  const client = localClient(endpoint);
  try {
    await client.send(new PutItemCommand({ TableName: tableName, Item: item as never }));
  } finally {
    client.destroy();
  }
}

async function withTable<T>(endpoint: string, tableName: string, use: (t: Table) => Promise<T>): Promise<T> {
  const t = new Table({ tableName, endpoint, region: 'local' });
  try {
    return await use(t);
  } finally {
    t.client.destroy();
  }
}

const formatOf = (endpoint: string, tableName: string) =>
  withTable(
    endpoint,
    tableName,
    async (t) => (await t.get<Item>(keys.migrationFormat(), { consistent: true }))?.format,
  );

const refusalOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LocalDataFormatError);
  return (error as Error).message;
};

const sellerCounter = { pk: { S: 'COUNTER' }, sk: { S: 'seller' }, value: { N: '1' } };

describe('the migrations at npm start', () => {
  it('stamps an empty table with the latest format and lets every later start through', async () => {
    const { endpoint, tableName } = await table();
    await migrateLocalData(endpoint, tableName, DATA_DIR);
    expect(await formatOf(endpoint, tableName)).toBe(LATEST_FORMAT);
    await put(endpoint, tableName, sellerCounter);
    // The next start finds the table kept, with its format.
    await expect(migrateLocalData(endpoint, tableName, DATA_DIR)).resolves.toBeUndefined();
  });

  it('migrates a kept table of format 2 before serving: its old events get their index attributes', async () => {
    const { endpoint, tableName } = await table();
    await put(endpoint, tableName, { ...LOCAL_STAMP, format: { N: '2' } });
    await put(endpoint, tableName, sellerCounter);
    const event = {
      tenant: { sellerId: 1, environment: 'test' as const },
      envelope: {
        id: 'evt_old',
        event: 'product.created',
        timestamp: '2026-11-28T10:00:00.000Z',
        data: { id: 3 },
      },
    };
    await withTable(endpoint, tableName, async (t) => {
      await t.transact([outboxPut(event)]);
      await t.update({
        Key: keys.outboxEvent('evt_old'),
        UpdateExpression: 'REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk',
      });
    });
    await migrateLocalData(endpoint, tableName, DATA_DIR);
    expect(await formatOf(endpoint, tableName)).toBe(LATEST_FORMAT);
    const migrated = await withTable(endpoint, tableName, (t) => t.get<Item>(keys.outboxEvent('evt_old')));
    expect(migrated).toMatchObject({ gsi1pk: keys.eventsOfTenant(event.tenant), resourceId: '3' });
  });

  it('refuses data written before any format was recorded, naming the folder to delete', async () => {
    const { endpoint, tableName } = await table();
    await put(endpoint, tableName, sellerCounter);
    const message = await refusalOf(migrateLocalData(endpoint, tableName, DATA_DIR));
    expect(message).toContain(`delete ${DATA_DIR}`);
    expect(message).toContain('before its format was recorded');
  });

  it('refuses data of a newer format, and of one older than the first migration, with what was found', async () => {
    for (const format of [LATEST_FORMAT + 1, 1]) {
      const { endpoint, tableName } = await table();
      await put(endpoint, tableName, { ...LOCAL_STAMP, format: { N: String(format) } });
      const message = await refusalOf(migrateLocalData(endpoint, tableName, DATA_DIR));
      expect(message).toContain(`data of format ${format}`);
      expect(message).toContain(DATA_DIR);
    }
  });
});
