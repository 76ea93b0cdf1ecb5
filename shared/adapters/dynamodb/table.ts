import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  type PutCommandInput,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { awsRegion } from '#shared/config';
import { deadlineExceeded, pastDeadline } from '#shared/deadline';
import { ConflictError } from '#shared/errors';
import { decodeCursor, encodeCursor, startKeyOf } from './cursor';
import { type Key, keys } from './keys';
import { prefixAsRange } from './prefix-range';
import { TABLE } from './table-definition';
import { currentReadBatch, currentWrites, type ReadSender } from './unit-of-work';

export type Item = Record<string, unknown>;

/**
 * A failed condition expression as the adapter sees it. It is not an AppError and never leaves
 * shared/adapters: the repository that wrote the condition turns it into the domain's
 * ConflictError (see orConflict) or into an answer, where the failure is one.
 */
export class ConditionFailedError extends Error {
  /** Which items failed their condition (by index; a single write is index 0). */
  readonly failedIndexes: number[];
  private readonly items: ReadonlyMap<number, Item>;

  constructor(failedIndexes: number[] = [], items: ReadonlyMap<number, Item> = new Map(), cause?: unknown) {
    super('The conditional write failed', { cause });
    this.name = 'ConditionFailedError';
    this.failedIndexes = failedIndexes;
    this.items = items;
  }

  /** The item of a single write as it was, when ReturnValuesOnConditionCheckFailure asked for it. */
  get existing(): Item | undefined {
    return this.items.get(0);
  }

  /** The item of a transaction entry as it was, when that entry asked for ALL_OLD. */
  itemAt(index: number): Item | undefined {
    return this.items.get(index);
  }

  /** The failure as the `count` entries from `start` see it: their own indexes, from 0. */
  within(start: number, count: number): ConditionFailedError {
    const own = this.failedIndexes.filter((i) => i >= start && i < start + count);
    const items = new Map(
      [...this.items].filter(([i]) => own.includes(i)).map(([i, item]) => [i - start, item]),
    );
    return new ConditionFailedError(
      own.map((i) => i - start),
      items,
      this.cause,
    );
  }
}

/**
 * One repository's part of a write (Table.write): its entries, what a failed condition of them
 * means to it, and, for writes that retry when another transaction held their items, what that means.
 */
export interface WritePart {
  items: TransactItem[];
  toError(failure: ConditionFailedError): Error;
  contended?(cause: unknown): Error;
}

/** Sends of one unit of work while other transactions hold its items, before it reports the contention. */
const CONTENDED_ROUNDS = 5;

/** TransactWriteItems takes at most 100 entries; a unit of work never splits (it would not be all-or-nothing). */
export const MAX_TRANSACT_ITEMS = 100;

/** Another transaction held one of the items (TransactionConflict): not a failed condition. */
export function contended(error: unknown): boolean {
  const name = (error as Error)?.name;
  if (name === 'TransactionConflictException') return true;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] })?.CancellationReasons ?? [];
  return name === 'TransactionCanceledException' && reasons.some((r) => r.Code === 'TransactionConflict');
}

/**
 * Awaits a conditional write and turns its failed condition into the domain error `toError`
 * builds (a ConflictError with its reason, or the caller's NotFound): how a repository hands a
 * failed condition to a use case.
 */
export async function orConflict<T>(
  write: Promise<T>,
  toError: (failure: ConditionFailedError) => Error,
): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof ConditionFailedError) throw toError(error);
    throw error;
  }
}

/** For orConflict: the conflict of a create whose `attribute_not_exists` found `what` already there. */
export const alreadyExists = (what: string) => (cause: ConditionFailedError) =>
  new ConflictError(`${what} already exists`, 'already_exists', { reason: 'already_exists', cause });

interface Expressions {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Item;
}

/** One entry of a transaction; the table name is added by Table.transact. */
export type TransactItem =
  | { Put: { Item: Item } & Expressions }
  | { Update: { Key: Key; UpdateExpression: string } & Expressions }
  | { Delete: { Key: Key } & Expressions }
  | { ConditionCheck: { Key: Key; ConditionExpression: string } & Expressions };

export interface Page<T> {
  items: T[];
  cursor?: string;
  /** Items DynamoDB read before the filter expression (ScannedCount). */
  scanned?: number;
  /** Items that matched (Count): the answer of a `Select: 'COUNT'` query. */
  count?: number;
}

/** BatchGetItem takes at most 100 keys per request. */
const BATCH_GET_LIMIT = 100;
/** Requests per chunk before keys DynamoDB keeps leaving unprocessed become an error. */
const BATCH_GET_ATTEMPTS = 5;
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * SET for the fields with a value, REMOVE for the ones set to null, skipping undefined: the
 * partial-update expression every repository needs. Placeholders are `#<prefix>_<field>`.
 */
export function patchExpression(fields: Item, prefix = 'f') {
  const names: Record<string, string> = {};
  const values: Item = {};
  const sets: string[] = [];
  const removes: string[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    names[`#${prefix}_${field}`] = field;
    if (value === null) removes.push(`#${prefix}_${field}`);
    else {
      values[`:${prefix}_${field}`] = value;
      sets.push(`#${prefix}_${field} = :${prefix}_${field}`);
    }
  }
  const expression = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return { expression, names, values };
}

// Cursor encoding and validation live in ./cursor; re-exported for the repositories that build cursors.
export { decodeCursor, encodeCursor };

export interface TableOptions {
  tableName: string;
  endpoint?: string;
  region?: string;
  /** Extra client settings (credentials for DynamoDB Local, request timeouts). */
  client?: DynamoDBClient;
}

/** Sockets of the local runtime's one DynamoDB client (DynamoDB Local on loopback). */
const LOCAL_MAX_SOCKETS = 256;

/**
 * The SDK's logger middleware builds a redacted copy of every command's input and output for its
 * logger, even when there is no logger (the default): about 2.5% of the CPU of a webhook delivery
 * or an API request, and its garbage, for nothing. No client of the service is given a logger, so
 * the middleware goes.
 */
export function withoutSdkLogging<T extends { middlewareStack: { remove(name: string): boolean } }>(
  client: T,
): T {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}

export function createDynamoClient(options: { endpoint?: string; region?: string }): DynamoDBClient {
  const client = new DynamoDBClient({
    region: options.region ?? awsRegion(),
    endpoint: options.endpoint,
    ...(options.endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    // A dead endpoint must fail fast: the health check answers 503 within seconds, never hangs.
    // The connection timeout also runs while a request waits for a free socket; a local endpoint's
    // one client serves every function of the runtime (on AWS each container has its own), so it
    // gets the sockets of many containers instead of the SDK's 50.
    requestHandler: {
      connectionTimeout: 1_000,
      requestTimeout: 3_000,
      ...(options.endpoint ? { httpAgent: { keepAlive: true, maxSockets: LOCAL_MAX_SOCKETS } } : {}),
    },
    maxAttempts: 2,
  });
  withRequestDeadline(client);
  return withoutSdkLogging(client);
}

/**
 * No call starts past the running request's deadline (shared/deadline.ts): it would end after API
 * Gateway gave up on the request. The request answers 503 with Retry-After instead; a call already
 * sent runs to its end (a write's outcome is never left unknown by us).
 */
export function withRequestDeadline<T extends { middlewareStack: DynamoDBClient['middlewareStack'] }>(
  client: T,
): T {
  client.middlewareStack.add(
    (next) => async (args) => {
      if (pastDeadline()) throw deadlineExceeded();
      return next(args);
    },
    { step: 'initialize', name: 'requestDeadline' },
  );
  return client;
}

/**
 * The thin layer every repository uses: one Document client, conditional writes, transactions,
 * cursor pages and atomic counters. Only code under shared/adapters/dynamodb touches it.
 */
export class Table {
  readonly name: string;
  readonly client: DynamoDBClient;
  readonly doc: DynamoDBDocumentClient;

  constructor(options: TableOptions) {
    this.name = options.tableName;
    this.client = options.client ?? createDynamoClient(options);
    this.doc = DynamoDBDocumentClient.from(this.client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }

  async get<T = Item>(
    key: Key,
    options: { consistent?: boolean; signal?: AbortSignal } = {},
  ): Promise<T | undefined> {
    // Inside a unit of work, reads started together go as one BatchGetItem (./unit-of-work).
    const batch = options.signal ? undefined : currentReadBatch();
    if (batch) return (await batch.read(this, [key], options.consistent ?? false, this.sendReads))[0] as T;
    return this.getOne<T>(key, options);
  }

  /** What a unit of work's read batch sends: GetItem for one key, BatchGetItem for more. */
  private readonly sendReads: ReadSender = async (keys, consistent) => {
    if (keys.length > 1) return this.getMany(keys, { consistent });
    const item = await this.getOne(keys[0], { consistent });
    return item ? [item] : [];
  };

  private async getOne<T = Item>(
    key: Key,
    options: { consistent?: boolean; signal?: AbortSignal },
  ): Promise<T | undefined> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.name, Key: key, ConsistentRead: options.consistent }),
      { abortSignal: options.signal },
    );
    return out.Item as T | undefined;
  }

  /**
   * The items of any number of keys (BatchGetItem, 100 keys a request), in no particular order:
   * callers match them by key. Keys DynamoDB leaves unprocessed (throttling, the 16 MB answer cap)
   * are asked again after a jittered pause, at most BATCH_GET_ATTEMPTS requests per 100 keys.
   */
  async batchGet<T = Item>(keys: Key[], options: { consistent?: boolean } = {}): Promise<T[]> {
    const batch = keys.length > 0 ? currentReadBatch() : undefined;
    if (batch) return (await batch.read(this, keys, options.consistent ?? false, this.sendReads)) as T[];
    return this.getMany<T>(keys, options);
  }

  private async getMany<T = Item>(keys: Key[], options: { consistent?: boolean }): Promise<T[]> {
    // A request naming one key twice is refused whole.
    const unique = [...new Map(keys.map((k) => [`${k.pk}\u0000${k.sk}`, k])).values()];
    const found: T[] = [];
    for (let i = 0; i < unique.length; i += BATCH_GET_LIMIT) {
      let pending: Key[] = unique.slice(i, i + BATCH_GET_LIMIT);
      for (let attempt = 1; pending.length > 0; attempt++) {
        if (attempt > BATCH_GET_ATTEMPTS) {
          throw new Error(
            `BatchGetItem left ${pending.length} keys unprocessed after ${BATCH_GET_ATTEMPTS} requests`,
          );
        }
        if (attempt > 1) await pause(Math.random() * 25 * 2 ** attempt);
        const out = await this.doc.send(
          new BatchGetCommand({
            RequestItems: { [this.name]: { Keys: pending, ConsistentRead: options.consistent } },
          }),
        );
        found.push(...((out.Responses?.[this.name] ?? []) as T[]));
        pending = (out.UnprocessedKeys?.[this.name]?.Keys ?? []) as Key[];
      }
    }
    return found;
  }

  async put(item: Item, options: Omit<PutCommandInput, 'TableName' | 'Item'> = {}): Promise<void> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.name,
          Item: item,
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          ...options,
        }),
      );
    } catch (error) {
      throw translate(error);
    }
  }

  async update<T = Item>(input: Omit<UpdateCommandInput, 'TableName'>): Promise<T | undefined> {
    try {
      const out = await this.doc.send(
        new UpdateCommand({ TableName: this.name, ReturnValuesOnConditionCheckFailure: 'ALL_OLD', ...input }),
      );
      return out.Attributes as T | undefined;
    } catch (error) {
      throw translate(error);
    }
  }

  async delete(
    key: Key,
    options: { condition?: string; names?: Record<string, string>; values?: Item } = {},
  ) {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.name,
          Key: key,
          ConditionExpression: options.condition,
          ExpressionAttributeNames: options.names,
          ExpressionAttributeValues: options.values,
        }),
      );
    } catch (error) {
      throw translate(error);
    }
  }

  /**
   * Deletes the item if it is there (one conditional DeleteItem) and answers whether it was.
   * With `missing`, an absent item throws that error instead (the caller's NotFound).
   */
  async deleteIfExists(key: Key, missing?: () => Error): Promise<boolean> {
    try {
      await this.delete(key, { condition: 'attribute_exists(#pk)', names: { '#pk': TABLE.partitionKey } });
      return true;
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      if (missing) throw missing();
      return false;
    }
  }

  /**
   * A repository's all-or-nothing write. Outside `atomically` it is sent now, as one
   * TransactWriteItems; inside, it is staged and sent with the unit of work's other writes when the
   * work returns (unit-of-work.ts). Either way a failed condition of these entries throws
   * `part.toError(failure)` with the failure as these entries alone see it (their own indexes), so
   * the repository that wrote the condition names the domain's error.
   */
  async write(part: WritePart): Promise<void> {
    const staged = currentWrites<WritePart>();
    if (staged) staged.stage(this, part, (parts) => this.commit(parts));
    else await this.commit([part]);
  }

  /**
   * The parts as one TransactWriteItems; a failure is the first failing part's to name. A
   * transaction cancelled because another one held an item (a shared counter) wrote nothing and
   * is sent again, the same items, a few times with jitter before it is the parts' `contended`.
   */
  private async commit(parts: WritePart[]): Promise<void> {
    const items = parts.flatMap((p) => p.items);
    if (items.length === 0) return;
    if (items.length > MAX_TRANSACT_ITEMS)
      throw new Error(
        `one unit of work writes at most ${MAX_TRANSACT_ITEMS} items (this one: ${items.length})`,
      );
    try {
      for (let round = 1; ; round++) {
        try {
          await (items.length === 1 ? this.writeOne(items[0]) : this.transact(items));
          return;
        } catch (error) {
          if (!contended(error) || round >= CONTENDED_ROUNDS) throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** round));
        }
      }
    } catch (error) {
      if (error instanceof ConditionFailedError) {
        let start = 0;
        for (const part of parts) {
          const own = error.within(start, part.items.length);
          if (own.failedIndexes.length > 0) throw part.toError(own);
          start += part.items.length;
        }
      }
      const contention = contended(error) ? parts.find((p) => p.contended) : undefined;
      throw contention?.contended ? contention.contended(error) : error;
    }
  }

  /** A lone entry as its own command (PutItem, UpdateItem, DeleteItem): half a transaction's write cost. */
  private async writeOne(entry: TransactItem): Promise<void> {
    if ('Put' in entry) {
      const { Item: item, ...rest } = entry.Put;
      return this.put(item, rest);
    }
    if ('Update' in entry) {
      await this.update(entry.Update);
      return;
    }
    if ('Delete' in entry) {
      try {
        await this.doc.send(new DeleteCommand({ TableName: this.name, ...entry.Delete }));
        return;
      } catch (error) {
        throw translate(error);
      }
    }
    return this.transact([entry]);
  }

  /** All-or-nothing write of up to 100 items; a failed condition names the failing items. */
  async transact(items: TransactItem[]): Promise<void> {
    const withTable = items.map((entry) => {
      const [kind, body] = Object.entries(entry)[0] as [string, Record<string, unknown>];
      return { [kind]: { TableName: this.name, ...body } };
    });
    try {
      await this.doc.send(new TransactWriteCommand({ TransactItems: withTable as never }));
    } catch (error) {
      throw translate(error);
    }
  }

  async query<T = Item>(
    input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'> & { cursor?: string },
  ): Promise<Page<T>> {
    const { cursor, ...rest } = input;
    // The cursor must name a key this very query could have returned (./cursor), else 400.
    const start = decodeCursor(cursor, rest);
    const { query, excluded } = prefixAsRange(rest);
    const out = await this.doc.send(
      new QueryCommand({ TableName: this.name, ...query, ExclusiveStartKey: start }),
    );
    const items = excluded
      ? (out.Items ?? []).filter((i) => i[excluded.attribute] !== excluded.value)
      : (out.Items ?? []);
    return {
      items: items as T[],
      cursor: encodeCursor(out.LastEvaluatedKey),
      scanned: out.ScannedCount,
      count: out.Count,
    };
  }

  /**
   * A page of at most `limit` items whose cursor is absent on the last page: it reads one item
   * more than it shows, so a page that is exactly full does not promise a page that is empty.
   * (With a FilterExpression, DynamoDB may still stop early and give a cursor; that page is then
   * followed by a shorter one.)
   */
  async queryPage<T = Item>(
    input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'> & { cursor?: string },
    limit: number,
  ): Promise<Page<T>> {
    const page = await this.query<Item>({ ...input, Limit: limit + 1 });
    if (page.items.length <= limit) return page as Page<T>;
    const items = page.items.slice(0, limit);
    return {
      items: items as T[],
      cursor: encodeCursor(startKeyOf(items[limit - 1], input.IndexName)),
      scanned: page.scanned,
    };
  }

  private readonly blocks = new Map<string, IdBlocks>();

  /** Ahead-of-time id claims this table has started (the bench counts their round trips apart). */
  aheadClaims = 0;

  /**
   * The next value of a named counter: one atomic UpdateItem, so two callers never get the same id.
   * With `block` > 1 the container reserves that many ids at once (hi/lo) and hands them out from
   * memory, so most creations spend no round trip on their id; ids stay unique and increasing per
   * container, with gaps across containers. The next block is claimed in the background once half
   * of the current one is used (issue 17): a creation waits for a claim only when the container has
   * no ids at all (its first) or used half a block faster than one UpdateItem came back.
   */
  async nextId(counter: string, options: { block?: number } = {}): Promise<number> {
    const block = options.block ?? 1;
    if (block === 1) return (await this.claimIds(counter, 1)).next;
    let state = this.blocks.get(counter);
    if (!state) {
      state = { current: null, spare: null, claiming: null };
      this.blocks.set(counter, state);
    }
    for (;;) {
      if (!state.current || state.current.next > state.current.last) {
        state.current = state.spare;
        state.spare = null;
      }
      const current = state.current;
      if (current && current.next <= current.last) {
        const id = current.next++;
        if (!state.spare && !state.claiming && current.last - id < block / 2) {
          this.aheadClaims += 1;
          this.claimInto(state, counter, block).catch(() => {
            // A failed claim ahead only means the next creation claims for itself.
          });
        }
        return id;
      }
      await (state.claiming ?? this.claimInto(state, counter, block));
    }
  }

  /** Claims a block into `state.spare`; concurrent callers share the one claim in flight. */
  private claimInto(state: IdBlocks, counter: string, block: number): Promise<void> {
    const claim = this.claimIds(counter, block)
      .then((claimed) => {
        state.spare = claimed;
      })
      .finally(() => {
        state.claiming = null;
      });
    state.claiming = claim;
    return claim;
  }

  /** One atomic `ADD block`: the ids after the counter's previous value are this caller's alone. */
  private async claimIds(counter: string, block: number): Promise<IdBlock> {
    const out = await this.doc.send(
      new UpdateCommand({
        TableName: this.name,
        Key: keys.counter(counter),
        UpdateExpression: 'ADD #v :n SET #e = :e, #ver = :ver',
        ExpressionAttributeNames: { '#v': 'value', '#e': 'entity', '#ver': 'version' },
        ExpressionAttributeValues: { ':n': block, ':e': 'id-counter', ':ver': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const last = Number(out.Attributes?.value);
    return { next: last - block + 1, last };
  }
}

/** Ids reserved by one claim: `next` to `last`, handed out in order. */
interface IdBlock {
  next: number;
  last: number;
}

/** A counter's blocks in this container: the one in use, the one claimed ahead, a claim in flight. */
interface IdBlocks {
  current: IdBlock | null;
  spare: IdBlock | null;
  claiming: Promise<void> | null;
}

/** The SDK's condition failures as ConditionFailedError (old items unmarshalled); anything else unchanged. */
function translate(error: unknown): unknown {
  if (error instanceof ConditionalCheckFailedException) {
    const old = (error as { Item?: Record<string, never> }).Item;
    return new ConditionFailedError([0], new Map(old ? [[0, unmarshall(old)]] : []), error);
  }
  if (error instanceof TransactionCanceledException) {
    const reasons = error.CancellationReasons ?? [];
    const failed = reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
    const items = new Map<number, Item>();
    for (const i of failed) {
      const old = reasons[i].Item;
      if (old) items.set(i, unmarshall(old));
    }
    if (failed.length > 0) return new ConditionFailedError(failed, items, error);
  }
  return error;
}

export { TABLE };
