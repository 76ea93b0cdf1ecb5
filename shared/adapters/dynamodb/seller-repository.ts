import type { SellerRepository } from '#shared/domain/ports';
import { sellerEntity } from './entities/seller';
import { keys } from './keys';
import { alreadyExists, orConflict, type Table } from './table';

/** Sellers sign in through Cognito; this is the record behind the numeric id in their token. */
export function createSellerRepository(table: Table): SellerRepository {
  return {
    async create(name, at) {
      const id = await table.nextId('seller');
      await orConflict(
        table.put(sellerEntity.toItem({ id, name, createdAt: at.toISOString() }), {
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
        alreadyExists('The seller'),
      );
      return id;
    },
    async exists(sellerId) {
      return (await table.get(keys.seller(sellerId), { consistent: true })) !== undefined;
    },
  };
}
