import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '#shared/logger';
import { keys } from '../keys';
import { ConditionFailedError, type Item, type Table } from '../table';
import type { Migration, MigrationContext, MigrationSource } from './migration';
import type { RunOptions } from './runner';

const RUN_ENTITY = 'migration';
/** A segment's cursor once it has read its last page. */
const DONE = 'done';
const PAGE_SIZE = 100;
const LEASE_MS = 60_000;
const log = logger.child({ component: 'migrations' });

class Paused extends Error {}
class LeaseLost extends Error {
  constructor(readonly holder: Item | undefined) {
    super('the migration lease went to another runner');
  }
}

export type RunResult =
  | { state: 'done' }
  | { state: 'paused' }
  | { state: 'leased'; owner: string; until: string };

const leasedBy = (holder: Item | undefined): RunResult => ({
  state: 'leased',
  owner: String(holder?.leaseOwner ?? 'unknown'),
  until: new Date(Number(holder?.leaseUntil ?? 0)).toISOString(),
});

/** One migration under its lease, from its recorded cursors to its end, the deadline or a lost lease. */
export async function runOne(table: Table, migration: Migration, options: RunOptions): Promise<RunResult> {
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
