import { providerConnectionEntity } from '../entities/provider-connection';
import { sandboxChargeEntity } from '../entities/sandbox-charge';
import { addAttributes, type Migration } from './migration';

const CONNECTION = providerConnectionEntity.entity;
const SANDBOX_CHARGE = sandboxChargeEntity.entity;
const INDEX_PK = providerConnectionEntity.patterns.byProvider.partitionKey;

/**
 * The daily reconciliation lists the sellers connected to a provider (provider connections) and
 * the sandbox lists a seller's charges of a day (its charge records), each through index
 * attributes on the item. Items written before have none: they get them here, from fields that
 * never change (seller, provider; a charge's seller and creation time). No index lists the old
 * items, so a filtered Scan finds them.
 */
export const reconciliationIndexes: Migration = {
  id: 4,
  name: 'reconciliation-indexes',
  description:
    'Provider connections and sandbox charge records written before the daily reconciliation get its index attributes',
  async run(ctx) {
    await ctx.eachPage(
      {
        scan: {
          FilterExpression: '#entity IN (:connection, :charge) AND attribute_not_exists(#indexPk)',
          ExpressionAttributeNames: { '#entity': 'entity', '#indexPk': INDEX_PK },
          ExpressionAttributeValues: { ':connection': CONNECTION, ':charge': SANDBOX_CHARGE },
        },
        segments: 4,
      },
      async (items) => {
        for (const item of items) {
          const attributes =
            item.entity === CONNECTION
              ? providerConnectionEntity.indexAttributes(providerConnectionEntity.fromItem(item))
              : sandboxChargeEntity.indexAttributes(sandboxChargeEntity.fromItem(item));
          await addAttributes(ctx.table, item, attributes, INDEX_PK);
        }
      },
    );
  },
};
