import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
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
import { AppError } from '#shared/errors';
import { decodeCursor, encodeCursor } from './cursor';
import { type Key, keys } from './keys';
import { TABLE } from './table-definition';

/** A failed condition expression, turned into a domain error by the repository that wrote it. */
export class ConditionFailedError extends AppError {
  /** For transactions: which items failed their condition (by index), as DynamoDB reports them. */
  readonly failedIndexes: number[];
  /** The item as it was, when ReturnValuesOnConditionCheckFailure asked for it. */
  readonly existing?: Record<string, unknown>;
  constructor(failedIndexes: number[] = [], existing?: Record<string, unknown>, cause?: unknown) {
    super(409, 'condition_failed', 'The item changed or already exists', { cause });
    this.failedIndexes = failedIndexes;
    this.existing = existing;
  }
}

export type Item = Record<string, unknown>;

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
}

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

export function createDynamoClient(options: { endpoint?: string; region?: string }): DynamoDBClient {
  return new DynamoDBClient({
    region: options.region ?? process.env.AWS_REGION ?? 'sa-east-1',
    endpoint: options.endpoint,
    ...(options.endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    // A dead endpoint must fail fast: the health check answers 503 within seconds, never hangs.
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 },
    maxAttempts: 2,
  });
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
    const out = await this.doc.send(
      new GetCommand({ TableName: this.name, Key: key, ConsistentRead: options.consistent }),
      { abortSignal: options.signal },
    );
    return out.Item as T | undefined;
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
    const out = await this.doc.send(
      // The cursor must name a key this very query could have returned (./cursor), else 400.
      new QueryCommand({ TableName: this.name, ...rest, ExclusiveStartKey: decodeCursor(cursor, rest) }),
    );
    return {
      items: (out.Items ?? []) as T[],
      cursor: encodeCursor(out.LastEvaluatedKey),
      scanned: out.ScannedCount,
    };
  }

  private readonly blocks = new Map<string, { next: number; last: number }>();

  /**
   * The next value of a named counter: one atomic UpdateItem, so two callers never get the same id.
   * With `block` > 1 the container reserves that many ids at once (hi/lo) and hands them out from
   * memory, so most creations spend no round trip on their id; ids stay unique and increasing per
   * container, with gaps across containers.
   */
  async nextId(counter: string, options: { block?: number } = {}): Promise<number> {
    const block = options.block ?? 1;
    const cached = this.blocks.get(counter);
    if (cached && cached.next <= cached.last) return cached.next++;
    const out = await this.doc.send(
      new UpdateCommand({
        TableName: this.name,
        Key: keys.counter(counter),
        UpdateExpression: 'ADD #v :n',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':n': block },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const last = Number(out.Attributes?.value);
    if (block > 1) this.blocks.set(counter, { next: last - block + 2, last });
    return last - block + 1;
  }
}

function translate(error: unknown): unknown {
  if (error instanceof ConditionalCheckFailedException) {
    const old = (error as { Item?: Record<string, never> }).Item;
    return new ConditionFailedError([0], old ? unmarshall(old) : undefined, error);
  }
  if (error instanceof TransactionCanceledException) {
    const reasons = error.CancellationReasons ?? [];
    const failed = reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
    if (failed.length > 0) return new ConditionFailedError(failed, undefined, error);
  }
  return error;
}

export { TABLE };
