import type { QueryCommandInput, ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionFailedError, type Item, patchExpression, type Table } from '../table';
import { TABLE } from '../table-definition';

/**
 * What a migration pages through. `scan` visits every item of the table (filtered), in
 * `segments` parallel segments: for an entity that no index lists whole. `query` reads one key
 * range (an index partition that lists the entity): preferred wherever one exists.
 */
export type MigrationSource =
  | {
      scan: Pick<
        ScanCommandInput,
        'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
      >;
      segments?: number;
    }
  | {
      query: Pick<
        QueryCommandInput,
        | 'IndexName'
        | 'KeyConditionExpression'
        | 'FilterExpression'
        | 'ExpressionAttributeNames'
        | 'ExpressionAttributeValues'
      >;
    };

export interface MigrationContext {
  table: Table;
  /**
   * Pages through `source` from where an earlier run of this migration stopped, calling `migrate`
   * with each page's items; the cursor is recorded after each page, so a crash re-runs at most the
   * page in flight. Call it once per migration. A page is re-run whole after a crash: `migrate`
   * must write the same result twice (conditional writes on the item's old shape).
   */
  eachPage(source: MigrationSource, migrate: (items: Item[]) => Promise<void>): Promise<void>;
}

/**
 * One change of stored shape. `id` numbers the table format the data is in once it ran (the ids
 * follow each other from BASELINE_FORMAT + 1); `run` brings every item of the old shape to the
 * new one, idempotently and without overwriting a newer write by the service.
 */
export interface Migration {
  id: number;
  name: string;
  description: string;
  run(ctx: MigrationContext): Promise<void>;
}

/**
 * Sets the attributes `item` lacks, only while it still lacks them (`missing`) and still exists:
 * an item the service rewrote since the page was read, or that its TTL removed, is left alone.
 */
export async function addAttributes(
  table: Table,
  item: Item,
  attributes: Item,
  missing: string,
): Promise<void> {
  const patch = patchExpression(attributes, 'm');
  try {
    await table.update({
      Key: { pk: item.pk, sk: item.sk },
      UpdateExpression: patch.expression,
      ConditionExpression: 'attribute_exists(#pk) AND attribute_not_exists(#missing)',
      ExpressionAttributeNames: { ...patch.names, '#pk': TABLE.partitionKey, '#missing': missing },
      ExpressionAttributeValues: patch.values,
    });
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}
