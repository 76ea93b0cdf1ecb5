import type { PortalConfigRepository } from '#shared/domain/ports';
import type { StoredPortalConfig } from '#shared/domain/products/portal-config';
import { PORTAL_DEFAULTS, type PortalFields } from '#shared/domain/products/portal-defaults';
import type { Tenant } from '#shared/domain/tenant';
import { keys } from './keys';
import type { Item, Table } from './table';
import { TABLE } from './table-definition';

const ENTITY = 'portal-config';
/** A product's configuration is indexed under the product's uuid, beside the product. */
const byUuid = TABLE.indexes.byUuidOrOwner;
const FIELD_NAMES = Object.keys(PORTAL_DEFAULTS) as (keyof PortalFields)[];

function toConfig(item: Item): StoredPortalConfig {
  const fields: Record<string, unknown> = {};
  for (const name of FIELD_NAMES) if (item[name] !== undefined) fields[name] = item[name];
  return {
    productId: item.productId === undefined || item.productId === null ? null : Number(item.productId),
    fields: fields as PortalFields,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

/**
 * Fields are top-level attributes, so both "replace" (POST/PUT: set the given fields, remove the
 * others) and "merge" (PATCH: set only the given fields) are one UpdateItem that also creates.
 */
async function write(
  table: Table,
  tenant: Tenant,
  productId: number | undefined,
  fields: PortalFields,
  now: string,
  removeOthers: boolean,
  productUuid?: string,
) {
  const names: Record<string, string> = { '#e': 'entity', '#v': 'version' };
  const values: Record<string, unknown> = { ':now': now, ':pid': productId ?? null, ':e': ENTITY, ':v': 1 };
  const sets = [
    'createdAt = if_not_exists(createdAt, :now)',
    'updatedAt = :now',
    'productId = :pid',
    '#e = :e',
    '#v = :v',
  ];
  const removes: string[] = [];
  if (productUuid) {
    names['#g1pk'] = byUuid.partitionKey;
    names['#g1sk'] = byUuid.sortKey;
    values[':g1pk'] = keys.productByUuid(productUuid);
    values[':g1sk'] = 'PORTALCFG';
    sets.push('#g1pk = :g1pk', '#g1sk = :g1sk');
  }
  FIELD_NAMES.forEach((name, i) => {
    const value = fields[name];
    if (value !== undefined) {
      names[`#f${i}`] = name;
      values[`:f${i}`] = value;
      sets.push(`#f${i} = :f${i}`);
    } else if (removeOthers) {
      names[`#f${i}`] = name;
      removes.push(`#f${i}`);
    }
  });
  const item = await table.update<Item>({
    Key: keys.portalConfig(tenant, productId),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValues: 'ALL_NEW',
  });
  return toConfig(item ?? {});
}

export function createPortalConfigRepository(table: Table): PortalConfigRepository {
  return {
    async get(tenant, productId) {
      const item = await table.get<Item>(keys.portalConfig(tenant, productId), { consistent: true });
      return item ? toConfig(item) : null;
    },

    async readForProduct(tenant, ref, withSeller) {
      const sellerKey = keys.portalConfig(tenant);
      const isProduct = (i: Item) =>
        i.entity === 'product' &&
        Number(i.sellerId) === tenant.sellerId &&
        i.environment === tenant.environment;
      if ('id' in ref) {
        const wanted = [
          keys.product(tenant, ref.id),
          keys.portalConfig(tenant, ref.id),
          ...(withSeller ? [sellerKey] : []),
        ];
        const items = await table.batchGet<Item>(wanted, { consistent: true });
        const product = items.find(isProduct);
        const own = items.find((i) => i.sk === wanted[1].sk);
        const seller = items.find((i) => i.sk === sellerKey.sk);
        return {
          productId: product ? Number(product.id) : null,
          product: product && own ? toConfig(own) : null,
          seller: seller ? toConfig(seller) : null,
        };
      }
      // By uuid: the product and its configuration share a byUuidOrOwner partition (one query).
      const out = await table.query<Item>({
        IndexName: byUuid.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': byUuid.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.productByUuid(ref.uuid) },
      });
      const product = out.items.find(isProduct);
      const own = out.items.find(
        (i) => i.entity === ENTITY && product && Number(i.productId) === Number(product.id),
      );
      const seller =
        product && withSeller ? await table.get<Item>(sellerKey, { consistent: true }) : undefined;
      return {
        productId: product ? Number(product.id) : null,
        product: own ? toConfig(own) : null,
        seller: seller ? toConfig(seller) : null,
      };
    },

    replace: (tenant, productId, fields, now, uuid) =>
      write(table, tenant, productId, fields, now, true, uuid),
    merge: (tenant, productId, fields, now, uuid) =>
      write(table, tenant, productId, fields, now, false, uuid),

    delete: (tenant, productId) => table.deleteIfExists(keys.portalConfig(tenant, productId)),
  };
}
