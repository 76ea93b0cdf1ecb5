import type { Tenant } from '#shared/domain/tenant';
import type { Item } from './table';

/**
 * The one mapping of a tenant-owned entity to and from its item: the tenant as `sellerId` and
 * `environment` attributes, and the entity's data fields as top-level attributes (absent → null).
 * `optional` fields are kept only when set and read back only when there (a sandbox record's
 * `testClockId`), so a record without one reads back exactly as written.
 * Keys and index attributes are each repository's own.
 */
export function tenantAttributes<F extends string>(
  entity: { tenant: Tenant } & Partial<Record<F, unknown>>,
  fields: readonly F[],
  optional: readonly F[] = [],
): Item {
  const item: Item = { sellerId: entity.tenant.sellerId, environment: entity.tenant.environment };
  for (const f of fields) item[f] = entity[f] ?? null;
  for (const f of optional) if (entity[f] != null) item[f] = entity[f];
  return item;
}

export function fromTenantAttributes<T>(
  item: Item,
  fields: readonly string[],
  optional: readonly string[] = [],
): T {
  const out: Record<string, unknown> = {
    tenant: { sellerId: Number(item.sellerId), environment: item.environment },
  };
  for (const f of fields) out[f] = item[f] ?? null;
  for (const f of optional) if (item[f] != null) out[f] = item[f];
  return out as T;
}

/** The field a sandbox record on a test clock carries; absent on every other record. */
export const ON_A_CLOCK = ['testClockId'] as const;
