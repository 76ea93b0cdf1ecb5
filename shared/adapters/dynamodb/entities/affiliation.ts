import type { Affiliation } from '#shared/domain/affiliates/affiliation';
import { keys } from '../keys';
import { defineEntity } from './entity';

/**
 * A product's affiliation with one affiliate (a seller id), in the product's tenant partition; a
 * product's list is one prefix query. An ended one is replaced when the affiliate is added again.
 */
export const affiliationEntity = defineEntity({
  entity: 'affiliation',
  version: 1,
  key: (a: Affiliation) => keys.affiliation(a.tenant, a.productId, a.affiliateId),
  patterns: {},
  attributes: (a) => ({
    sellerId: a.tenant.sellerId,
    environment: a.tenant.environment,
    productId: a.productId,
    affiliateId: a.affiliateId,
    commissionBasisPoints: a.commissionBasisPoints,
    status: a.status,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    endedAt: a.endedAt ?? undefined,
  }),
  fromItem: (item): Affiliation => ({
    tenant: {
      sellerId: Number(item.sellerId),
      environment: item.environment as Affiliation['tenant']['environment'],
    },
    productId: Number(item.productId),
    affiliateId: Number(item.affiliateId),
    commissionBasisPoints: Number(item.commissionBasisPoints),
    status: item.status as Affiliation['status'],
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    endedAt: (item.endedAt as string | undefined) ?? null,
  }),
});
