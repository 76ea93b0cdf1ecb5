import type { ReconciliationRepository } from '#shared/domain/ports/reconciliations';
import { parseReconciliationId } from '#shared/domain/reconciliation/reconciliation';
import { reconciliationEntity } from './entities/reconciliation';
import { keys } from './keys';
import { ConditionFailedError, type Item, type Table } from './table';

/** Reconciliation records under their tenant: the key carries the day, so a list is newest first. */
export function createReconciliationRepository(table: Table): ReconciliationRepository {
  return {
    async create(r) {
      try {
        await table.put(reconciliationEntity.toItem(r), { ConditionExpression: 'attribute_not_exists(pk)' });
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },
    async get(tenant, id) {
      const parsed = parseReconciliationId(id);
      if (!parsed) return null;
      const item = await table.get<Item>(keys.reconciliation(tenant, parsed.day, id), { consistent: true });
      return item ? reconciliationEntity.fromItem(item) : null;
    },
    async list(tenant, page) {
      const out = await table.queryPage<Item>(
        {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.tenant(tenant), ':prefix': keys.reconciliationPrefix },
          ScanIndexForward: false,
          cursor: page.cursor,
        },
        page.limit,
      );
      return { items: out.items.map(reconciliationEntity.fromItem), cursor: out.cursor };
    },
  };
}
