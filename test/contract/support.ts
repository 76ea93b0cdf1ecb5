import { randomUUID } from 'node:crypto';
import { afterAll, expect } from 'vitest';
import { Table } from '#shared/adapters/dynamodb/table';
import { ConflictError } from '#shared/errors';
import { ensureTable } from '../../infra/local/dynamodb-local';
import { fileDynamoEndpoint } from '../support/file-dynamo';

const opened: Table[] = [];

/**
 * A new, empty table on the test file's DynamoDB Local (leased from the global setup's pool),
 * created from the same definition as the stack. Each call makes its own table, so a contract case
 * that calls it per test starts from nothing; the clients are closed after the file.
 */
export async function freshTable(prefix = 'contract'): Promise<Table> {
  const endpoint = await fileDynamoEndpoint();
  const tableName = `${prefix}-${randomUUID()}`;
  await ensureTable(endpoint, tableName);
  const table = new Table({ tableName, endpoint });
  opened.push(table);
  return table;
}

afterAll(() => {
  for (const table of opened.splice(0)) table.client.destroy();
});

/** The ConflictError a write is refused with (the case fails if it succeeds or throws anything else). */
export async function conflictOf(promise: Promise<unknown>): Promise<ConflictError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConflictError);
  return error as ConflictError;
}
