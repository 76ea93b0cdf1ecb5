import type { Tenant } from '#shared/domain/tenant';
import type { Item } from './table';

/**
 * The one mapping of a tenant-owned entity to and from its item: the tenant as `sellerId` and
 * `environment` attributes, and the entity's data fields as top-level attributes (absent → null).
 * Keys and index attributes are each repository's own.
 */
export function tenantAttributes<F extends string>(
  entity: { tenant: Tenant } & Partial<Record<F, unknown>>,
  fields: readonly F[],
): Item {
  const item: Item = { sellerId: entity.tenant.sellerId, environment: entity.tenant.environment };
  for (const f of fields) item[f] = entity[f] ?? null;
  return item;
}

export function fromTenantAttributes<T>(item: Item, fields: readonly string[]): T {
  const out: Record<string, unknown> = {
    tenant: { sellerId: Number(item.sellerId), environment: item.environment },
  };
  for (const f of fields) out[f] = item[f] ?? null;
  return out as T;
}
