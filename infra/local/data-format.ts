import { hostname } from 'node:os';
import { LATEST_FORMAT } from '#shared/adapters/dynamodb/migrations/list';
import { MigrationRefusedError, runMigrations } from '#shared/adapters/dynamodb/migrations/runner';
import { Table } from '#shared/adapters/dynamodb/table';
import { WallClock } from './clock';

export class LocalDataFormatError extends Error {
  constructor(refusal: MigrationRefusedError, dataDir: string) {
    const what =
      refusal.found === null
        ? 'data written before its format was recorded'
        : `data of format ${refusal.found}`;
    super(
      `The local data folder ${dataDir} holds ${what}; this code reads format ${LATEST_FORMAT} and migrates ` +
        'only recorded formats it knows. Stop the service, delete ' +
        `${dataDir} (or start with LOCAL_DATA_DIR naming another folder), and run npm start again.`,
      { cause: refusal },
    );
    this.name = 'LocalDataFormatError';
  }
}

/**
 * Brings a kept table to the code's format before anything serves (runMigrations: an empty table
 * is stamped, an older format migrated, a newer or unrecorded one refused with LocalDataFormatError
 * naming `dataDir`). A lease left by a start that died mid-migration is waited out, then taken over
 * from its cursor.
 */
export async function migrateLocalData(endpoint: string, tableName: string, dataDir: string): Promise<void> {
  const table = new Table({ tableName, endpoint, region: 'local' });
  const owner = `npm-start:${hostname()}:${process.pid}`;
  try {
    for (;;) {
      const outcome = await runMigrations(table, { owner, clock: new WallClock() });
      if (outcome.state === 'current') return;
      if (outcome.state === 'leased') {
        process.stderr.write(
          `Migration ${outcome.migration} is held by ${outcome.owner} until ${outcome.until}; waiting for it.\n`,
        );
        await new Promise((resolve) =>
          setTimeout(resolve, Math.max(100, Date.parse(outcome.until) - Date.now())),
        );
      }
    }
  } catch (error) {
    if (error instanceof MigrationRefusedError) throw new LocalDataFormatError(error, dataDir);
    throw error;
  } finally {
    table.client.destroy();
  }
}
