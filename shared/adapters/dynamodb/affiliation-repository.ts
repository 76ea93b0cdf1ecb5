import {
  AFFILIATION_EXISTS,
  type Affiliation,
  UnknownAffiliateError,
} from '#shared/domain/affiliates/affiliation';
import type { AffiliationRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';
import { keys } from './keys';
import { ConditionFailedError, type Item, orConflict, type Table } from './table';

const ENTITY = 'affiliation';

function toItem(a: Affiliation): Item {
  return {
    ...keys.affiliation(a.tenant, a.productId, a.affiliateId),
    entity: ENTITY,
    version: 1,
    sellerId: a.tenant.sellerId,
    environment: a.tenant.environment,
    productId: a.productId,
    affiliateId: a.affiliateId,
    commissionBasisPoints: a.commissionBasisPoints,
    status: a.status,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    endedAt: a.endedAt ?? undefined,
  };
}

function toAffiliation(item: Item): Affiliation {
  return {
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
  };
}

export function createAffiliationRepository(table: Table): AffiliationRepository {
  return {
    async add(affiliation) {
      await orConflict(
        table.transact([
          // The affiliate must be a seller: checked in the same write, no read before it.
          {
            ConditionCheck: {
              Key: keys.seller(affiliation.affiliateId),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          // One affiliation per pair: a new one, or the ended one it replaces.
          {
            Put: {
              Item: toItem(affiliation),
              ConditionExpression: 'attribute_not_exists(pk) OR #s = :ended',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: { ':ended': 'ended' },
            },
          },
        ]),
        (failure) =>
          failure.failedIndexes.includes(0)
            ? new UnknownAffiliateError()
            : new ConflictError(AFFILIATION_EXISTS, 'already_exists', {
                reason: 'already_exists',
                cause: failure,
              }),
      );
    },

    async get(tenant, productId, affiliateId) {
      const item = await table.get<Item>(keys.affiliation(tenant, productId, affiliateId), {
        consistent: true,
      });
      return item ? toAffiliation(item) : null;
    },

    async listByProduct(tenant, productId, status) {
      const found: Affiliation[] = [];
      let cursor: string | undefined;
      do {
        const page = await table.query<Item>({
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ...(status ? { FilterExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'status' } } : {}),
          ExpressionAttributeValues: {
            ':pk': keys.tenant(tenant),
            ':prefix': keys.affiliationsOfProduct(productId),
            ...(status ? { ':s': status } : {}),
          },
          ConsistentRead: true,
          cursor,
        });
        found.push(...page.items.map(toAffiliation));
        cursor = page.cursor;
      } while (cursor);
      return found;
    },

    async end(tenant, productId, affiliateId, now) {
      try {
        const item = await table.update<Item>({
          Key: keys.affiliation(tenant, productId, affiliateId),
          UpdateExpression: 'SET #s = :ended, endedAt = :now, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND #s = :active',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':ended': 'ended', ':active': 'active', ':now': now },
          ReturnValues: 'ALL_NEW',
        });
        return toAffiliation(item ?? {});
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        if (!error.existing) return null;
        throw new ConflictError('The affiliation has already ended', 'invalid_state', {
          reason: 'invalid_state',
          current: toAffiliation(error.existing),
          cause: error,
        });
      }
    },
  };
}
