import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '#shared/domain/ports';
import { logger } from '#shared/logger';
import { type Key, keys } from '../keys';
import { ConditionFailedError, type Item, type Table } from '../table';
import { BASELINE_FORMAT, MIGRATIONS } from './list';
import type { Migration, MigrationContext, MigrationSource } from './migration';

/**
 * The stamp `npm start` wrote on the tables it created before formats were recorded here: read as
 * the table's format (it names BASELINE_FORMAT on every table that has it) and moved to
 * `keys.migrationFormat()` on first sight.
 */
const LOCAL_STAMP: Key = { pk: 'LOCAL#DATA_FORMAT', sk: 'LOCAL#DATA_FORMAT' };
const FORMAT_ENTITY = 'migration-format';
const RUN_ENTITY = 'migration';
/** A segment's cursor once it has read its last page. */
const DONE = 'done';
const log = logger.child({ component: 'migrations' });

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

const PAGE_SIZE = 100;
const LEASE_MS = 60_000;

class Paused extends Error {}
class LeaseLost extends Error {
  constructor(readonly holder: Item | undefined) {
    super('the migration lease went to another runner');
  }
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
  if (stored) return Number(stored.format);
  const stamp = at(LOCAL_STAMP);
  if (!stamp && at(sellers)) throw new MigrationRefusedError(null, latest);
  const format = stamp ? Number(stamp.format) : latest;
  const item = {
    ...keys.migrationFormat(),
    entity: FORMAT_ENTITY,
    version: 1,
    format,
    updatedAt: clock.now().toISOString(),
  };
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

type RunResult = { state: 'done' } | { state: 'paused' } | { state: 'leased'; owner: string; until: string };

const leasedBy = (holder: Item | undefined): RunResult => ({
  state: 'leased',
  owner: String(holder?.leaseOwner ?? 'unknown'),
  until: new Date(Number(holder?.leaseUntil ?? 0)).toISOString(),
});

/** One migration under its lease, from its recorded cursors to its end, the deadline or a lost lease. */
async function runOne(table: Table, migration: Migration, options: RunOptions): Promise<RunResult> {
  const { clock, owner } = options;
  const key = keys.migration(migration.id);
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const names = { '#owner': 'leaseOwner', '#until': 'leaseUntil' };
  let record: Item;
  try {
    record = (await table.update({
      Key: key,
      UpdateExpression:
        'SET #owner = :me, #until = :until, entity = :entity, #version = :version, #name = :name, ' +
        '#cursors = if_not_exists(#cursors, :none), #status = if_not_exists(#status, :running), ' +
        '#started = if_not_exists(#started, :now)',
      ConditionExpression: 'attribute_not_exists(#until) OR #until < :nowMs OR #owner = :me',
      ExpressionAttributeNames: {
        ...names,
        '#version': 'version',
        '#name': 'name',
        '#cursors': 'cursors',
        '#status': 'status',
        '#started': 'startedAt',
      },
      ExpressionAttributeValues: {
        ':me': owner,
        ':until': clock.now().getTime() + leaseMs,
        ':nowMs': clock.now().getTime(),
        ':entity': RUN_ENTITY,
        ':version': 1,
        ':name': migration.name,
        ':none': {},
        ':running': 'running',
        ':now': clock.now().toISOString(),
      },
      ReturnValues: 'ALL_NEW',
    })) as Item;
  } catch (error) {
    if (error instanceof ConditionFailedError) return leasedBy(error.existing);
    throw error;
  }

  /** An update of the run record that holds only while this runner has the lease. */
  const underLease = async (expression: string, extraNames: Record<string, string>, values: Item) => {
    try {
      await table.update({
        Key: key,
        UpdateExpression: expression,
        ConditionExpression: '#owner = :me',
        ExpressionAttributeNames: { ...names, ...extraNames },
        ExpressionAttributeValues: { ':me': owner, ...values },
      });
    } catch (error) {
      if (error instanceof ConditionFailedError) throw new LeaseLost(error.existing);
      throw error;
    }
  };

  if (record.status !== 'done') {
    log.info('migration running', { migration: migration.id, name: migration.name, owner });
    const cursors = (record.cursors ?? {}) as Record<string, Item | typeof DONE>;
    let pagingStarted = false;
    const ctx: MigrationContext = {
      table,
      async eachPage(source, migrate) {
        if (pagingStarted) throw new Error(`migration ${migration.name} pages more than once`);
        pagingStarted = true;
        const segments = 'scan' in source ? (source.segments ?? 1) : 1;
        const results = await Promise.allSettled(
          Array.from({ length: segments }, async (_, segment) => {
            let cursor = cursors[String(segment)];
            while (cursor !== DONE) {
              if (options.deadline && clock.now() >= options.deadline) throw new Paused();
              const page = await readPage(
                table,
                source,
                segment,
                segments,
                cursor,
                options.pageSize ?? PAGE_SIZE,
              );
              await migrate(page.items);
              cursor = page.next ?? DONE;
              await underLease(
                'SET #cursors.#segment = :cursor, #until = :until ADD #pages :one, #items :count',
                { '#cursors': 'cursors', '#segment': String(segment), '#pages': 'pages', '#items': 'items' },
                {
                  ':cursor': cursor,
                  ':until': clock.now().getTime() + leaseMs,
                  ':one': 1,
                  ':count': page.items.length,
                },
              );
            }
          }),
        );
        const failure = results.find(
          (r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof Paused),
        );
        if (failure) throw failure.reason;
        if (results.some((r) => r.status === 'rejected')) throw new Paused();
      },
    };
    try {
      await migration.run(ctx);
    } catch (error) {
      if (error instanceof LeaseLost) return leasedBy(error.holder);
      if (!(error instanceof Paused)) throw error;
      // Released at once, so the next run (the same deployment's next invocation) need not wait.
      await underLease('REMOVE #owner, #until', {}, {}).catch(() => undefined);
      log.info('migration paused at its deadline', { migration: migration.id, owner });
      return { state: 'paused' };
    }
  }
  try {
    await underLease(
      'SET #status = :done, #finished = :now REMOVE #owner, #until',
      {
        '#status': 'status',
        '#finished': 'finishedAt',
      },
      { ':done': 'done', ':now': clock.now().toISOString() },
    );
  } catch (error) {
    if (error instanceof LeaseLost) return leasedBy(error.holder);
    throw error;
  }
  log.info('migration done', { migration: migration.id, name: migration.name, owner });
  return { state: 'done' };
}

/**
 * One page of a migration's source. The Scan is the one place the service scans: a migration is a
 * one-off batch job run at deployment by a function of its own (the only one IAM lets Scan), never
 * a request or a job; it reads strongly consistent pages so no item written before it is missed.
 */
async function readPage(
  table: Table,
  source: MigrationSource,
  segment: number,
  segments: number,
  cursor: Item | undefined,
  limit: number,
): Promise<{ items: Item[]; next?: Item }> {
  const out =
    'scan' in source
      ? await table.doc.send(
          new ScanCommand({
            TableName: table.name,
            ...source.scan,
            Segment: segment,
            TotalSegments: segments,
            Limit: limit,
            ConsistentRead: true,
            ExclusiveStartKey: cursor,
          }),
        )
      : await table.doc.send(
          new QueryCommand({
            TableName: table.name,
            ...source.query,
            Limit: limit,
            ExclusiveStartKey: cursor,
          }),
        );
  return { items: (out.Items ?? []) as Item[], next: out.LastEvaluatedKey };
}
