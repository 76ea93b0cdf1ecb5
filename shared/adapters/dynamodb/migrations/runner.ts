import type { Clock } from '#shared/domain/ports';
import { migrationFormatEntity } from '../entities/migration-format';
import { type Key, keys } from '../keys';
import { ConditionFailedError, type Item, type Table } from '../table';
import { BASELINE_FORMAT, MIGRATIONS } from './list';
import type { Migration } from './migration';
import { runOne } from './run-one';

/**
 * The stamp `npm start` wrote on the tables it created before formats were recorded here: read as
 * the table's format (it names BASELINE_FORMAT on every table that has it) and moved to
 * `keys.migrationFormat()` on first sight.
 */
const LOCAL_STAMP: Key = { pk: 'LOCAL#DATA_FORMAT', sk: 'LOCAL#DATA_FORMAT' };

/** Why the runner will not touch a table: its data is of a shape this code cannot tell or read. */
export class MigrationRefusedError extends Error {
  constructor(
    readonly found: number | null,
    readonly latest: number,
  ) {
    super(MigrationRefusedError.reasonOf(found, latest));
    this.name = 'MigrationRefusedError';
  }

  private static reasonOf(found: number | null, latest: number): string {
    if (found === null)
      return 'The table holds data written before its format was recorded: its shape cannot be told, so it is not read.';
    if (found > latest)
      return (
        `The table's data is of format ${found}, newer than the format ${latest} this code reads ` +
        '(a rollback behind a migration that ran): it would be misread, so it is not read.'
      );
    return `The table's data is of format ${found}, older than format ${BASELINE_FORMAT}, where migrations begin: no migration reads it.`;
  }
}

export type MigrationOutcome =
  /** The table is at the latest format: `ran` lists what this call migrated, `stamped` a fresh table. */
  | { state: 'current'; format: number; ran: number[]; stamped: boolean }
  /** The deadline came first: the cursors are saved and the lease released; run again to go on. */
  | { state: 'paused'; format: number; migration: number }
  /** Another runner holds the migration's lease until `until` (ISO); run again after it. */
  | { state: 'leased'; format: number; migration: number; owner: string; until: string };

export interface RunOptions {
  /** The lease holder's name (a process, a Lambda request id): two runners never share one. */
  owner: string;
  clock: Clock;
  /** Stop before reading a page after this instant (a Lambda's timeout). */
  deadline?: Date;
  migrations?: readonly Migration[];
  /** Items read per page (Scan and Query `Limit`). */
  pageSize?: number;
  /** How long a lease lasts without a page recorded; each page renews it. */
  leaseMs?: number;
}

/**
 * Brings the table to the latest format: a table with neither format nor data is stamped with it
 * and runs nothing; a table at an older format runs each missing migration in order, recording
 * each one's cursors after every page under a lease; one newer than the code, or holding data
 * but no format, is refused (MigrationRefusedError). Running it again changes nothing more.
 */
export async function runMigrations(table: Table, options: RunOptions): Promise<MigrationOutcome> {
  const migrations = options.migrations ?? MIGRATIONS;
  migrations.forEach((m, i) => {
    if (m.id !== BASELINE_FORMAT + 1 + i)
      throw new Error(`migration ${m.name} has id ${m.id}, not ${BASELINE_FORMAT + 1 + i}`);
  });
  const latest = migrations.at(-1)?.id ?? BASELINE_FORMAT;
  const ran: number[] = [];
  let stamped = false;
  for (;;) {
    const format = await readFormat(table, options.clock, latest);
    if (format === 'stamped') {
      stamped = true;
      continue;
    }
    if (format > latest || format < BASELINE_FORMAT) throw new MigrationRefusedError(format, latest);
    if (format === latest) return { state: 'current', format, ran, stamped };
    const next = migrations[format - BASELINE_FORMAT];
    const outcome = await runOne(table, next, options);
    if (outcome.state === 'paused') return { state: 'paused', format, migration: next.id };
    if (outcome.state === 'leased') return { ...outcome, format, migration: next.id };
    await advanceFormat(table, format, next.id, options.clock);
    ran.push(next.id);
  }
}

/**
 * The table's format in one consistent BatchGetItem: the format item, the local stamp it
 * replaced, and the seller id counter (every tenant's data hangs off a seller, whose id it
 * allocated), which tells a table with data from an empty one without a Scan. An empty table is
 * stamped with `latest` ('stamped'; read again).
 */
async function readFormat(table: Table, clock: Clock, latest: number): Promise<number | 'stamped'> {
  const sellers = keys.counter('seller');
  const found = await table.batchGet<Item>([keys.migrationFormat(), LOCAL_STAMP, sellers], {
    consistent: true,
  });
  const at = (key: Key) => found.find((i) => i.pk === key.pk && i.sk === key.sk);
  const stored = at(keys.migrationFormat());
  if (stored) return migrationFormatEntity.fromItem(stored).format;
  const stamp = at(LOCAL_STAMP);
  if (!stamp && at(sellers)) throw new MigrationRefusedError(null, latest);
  const format = stamp ? Number(stamp.format) : latest;
  const item = migrationFormatEntity.toItem({ format, updatedAt: clock.now().toISOString() });
  try {
    await table.transact([
      { Put: { Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      ...(stamp ? [{ Delete: { Key: LOCAL_STAMP } }] : []),
    ]);
  } catch (error) {
    // Another runner recorded it first: read what it wrote.
    if (!(error instanceof ConditionFailedError)) throw error;
  }
  return 'stamped';
}

/** Records that the data is at `to`, only if it was at `from` (another runner may have moved it). */
async function advanceFormat(table: Table, from: number, to: number, clock: Clock): Promise<void> {
  try {
    await table.update({
      Key: keys.migrationFormat(),
      UpdateExpression: 'SET #format = :to, #updated = :now',
      ConditionExpression: '#format = :from',
      ExpressionAttributeNames: { '#format': 'format', '#updated': 'updatedAt' },
      ExpressionAttributeValues: { ':to': to, ':from': from, ':now': clock.now().toISOString() },
    });
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}
