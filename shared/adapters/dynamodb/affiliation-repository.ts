import {
  AFFILIATION_EXISTS,
  type Affiliation,
  UnknownAffiliateError,
} from '#shared/domain/affiliates/affiliation';
import type { AffiliationRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';
import { affiliationEntity } from './entities/affiliation';
import { keys } from './keys';
import { ConditionFailedError, type Item, orConflict, type Table } from './table';

const toItem = affiliationEntity.toItem;
const toAffiliation = affiliationEntity.fromItem;

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
