import type { PortalConfigRepository } from '#shared/domain/ports';
import type { PortalFields } from '#shared/domain/products/portal-defaults';
import type { Tenant } from '#shared/domain/tenant';
import { PORTAL_FIELD_NAMES, portalConfigEntity, productConfigPlace } from './entities/portal-config';
import { keys } from './keys';
import type { Item, Table } from './table';

const ENTITY = portalConfigEntity.entity;
const { byProductUuid } = portalConfigEntity.patterns;
const FIELD_NAMES = PORTAL_FIELD_NAMES;
const toConfig = portalConfigEntity.fromItem;

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
  const values: Record<string, unknown> = {
    ':now': now,
    ':pid': productId ?? null,
    ':e': ENTITY,
    ':v': portalConfigEntity.version,
  };
  const sets = [
    'createdAt = if_not_exists(createdAt, :now)',
    'updatedAt = :now',
    'productId = :pid',
    '#e = :e',
    '#v = :v',
  ];
  const removes: string[] = [];
  if (productUuid) {
    names['#g1pk'] = byProductUuid.partitionKey;
    names['#g1sk'] = byProductUuid.sortKey;
    const place = productConfigPlace(productUuid);
    values[':g1pk'] = place.pk;
    values[':g1sk'] = place.sk;
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
      // By uuid: the product and its configuration share a byProductUuidOrOwner partition (one query).
      const out = await table.query<Item>({
        IndexName: byProductUuid.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': byProductUuid.partitionKey },
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
