import type { SellerAccountRepository } from '#shared/domain/ports';
import { sellerEntity, sellerLoginEntity } from './entities/seller';
import { keys } from './keys';
import type { Item, Table } from './table';

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
            Item: sellerEntity.toItem({ id, name: input.businessName, createdAt }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            Item: sellerLoginEntity.toItem({
              sellerId: id,
              email: input.email,
              document: input.document,
              createdAt,
            }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ]);
      return id;
    },

    async login(sellerId) {
      const item = await table.get<Item>(keys.sellerLogin(sellerId), { consistent: true });
      return item ? sellerLoginEntity.fromItem(item) : null;
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
          ':e': sellerLoginEntity.entity,
          ':v': sellerLoginEntity.version,
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
