import { ValidationError } from '#shared/errors';
import { TABLE } from './table-definition';

/**
 * Page cursors are the store's LastEvaluatedKey, base64url JSON. A client can send any text back,
 * and DynamoDB answers a start key that is not a key of the queried index, or lies outside the
 * query's partition or sort-key range, with a ValidationException (a 500). So a cursor is only
 * turned back into a start key after it is shown to be a key the same query could have returned:
 * exactly the key attributes of the queried index, all strings, the query's partition value and a
 * sort key inside the query's sort-key condition. No secret is needed: a cursor that passes
 * names a position inside the caller's own partition, which is what a genuine cursor names too.
 */
export const INVALID_CURSOR = 'cursor is not valid';

type Item = Record<string, unknown>;

const KEY_ATTRIBUTES = new Set<string>([
  TABLE.partitionKey,
  TABLE.sortKey,
  ...Object.values(TABLE.indexes).flatMap((i) => [i.partitionKey, i.sortKey]),
]);

/** The parts of a Query a cursor is checked against. */
export interface CursorQuery {
  IndexName?: string;
  KeyConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Item;
}

type Operator = '=' | '<' | '<=' | '>' | '>=' | 'between' | 'begins_with';
interface Condition {
  attribute: string;
  operator: Operator;
  values: unknown[];
}

export function encodeCursor(key: Item | undefined): string | undefined {
  return key ? Buffer.from(JSON.stringify(key)).toString('base64url') : undefined;
}

/**
 * The start key a cursor names, or a 400 `cursor is not valid`. With the query it continues, the
 * key must belong to that query (see above); without one, it must at least be a primary key.
 */
export function decodeCursor(cursor: string | undefined, query?: CursorQuery): Item | undefined {
  if (!cursor) return undefined;
  const key = parse(cursor);
  if (!key || !(query ? belongsTo(key, query) : isPrimaryKey(key))) {
    throw new ValidationError([INVALID_CURSOR]);
  }
  return key;
}

function parse(cursor: string): Item | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(cursor)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    const entries = Object.entries(value);
    const wellFormed = entries.every(([k, v]) => KEY_ATTRIBUTES.has(k) && typeof v === 'string');
    return wellFormed ? (value as Item) : null;
  } catch {
    return null;
  }
}

function isPrimaryKey(key: Item): boolean {
  return TABLE.partitionKey in key && TABLE.sortKey in key;
}

function belongsTo(key: Item, query: CursorQuery): boolean {
  const index = query.IndexName
    ? Object.values(TABLE.indexes).find((i) => i.name === query.IndexName)
    : undefined;
  if (query.IndexName && !index) return false;
  // A start key on an index carries the index's key and the table's key of the item.
  const partition = index?.partitionKey ?? TABLE.partitionKey;
  const sort = index?.sortKey ?? TABLE.sortKey;
  const expected = new Set<string>([TABLE.partitionKey, TABLE.sortKey, partition, sort]);
  const names = Object.keys(key);
  if (names.length !== expected.size || !names.every((n) => expected.has(n))) return false;
  const conditions = keyConditions(query);
  if (!conditions) return false;
  const onPartition = conditions.find((c) => c.attribute === partition && c.operator === '=');
  if (!onPartition) return false;
  // A placeholder without a value: DynamoDB refuses the query itself, whatever the cursor.
  const checkable = (c: Condition) => c.values.every((v) => v !== undefined);
  if (checkable(onPartition) && key[partition] !== onPartition.values[0]) return false;
  return conditions
    .filter((c) => c.attribute === sort && checkable(c))
    .every((c) => satisfies(key[sort] as string, c.operator, c.values));
}

const NAME = String.raw`(#\w+|[A-Za-z_]\w*)`;
const VALUE = String.raw`(:\w+)`;
const COMPARISON = new RegExp(String.raw`^${NAME}\s*(=|<=|<|>=|>)\s*${VALUE}$`);
const BETWEEN = new RegExp(String.raw`^${NAME}\s+BETWEEN\s+${VALUE}\s+AND\s+${VALUE}$`, 'i');
const BEGINS_WITH = new RegExp(String.raw`^begins_with\s*\(\s*${NAME}\s*,\s*${VALUE}\s*\)$`, 'i');

/**
 * The conditions of a KeyConditionExpression (the grammar DynamoDB accepts: one equality on the
 * partition key, optionally AND one comparison, BETWEEN or begins_with on the sort key), with
 * placeholders resolved; null when the expression is not of that form (the cursor is then refused).
 */
export function keyConditions(query: CursorQuery): Condition[] | null {
  const expression = unwrap(query.KeyConditionExpression ?? '');
  if (!expression) return null;
  const names = query.ExpressionAttributeNames ?? {};
  const values = query.ExpressionAttributeValues ?? {};
  const attribute = (name: string) => (name.startsWith('#') ? names[name] : name);
  const value = (placeholder: string) => values[placeholder];
  // Split on AND, then glue back the AND inside a BETWEEN.
  const pieces = expression.split(/\s+AND\s+/i);
  const parts: string[] = [];
  for (const piece of pieces) {
    const last = parts.at(-1);
    if (last !== undefined && /\sBETWEEN\s+:\w+$/i.test(last))
      parts[parts.length - 1] = `${last} AND ${piece}`;
    else parts.push(piece);
  }
  if (parts.length === 0 || parts.length > 2) return null;
  const conditions: Condition[] = [];
  for (const part of parts.map(unwrap)) {
    let m = COMPARISON.exec(part);
    if (m) {
      conditions.push({ attribute: attribute(m[1]), operator: m[2] as Operator, values: [value(m[3])] });
      continue;
    }
    m = BETWEEN.exec(part);
    if (m) {
      conditions.push({
        attribute: attribute(m[1]),
        operator: 'between',
        values: [value(m[2]), value(m[3])],
      });
      continue;
    }
    m = BEGINS_WITH.exec(part);
    if (m) {
      conditions.push({ attribute: attribute(m[1]), operator: 'begins_with', values: [value(m[2])] });
      continue;
    }
    return null;
  }
  // Key attributes are all strings (table-definition.ts): any other value cannot be checked.
  const unreadable = (v: unknown) => v !== undefined && typeof v !== 'string';
  if (conditions.some((c) => c.attribute === undefined || c.values.some(unreadable))) return null;
  return conditions;
}

/** `text` without whitespace and without parentheses that enclose all of it. */
function unwrap(text: string): string {
  let inner = text.trim();
  while (inner.startsWith('(') && inner.endsWith(')')) {
    let depth = 0;
    for (let i = 0; i < inner.length - 1; i++) {
      if (inner[i] === '(') depth++;
      if (inner[i] === ')') depth--;
      if (depth === 0) return inner;
    }
    inner = inner.slice(1, -1).trim();
  }
  return inner;
}

/** DynamoDB orders string keys by their UTF-8 bytes (not by UTF-16 code units as `<` does). */
function compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function satisfies(sortValue: string, operator: Operator, values: unknown[]): boolean {
  const [first, second] = values as string[];
  switch (operator) {
    case '=':
      return sortValue === first;
    case '<':
      return compare(sortValue, first) < 0;
    case '<=':
      return compare(sortValue, first) <= 0;
    case '>':
      return compare(sortValue, first) > 0;
    case '>=':
      return compare(sortValue, first) >= 0;
    case 'between':
      return compare(sortValue, first) >= 0 && compare(sortValue, second) <= 0;
    case 'begins_with':
      return sortValue.startsWith(first);
  }
}

/** The key DynamoDB would give as LastEvaluatedKey after `item` in a query of `indexName` (or the table). */
export function startKeyOf(item: Item, indexName?: string): Item {
  const key: Item = { [TABLE.partitionKey]: item[TABLE.partitionKey], [TABLE.sortKey]: item[TABLE.sortKey] };
  const index = Object.values(TABLE.indexes).find((i) => i.name === indexName);
  if (index) {
    key[index.partitionKey] = item[index.partitionKey];
    key[index.sortKey] = item[index.sortKey];
  }
  return key;
}
