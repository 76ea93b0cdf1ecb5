import type { PriceRepository } from '#shared/domain/ports';
import type { SubscriptionPrice } from '#shared/domain/subscriptions/price';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';

const keyOf = (tenant: Tenant, id: number) => `${tenant.sellerId}#${tenant.environment}#${id}`;
const sameTenant = (a: Tenant, b: Tenant) => a.sellerId === b.sellerId && a.environment === b.environment;

/**
 * Subscription prices in a map, with the DynamoDB repository's outcomes: an id stored twice is
 * ConflictError `already_exists`; save writes `next` only on `previous.version` (ConflictError
 * `changed`); findByUuid answers null for another tenant's price; listByProduct is newest first.
 */
export class FakePriceRepository implements PriceRepository {
  readonly items = new Map<string, SubscriptionPrice>();
  private lastId: number;

  constructor(firstId = 1) {
    this.lastId = firstId - 1;
  }

  /** Stores a price as if it had been created earlier. */
  seed(price: SubscriptionPrice): SubscriptionPrice {
    this.items.set(keyOf(price.tenant, price.id), structuredClone(price));
    return price;
  }

  async nextId(): Promise<number> {
    return ++this.lastId;
  }

  async create(price: SubscriptionPrice): Promise<void> {
    if (this.items.has(keyOf(price.tenant, price.id)))
      throw new ConflictError('The price already exists', 'already_exists', { reason: 'already_exists' });
    this.seed(price);
  }

  async get(tenant: Tenant, id: number): Promise<SubscriptionPrice | null> {
    const found = this.items.get(keyOf(tenant, id));
    return found ? structuredClone(found) : null;
  }

  async findByUuid(tenant: Tenant, uuid: string): Promise<SubscriptionPrice | null> {
    const found = [...this.items.values()].find((p) => p.uuid === uuid && sameTenant(p.tenant, tenant));
    return found ? structuredClone(found) : null;
  }

  async listByProduct(tenant: Tenant, productId: number): Promise<SubscriptionPrice[]> {
    return [...this.items.values()]
      .filter((p) => sameTenant(p.tenant, tenant) && p.product.id === productId)
      .sort((a, b) => b.id - a.id)
      .map((p) => structuredClone(p));
  }

  async save(next: SubscriptionPrice, previous: SubscriptionPrice): Promise<void> {
    const key = keyOf(previous.tenant, previous.id);
    if (this.items.get(key)?.version !== previous.version)
      throw new ConflictError('The price changed at the same time; retry', 'concurrent_update', {
        reason: 'changed',
      });
    this.items.set(key, structuredClone(next));
  }
}
