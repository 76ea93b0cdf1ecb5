import type { Product } from '#shared/domain/products/products';
import { keys } from '../keys';
import type { Item } from '../table';
import { defineEntity } from './entity';

export const searchable = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

const attributes = (p: Product): Item => ({
  version: p.version,
  id: p.id,
  uuid: p.uuid,
  sellerId: p.tenant.sellerId,
  environment: p.tenant.environment,
  name: p.name,
  nameSearch: searchable(p.name),
  image: p.image,
  value: p.value,
  description: p.description ?? undefined,
  pix: p.pix,
  creditCard: p.creditCard,
  boleto: p.boleto,
  installments: p.installments,
  carne: p.carne,
  isActive: p.isActive,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

function fromItem(item: Item): Product {
  return {
    id: Number(item.id),
    uuid: String(item.uuid),
    tenant: {
      sellerId: Number(item.sellerId),
      environment: item.environment as Product['tenant']['environment'],
    },
    name: String(item.name),
    image: String(item.image),
    value: Number(item.value),
    description: (item.description as string | undefined) ?? null,
    pix: Boolean(item.pix),
    creditCard: Boolean(item.creditCard),
    boleto: Boolean(item.boleto),
    installments: Number(item.installments),
    carne: item.carne as Product['carne'],
    isActive: Boolean(item.isActive),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    version: Number(item.version),
  };
}

/** A product, in its tenant's partition under its numeric id; `version` is its optimistic lock. */
export const productEntity = defineEntity({
  entity: 'product',
  key: (p: Product) => keys.product(p.tenant, p.id),
  patterns: {
    byUuid: {
      index: 'gsi1',
      doc: '`PRODUCTUUID#<uuid>` / `PRODUCT`: the product in the partition its portal configuration shares (`portal-config.byProductUuid`)',
      at: (p) => ({ pk: keys.productByUuid(p.uuid), sk: 'PRODUCT' }),
    },
    byState: {
      index: 'gsi2',
      doc: "`SELLER#<id>#<env>#PRODUCTS#<active or archived>` / id: a tenant's products per tab, newest first, headed by the tab's counter (`~COUNT`)",
      at: (p) => ({
        pk: keys.productsByState(p.tenant, p.isActive ? 'active' : 'archived'),
        sk: keys.numeric(p.id),
      }),
    },
  },
  attributes,
  fromItem,
});

/**
 * The product's copy under its uuid (keys.productCopy), put in the same transaction as the product:
 * no index attributes, so no list or index query ever sees it twice. Every read by uuid is a key
 * read of it: strongly consistent, and batched with the other reads a request starts beside it.
 */
export const productCopyEntity = defineEntity({
  entity: 'product-copy',
  key: (p: Product) => keys.productCopy(p.uuid),
  patterns: {},
  attributes,
  fromItem,
});
