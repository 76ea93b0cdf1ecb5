import type { DomainEvent } from '#shared/domain/events/events';
import type { PortalFields, StoredPortalConfig } from '#shared/domain/products/portal-config';
import type { Product, ProductTab } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';

export interface ProductRepository {
  create(product: Product, events: DomainEvent[]): Promise<void>;
  get(tenant: Tenant, id: number): Promise<Product | null>;
  /** Any tenant's product by uuid, strongly consistent (the public payment link and the checkout need this). */
  findByUuid(uuid: string): Promise<Product | null>;
  /**
   * Replaces the product if its version is still `expectedVersion`; throws ConflictError
   * (`concurrent_update`, reason `changed`) when it changed.
   */
  save(
    product: Product,
    expectedVersion: number,
    events: DomainEvent[],
    counters?: { active: number; archived: number },
  ): Promise<void>;
  list(
    tenant: Tenant,
    query: { tab: ProductTab; search?: string; page: number; limit: number },
  ): Promise<{ items: Product[]; totalCount: number }>;
  /**
   * Cursor pages, newest first: every product, or only active or archived ones. The cursor is the
   * previous page's; another tenant's or another filter's cursor is a ValidationError.
   */
  page(
    tenant: Tenant,
    query: { active?: boolean; limit: number; cursor?: string },
  ): Promise<{ items: Product[]; cursor?: string }>;
}

export interface PortalConfigRepository {
  get(tenant: Tenant, productId?: number): Promise<StoredPortalConfig | null>;
  /**
   * A product (by id or uuid) with its own configuration and, on request, the seller's, in as few
   * reads as the keys allow. `productId` is null when the tenant has no such product.
   */
  readForProduct(
    tenant: Tenant,
    ref: { id: number } | { uuid: string },
    withSeller: boolean,
  ): Promise<{
    productId: number | null;
    product: StoredPortalConfig | null;
    seller: StoredPortalConfig | null;
  }>;
  /** Replaces the whole configuration (POST, PUT). */
  replace(
    tenant: Tenant,
    productId: number | undefined,
    fields: PortalFields,
    now: string,
    /** Indexes a product's configuration next to the product, so a read by uuid finds both. */
    productUuid?: string,
  ): Promise<StoredPortalConfig>;
  /** Writes only the fields given, creating the configuration when there is none (PATCH). */
  merge(
    tenant: Tenant,
    productId: number | undefined,
    fields: PortalFields,
    now: string,
    /** Indexes a product's configuration next to the product, so a read by uuid finds both. */
    productUuid?: string,
  ): Promise<StoredPortalConfig>;
  /** Removes the configuration; answers whether there was one (a missing one is no error). */
  delete(tenant: Tenant, productId?: number): Promise<boolean>;
}
