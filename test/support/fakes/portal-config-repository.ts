import type { PortalConfigRepository, ProductRepository } from '#shared/domain/ports';
import {
  PORTAL_DEFAULTS,
  type PortalFields,
  type StoredPortalConfig,
} from '#shared/domain/products/portal-config';
import type { Tenant } from '#shared/domain/tenant';

const FIELD_NAMES = Object.keys(PORTAL_DEFAULTS) as (keyof PortalFields)[];
const keyOf = (tenant: Tenant, productId?: number) =>
  `${tenant.sellerId}#${tenant.environment}#${productId ?? 'SELLER'}`;

interface StoredEntry {
  config: StoredPortalConfig;
  /** The product uuid the configuration is indexed under (written with `productUuid`). */
  uuid?: string;
}

/** The known portal fields that are set (null included); unknown names and undefined are dropped. */
function known(fields: PortalFields): PortalFields {
  const out: Record<string, unknown> = {};
  for (const name of FIELD_NAMES) if (fields[name] !== undefined) out[name] = fields[name];
  return out as PortalFields;
}

/**
 * Seller and product portal configurations in a map, with the DynamoDB repository's outcomes:
 * replace keeps only the fields given, merge adds them to the stored ones, both keep createdAt;
 * delete of a missing one answers false. Products are read from the product repository the
 * fake is given; a read by uuid finds the product's configuration only when it was written with
 * that uuid, as the table's index does.
 */
export class FakePortalConfigRepository implements PortalConfigRepository {
  readonly items = new Map<string, StoredEntry>();

  constructor(private readonly products: ProductRepository) {}

  async get(tenant: Tenant, productId?: number): Promise<StoredPortalConfig | null> {
    const found = this.items.get(keyOf(tenant, productId));
    return found ? structuredClone(found.config) : null;
  }

  async readForProduct(
    tenant: Tenant,
    ref: { id: number } | { uuid: string },
    withSeller: boolean,
  ): Promise<{
    productId: number | null;
    product: StoredPortalConfig | null;
    seller: StoredPortalConfig | null;
  }> {
    const product =
      'id' in ref
        ? await this.products.get(tenant, ref.id)
        : await this.products
            .findByUuid(ref.uuid)
            .then((p) =>
              p && p.tenant.sellerId === tenant.sellerId && p.tenant.environment === tenant.environment
                ? p
                : null,
            );
    const own = product ? this.items.get(keyOf(tenant, product.id)) : undefined;
    const visible = own && ('id' in ref || own.uuid === ref.uuid) ? own : undefined;
    // By id the seller's configuration is read in the same batch even when the product is missing.
    const seller = withSeller && ('id' in ref || product) ? this.items.get(keyOf(tenant)) : undefined;
    return {
      productId: product ? product.id : null,
      product: visible ? structuredClone(visible.config) : null,
      seller: seller ? structuredClone(seller.config) : null,
    };
  }

  async replace(
    tenant: Tenant,
    productId: number | undefined,
    fields: PortalFields,
    now: string,
    productUuid?: string,
  ): Promise<StoredPortalConfig> {
    return this.write(tenant, productId, known(fields), now, productUuid);
  }

  async merge(
    tenant: Tenant,
    productId: number | undefined,
    fields: PortalFields,
    now: string,
    productUuid?: string,
  ): Promise<StoredPortalConfig> {
    const stored = this.items.get(keyOf(tenant, productId));
    return this.write(tenant, productId, { ...stored?.config.fields, ...known(fields) }, now, productUuid);
  }

  async delete(tenant: Tenant, productId?: number): Promise<boolean> {
    return this.items.delete(keyOf(tenant, productId));
  }

  private write(
    tenant: Tenant,
    productId: number | undefined,
    fields: PortalFields,
    now: string,
    productUuid?: string,
  ): StoredPortalConfig {
    const key = keyOf(tenant, productId);
    const stored = this.items.get(key);
    const config: StoredPortalConfig = {
      productId: productId ?? null,
      fields: structuredClone(fields),
      createdAt: stored?.config.createdAt ?? now,
      updatedAt: now,
    };
    this.items.set(key, { config, uuid: productUuid ?? stored?.uuid });
    return structuredClone(config);
  }
}
