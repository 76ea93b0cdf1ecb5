import type { SellerAccountRepository } from '#shared/domain/ports';
import { keys } from './keys';
import type { Item, Table } from './table';

const LOGIN_ENTITY = 'seller-login';

/**
 * Sellers that signed up alone: the profile the operator path writes (entity `seller`) and, beside
 * it, the login record the live gate reads (whether the login has a second factor).
 */
export function createSellerAccountRepository(table: Table): SellerAccountRepository {
  return {
    async register(input, at) {
      const id = await table.nextId('seller');
      const createdAt = at.toISOString();
      await table.transact([
        {
          Put: {
            Item: {
              ...keys.seller(id),
              entity: 'seller',
              version: 1,
              id,
              name: input.businessName,
              createdAt,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            Item: {
              ...keys.sellerLogin(id),
              entity: LOGIN_ENTITY,
              version: 1,
              sellerId: id,
              email: input.email,
              document: input.document,
              selfSignedUp: true,
              totpEnabled: false,
              createdAt,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ]);
      return id;
    },

    async login(sellerId) {
      const item = await table.get<Item>(keys.sellerLogin(sellerId), { consistent: true });
      if (!item) return null;
      return { sellerId, selfSignedUp: item.selfSignedUp === true, totpEnabled: item.totpEnabled === true };
    },

    async markTotpEnabled(sellerId, at) {
      await table.update({
        Key: keys.sellerLogin(sellerId),
        // An operator-made seller has no record yet: this makes one (not signed up alone).
        UpdateExpression:
          'SET totpEnabled = :t, totpEnabledAt = :at, sellerId = :id, entity = if_not_exists(entity, :e), version = if_not_exists(version, :v)',
        ExpressionAttributeValues: {
          ':t': true,
          ':at': at.toISOString(),
          ':id': sellerId,
          ':e': LOGIN_ENTITY,
          ':v': 1,
        },
      });
    },

    async discard(sellerId) {
      await table.transact([
        { Delete: { Key: keys.seller(sellerId) } },
        { Delete: { Key: keys.sellerLogin(sellerId) } },
      ]);
    },
  };
}
