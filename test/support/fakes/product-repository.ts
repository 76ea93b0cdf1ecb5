import type { DomainEvent } from '#shared/domain/events/events';
import type { ProductRepository } from '#shared/domain/ports';
import type { Product, ProductTab } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, ValidationError } from '#shared/errors';
import { FakeOutbox } from './outbox';

const keyOf = (tenant: Tenant, id: number) => `${tenant.sellerId}#${tenant.environment}#${id}`;
/** As the DynamoDB repository compares names in a search: no accents, lower case. */
const searchable = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/**
 * Products in a map, with the DynamoDB repository's outcomes: save throws ConflictError
 * (`concurrent_update`, reason `changed`) unless the stored version is the expected one, and a
 * refused save writes neither the product nor its events.
 * `beforeSave` runs just before the version check, to stage a concurrent writer.
 */
export class FakeProductRepository implements ProductRepository {
  readonly items = new Map<string, Product>();
  readonly outbox = new FakeOutbox();
  readonly counters = { active: 0, archived: 0 };
  saves = 0;
  beforeSave: (() => void) | null = null;

  /** Stores a product as if it had been created earlier (no events). */
  seed(product: Product): Product {
    this.items.set(keyOf(product.tenant, product.id), structuredClone(product));
    return product;
  }

  stored(tenant: Tenant, id: number): Product | undefined {
    return this.items.get(keyOf(tenant, id));
  }

  async create(product: Product, events: DomainEvent[]): Promise<void> {
    const key = keyOf(product.tenant, product.id);
    if (this.items.has(key))
      throw new ConflictError('The product already exists', 'already_exists', { reason: 'already_exists' });
    this.items.set(key, structuredClone(product));
    this.counters.active++;
    this.outbox.write(events);
  }

  async get(tenant: Tenant, id: number): Promise<Product | null> {
    const found = this.items.get(keyOf(tenant, id));
    return found ? structuredClone(found) : null;
  }

  async findByUuid(uuid: string): Promise<Product | null> {
    const found = [...this.items.values()].find((p) => p.uuid === uuid);
    return found ? structuredClone(found) : null;
  }

  /** Reads the joined repositories' items at the moment the product is read, as one BatchGetItem does. */
  async save(
    product: Product,
    expectedVersion: number,
    events: DomainEvent[],
    counters?: { active: number; archived: number },
  ): Promise<void> {
    this.beforeSave?.();
    const key = keyOf(product.tenant, product.id);
    const stored = this.items.get(key);
    if (!stored || stored.version !== expectedVersion) {
      throw new ConflictError('The product changed at the same time; retry', 'concurrent_update', {
        reason: 'changed',
      });
    }
    this.items.set(key, structuredClone(product));
    this.saves++;
    if (counters) {
      this.counters.active += counters.active;
      this.counters.archived += counters.archived;
    }
    this.outbox.write(events);
  }

  async list(
    tenant: Tenant,
    query: { tab: ProductTab; search?: string; page: number; limit: number },
  ): Promise<{ items: Product[]; totalCount: number }> {
    const matching = [...this.items.values()]
      .filter((p) => p.tenant.sellerId === tenant.sellerId && p.tenant.environment === tenant.environment)
      .filter((p) => query.tab === 'all' || p.isActive === (query.tab === 'active'))
      .filter((p) => !query.search || searchable(p.name).includes(searchable(query.search)))
      .sort((a, b) => b.id - a.id);
    const skip = (query.page - 1) * query.limit;
    return { items: matching.slice(skip, skip + query.limit), totalCount: matching.length };
  }

  async page(
    tenant: Tenant,
    query: { active?: boolean; limit: number; cursor?: string },
  ): Promise<{ items: Product[]; cursor?: string }> {
    // As a start key does, the cursor names the list (tenant and filter) and the last id shown.
    const prefix = `${tenant.sellerId}#${tenant.environment}#${query.active ?? 'all'}#`;
    const before = query.cursor === undefined ? null : Number(query.cursor.slice(prefix.length));
    if (query.cursor !== undefined && (!query.cursor.startsWith(prefix) || !Number.isInteger(before)))
      throw new ValidationError(['cursor is not valid']);
    const matching = [...this.items.values()]
      .filter((p) => p.tenant.sellerId === tenant.sellerId && p.tenant.environment === tenant.environment)
      .filter((p) => query.active === undefined || p.isActive === query.active)
      .filter((p) => before === null || p.id < before)
      .sort((a, b) => b.id - a.id);
    const items = matching.slice(0, query.limit);
    const more = matching.length > query.limit;
    return { items: structuredClone(items), cursor: more ? `${prefix}${items.at(-1)?.id}` : undefined };
  }
}
