import { eventLogIndex } from './0003-event-log-index';
import { reconciliationIndexes } from './0004-reconciliation-indexes';
import { dailyFigures } from './0005-daily-figures';
import type { Migration } from './migration';

/**
 * The table format the data was in when formats began to be recorded (the `npm start` stamp):
 * no migration exists below it, and a table stamped with it runs every migration listed here.
 */
export const BASELINE_FORMAT = 2;

/**
 * Every migration, in the order they run; each one's id is the one before plus one. A change of
 * stored shape adds its migration at the end (docs/operations.md, "Migrations").
 */
export const MIGRATIONS: readonly Migration[] = [eventLogIndex, reconciliationIndexes, dailyFigures];

/** The format this code reads and writes: the last migration's id. */
export const LATEST_FORMAT = MIGRATIONS.at(-1)?.id ?? BASELINE_FORMAT;
