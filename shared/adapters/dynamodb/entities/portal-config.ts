import type { StoredPortalConfig } from '#shared/domain/products/portal-config';
import { PORTAL_DEFAULTS, type PortalFields } from '#shared/domain/products/portal-defaults';
import type { Tenant } from '#shared/domain/tenant';
import { keys } from '../keys';
import type { Item } from '../table';
import { defineEntity } from './entity';

/** The configuration's fields, one top-level attribute each. */
export const PORTAL_FIELD_NAMES = Object.keys(PORTAL_DEFAULTS) as (keyof PortalFields)[];

/** What a configuration is written from: its tenant, and a product's uuid (its index place). */
export interface PortalConfigWrite extends StoredPortalConfig {
  tenant: Tenant;
  productUuid?: string;
}

/** A product's configuration's place on `byProductUuid`, beside its product. */
export const productConfigPlace = (productUuid: string) => ({
  pk: keys.productByUuid(productUuid),
  sk: 'PORTALCFG',
});

/**
 * The customer portal's configuration: the seller's (`PORTALCFG#SELLER`) or one product's. Written
 * by one UpdateItem that also creates (replace or merge), so the repository builds its expression
 * from this definition's key, pattern and field names.
 */
export const portalConfigEntity = defineEntity({
  entity: 'portal-config',
  version: 1,
  key: (c: PortalConfigWrite) => keys.portalConfig(c.tenant, c.productId ?? undefined),
  patterns: {
    byProductUuid: {
      index: 'gsi1',
      doc: "`PRODUCTUUID#<uuid>` / `PORTALCFG`: a product's configuration beside the product (`product.byUuid`), one query by the product's uuid",
      at: (c) => (c.productUuid ? productConfigPlace(c.productUuid) : null),
    },
  },
  attributes: (c) => {
    const item: Item = { productId: c.productId, createdAt: c.createdAt, updatedAt: c.updatedAt };
    for (const name of PORTAL_FIELD_NAMES) if (c.fields[name] !== undefined) item[name] = c.fields[name];
    return item;
  },
  fromItem: (item): StoredPortalConfig => {
    const fields: Record<string, unknown> = {};
    for (const name of PORTAL_FIELD_NAMES) if (item[name] !== undefined) fields[name] = item[name];
    return {
      productId: item.productId === undefined || item.productId === null ? null : Number(item.productId),
      fields: fields as PortalFields,
      createdAt: String(item.createdAt),
      updatedAt: String(item.updatedAt),
    };
  },
});
