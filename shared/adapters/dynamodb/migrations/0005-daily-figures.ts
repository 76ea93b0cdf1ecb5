import { figureCellsOf } from '#shared/domain/dashboard/figures';
import { figureUpdates } from '../daily-figures';
import { IN_DAILY_FIGURES, transactionEntity } from '../entities/transaction';
import { ConditionFailedError, type Table } from '../table';
import { TABLE } from '../table-definition';
import type { Migration } from './migration';

/**
 * The sellers' daily figures count every transaction stored before they existed: each one's cells
 * are added, and the transaction marked, in one TransactWriteItems on the condition that it is
 * still unmarked and at the version read. A transaction the service wrote meanwhile is marked
 * already (its write added all of it), so the condition fails and it is skipped: nothing is counted
 * twice, and a page run again after a crash adds nothing. No index lists every transaction, so a
 * filtered Scan finds them.
 */
export const dailyFigures: Migration = {
  id: 5,
  name: 'daily-figures',
  description: "Transactions stored before the sellers' daily figures are added to them",
  async run(ctx) {
    await ctx.eachPage(
      {
        scan: {
          FilterExpression: '#entity = :transaction AND attribute_not_exists(#marker)',
          ExpressionAttributeNames: { '#entity': 'entity', '#marker': IN_DAILY_FIGURES },
          ExpressionAttributeValues: { ':transaction': transactionEntity.entity },
        },
        segments: 4,
      },
      async (items) => {
        for (const item of items) await countOnce(ctx.table, item);
      },
    );
  },
};

/**
 * Counts one transaction, unless it is marked. A write of the code this deployment replaces changes
 * the version without marking: the transaction is read again and counted as it stands then.
 */
async function countOnce(table: Table, item: Record<string, unknown>, attempt = 1): Promise<void> {
  const t = transactionEntity.fromItem(item);
  try {
    await table.transact([
      {
        Update: {
          Key: { pk: String(item.pk), sk: String(item.sk) },
          UpdateExpression: 'SET #marker = :true',
          ConditionExpression: 'attribute_exists(#pk) AND attribute_not_exists(#marker) AND #ver = :ver',
          ExpressionAttributeNames: {
            '#marker': IN_DAILY_FIGURES,
            '#pk': TABLE.partitionKey,
            '#ver': 'version',
          },
          ExpressionAttributeValues: { ':true': true, ':ver': t.version },
        },
      },
      ...figureUpdates(t.tenant, t.id, figureCellsOf(t)),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    const now = await table.get<Record<string, unknown>>(
      { pk: String(item.pk), sk: String(item.sk) },
      { consistent: true },
    );
    if (!now || now[IN_DAILY_FIGURES]) return;
    if (attempt >= 5) throw new Error(`transaction ${String(item.sk)} kept changing while it was counted`);
    await countOnce(table, now, attempt + 1);
  }
}
