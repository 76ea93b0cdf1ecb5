import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import {
  PORTAL_DEFAULTS,
  type PortalConfigRepository,
  type PortalFields,
  type StoredPortalConfig,
} from '#shared/domain/products/portal-config';
import type { Tenant } from '#shared/domain/tenant';
import { keys } from './keys';
import { ConditionFailedError, type Item, type Table } from './table';

const ENTITY = 'portal-config';
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

    async getBoth(tenant, productId) {
      const productKey = keys.portalConfig(tenant, productId);
      const sellerKey = keys.portalConfig(tenant);
      const out = await table.doc.send(
        new BatchGetCommand({
          RequestItems: { [table.name]: { Keys: [productKey, sellerKey], ConsistentRead: true } },
        }),
      );
      const items = (out.Responses?.[table.name] ?? []) as Item[];
      const product = items.find((i) => i.sk === productKey.sk);
      const seller = items.find((i) => i.sk === sellerKey.sk);
      return { product: product ? toConfig(product) : null, seller: seller ? toConfig(seller) : null };
    },

    replace: (tenant, productId, fields, now) => write(table, tenant, productId, fields, now, true),
    merge: (tenant, productId, fields, now) => write(table, tenant, productId, fields, now, false),

    async delete(tenant, productId) {
      try {
        await table.delete(keys.portalConfig(tenant, productId), { condition: 'attribute_exists(pk)' });
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },
  };
}
