import { keys } from '../keys';
import { defineEntity } from './entity';

/** The format the table's data is at: the id of the last migration applied to it. */
export interface DataFormat {
  format: number;
  updatedAt: string;
}

/**
 * The table's one data format record (`MIGRATION` / `FORMAT`): stamped on an empty table, moved by
 * an update only from the format a runner read (another runner may have moved it).
 */
export const migrationFormatEntity = defineEntity({
  entity: 'migration-format',
  version: 1,
  key: (_: DataFormat) => keys.migrationFormat(),
  patterns: {},
  attributes: (f) => ({ format: f.format, updatedAt: f.updatedAt }),
  fromItem: (item): DataFormat => ({ format: Number(item.format), updatedAt: String(item.updatedAt) }),
});
