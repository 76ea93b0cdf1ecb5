/**
 * A sort-key prefix read as a key range. `begins_with(sk, :p)` and `sk BETWEEN :p AND :end` both read
 * one key range in DynamoDB, but DynamoDB Local (the embedded default, the tests and the bench) runs
 * begins_with as a filter over the whole partition: a tenant's endpoint query cost 0.5 ms of its CPU
 * with an empty partition and 7 ms once the partition held 20,000 deliveries, while BETWEEN stayed at
 * 0.5 ms (issue 17, docs/decisions.md "Prefix queries as key ranges"). So a Query's begins_with on the
 * sort key is sent as BETWEEN the prefix and its successor (the prefix with its last character
 * incremented).
 *
 * Exact, not approximate: DynamoDB orders string keys by their UTF-8 bytes, which keeps code point
 * order, so the keys between P and successor(P), both included, are the keys that start with P plus
 * the successor itself; that one key is dropped from the answer (`excluded`).
 */
import { keyConditions } from './cursor';

type Item = Record<string, unknown>;

interface KeyQuery {
  KeyConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Item;
  Select?: string;
}

export interface PrefixRange<Q> {
  query: Q;
  /** The sort key attribute and the one value the range admits that does not start with the prefix. */
  excluded?: { attribute: string; value: string };
}

const BEGINS_WITH = /begins_with\s*\(\s*(#\w+|[A-Za-z_]\w*)\s*,\s*(:\w+)\s*\)/i;
/** The highest code point before the surrogates: above it, incrementing could leave valid text. */
const LAST_SIMPLE_CODE_POINT = 0xd7fe;

/** `prefix` with its last character incremented; null past U+D7FE (the query then keeps begins_with). */
export function successorOf(prefix: string): string | null {
  const points = [...prefix];
  const last = points.pop();
  const code = last?.codePointAt(0);
  if (code === undefined || code > LAST_SIMPLE_CODE_POINT) return null;
  return points.join('') + String.fromCodePoint(code + 1);
}

/**
 * The query with a sort-key begins_with sent as BETWEEN; any other query as it is. A count
 * (`Select: 'COUNT'`) keeps begins_with: its answer has no items to drop the successor from.
 */
export function prefixAsRange<Q extends KeyQuery>(query: Q): PrefixRange<Q> {
  const expression = query.KeyConditionExpression;
  const match = expression && query.Select !== 'COUNT' ? BEGINS_WITH.exec(expression) : null;
  if (!expression || !match) return { query };
  const conditions = keyConditions(query);
  const onPrefix = conditions?.find((c) => c.operator === 'begins_with');
  const prefix = onPrefix?.values[0];
  if (!onPrefix || typeof prefix !== 'string') return { query };
  const end = successorOf(prefix);
  if (end === null) return { query };
  const [, name, placeholder] = match;
  const endPlaceholder = `${placeholder}RangeEnd`;
  return {
    query: {
      ...query,
      KeyConditionExpression: expression.replace(
        match[0],
        `${name} BETWEEN ${placeholder} AND ${endPlaceholder}`,
      ),
      ExpressionAttributeValues: { ...query.ExpressionAttributeValues, [endPlaceholder]: end },
    },
    excluded: { attribute: onPrefix.attribute, value: end },
  };
}
