import { randomUUID } from 'node:crypto';
import { afterAll, expect } from 'vitest';
import { ensureTable } from '#infra/local/dynamodb-local';
import { Table } from '#shared/adapters/dynamodb/table';
import type { CustomerProfile } from '#shared/domain/customers/customer';
import type { CustomerRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { fileDynamoEndpoint } from '../support/file-dynamo';
import { customerProfile as profileFixture } from '../support/fixtures';

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

/** A customer as the contract tests register it: what a charge or plan snapshots of it. */
export interface CustomerSeed {
  id: number;
  uuid: string;
  name: string;
  email: string;
  document: string;
}

/** A seller's profile of `c`, created at `createdAt`, with no address and no overdue count. */
export function customerProfile(tenant: Tenant, c: CustomerSeed, createdAt: string): CustomerProfile {
  return profileFixture({
    tenant,
    id: c.id,
    uuid: c.uuid,
    document: c.document,
    personType: c.document.length === 14 ? 'juridica' : 'fisica',
    name: c.name,
    email: c.email,
    createdAt,
  });
}

/** Registers each profile with a new global customer of the same fields. */
export async function registerProfiles(
  customers: CustomerRepository,
  profiles: CustomerProfile[],
): Promise<void> {
  for (const p of profiles)
    await customers.createGlobal(
      {
        id: p.id,
        uuid: p.uuid,
        environment: p.tenant.environment,
        document: p.document,
        personType: p.personType,
        name: p.name,
        email: p.email,
        phone: p.phone,
        createdAt: p.createdAt,
      },
      p,
    );
}

/** The tenant's customers with something overdue (GET /api/v1/customers?status=overdue), by id. */
export const overdueCustomerIds = async (customers: CustomerRepository, tenant: Tenant) =>
  (await customers.list(tenant, { search: { kind: 'all' }, overdueOnly: true, skip: 0, take: 50 })).items
    .map((p) => p.id)
    .sort();
