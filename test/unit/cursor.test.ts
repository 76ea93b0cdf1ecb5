import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CursorQuery,
  decodeCursor,
  encodeCursor,
  keyConditions,
} from '#shared/adapters/dynamodb/cursor';
import { TABLE } from '#shared/adapters/dynamodb/table-definition';
import { ValidationError } from '#shared/errors';

const cursorOf = (key: Record<string, unknown>) => encodeCursor(key) as string;

function refused(cursor: string, query?: CursorQuery): boolean {
  try {
    decodeCursor(cursor, query);
    return false;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).messages).toEqual(['cursor is not valid']);
    return true;
  }
}

/** Indexes by their key attributes: their names are the access patterns, free to change. */
const indexOf = (partitionKey: string) =>
  (Object.values(TABLE.indexes) as { name: string; partitionKey: string }[]).find(
    (i) => i.partitionKey === partitionKey,
  )?.name as string;

/** The shapes of the list queries in the repositories. */
const sellerTransactions: CursorQuery = {
  KeyConditionExpression: '#k = :k AND begins_with(sk, :prefix)',
  ExpressionAttributeNames: { '#k': 'pk', '#status': 'status' },
  ExpressionAttributeValues: { ':k': 'SELLER#1#test', ':prefix': 'TXN#', ':status': 'pendingPix' },
};
const transactionsByStatus: CursorQuery = {
  IndexName: indexOf('gsi2pk'),
  KeyConditionExpression: '#k = :k',
  ExpressionAttributeNames: { '#k': 'gsi2pk' },
  ExpressionAttributeValues: { ':k': 'SELLER#1#test#STATUS#pendingPix' },
};
const deliveries: CursorQuery = {
  IndexName: indexOf('gsi1pk'),
  KeyConditionExpression: '#pk = :pk',
  ExpressionAttributeNames: { '#pk': 'gsi1pk' },
  ExpressionAttributeValues: { ':pk': 'WHEP#e1#DELIVERIES', ':seller': 1 },
};

describe('decodeCursor against the query it continues', () => {
  it('accepts a key the query could have returned', () => {
    const key = { pk: 'SELLER#1#test', sk: 'TXN#0000000042' };
    expect(decodeCursor(cursorOf(key), sellerTransactions)).toEqual(key);
    const onIndex = {
      pk: 'SELLER#1#test',
      sk: 'TXN#1',
      gsi2pk: 'SELLER#1#test#STATUS#pendingPix',
      gsi2sk: 'x',
    };
    expect(decodeCursor(cursorOf(onIndex), transactionsByStatus)).toEqual(onIndex);
  });

  it('refuses the base64 of {} and of keys with missing, extra or non-string attributes', () => {
    for (const query of [sellerTransactions, transactionsByStatus, deliveries, undefined]) {
      expect(refused('e30', query)).toBe(true);
      expect(refused(cursorOf({ pk: 'SELLER#1#test' }), query)).toBe(true);
      expect(refused(cursorOf({ pk: 'SELLER#1#test', sk: 1 }), query)).toBe(true);
      expect(refused(cursorOf({ pk: 'SELLER#1#test', sk: 'TXN#1', note: 'x' }), query)).toBe(true);
    }
    // Index attributes on a table query, or a table key alone on an index query.
    expect(
      refused(cursorOf({ pk: 'SELLER#1#test', sk: 'TXN#1', gsi2pk: 'a', gsi2sk: 'b' }), sellerTransactions),
    ).toBe(true);
    expect(refused(cursorOf({ pk: 'SELLER#1#test', sk: 'TXN#1' }), transactionsByStatus)).toBe(true);
    expect(
      refused(
        cursorOf({ pk: 'p', sk: 's', gsi1pk: 'SELLER#1#test#STATUS#pendingPix', gsi1sk: 'x' }),
        transactionsByStatus,
      ),
    ).toBe(true);
  });

  it("refuses another partition's key (another seller, another endpoint)", () => {
    expect(refused(cursorOf({ pk: 'SELLER#2#test', sk: 'TXN#1' }), sellerTransactions)).toBe(true);
    expect(refused(cursorOf({ pk: 'SELLER#1#live', sk: 'TXN#1' }), sellerTransactions)).toBe(true);
    expect(
      refused(cursorOf({ pk: 'D#1', sk: 'D', gsi1pk: 'WHEP#e2#DELIVERIES', gsi1sk: '2024' }), deliveries),
    ).toBe(true);
  });

  it("refuses a key outside the query's sort-key condition (another list of the same partition)", () => {
    expect(refused(cursorOf({ pk: 'SELLER#1#test', sk: 'WHEP#abc' }), sellerTransactions)).toBe(true);
  });

  it.each([
    ['=', 'pk = :p AND sk = :a', ['m'], ['l', 'n']],
    ['<', 'pk = :p AND sk < :a', ['l'], ['m', 'n']],
    ['<=', 'pk = :p AND sk <= :a', ['l', 'm'], ['n']],
    ['>', 'pk = :p AND sk > :a', ['n'], ['l', 'm']],
    ['>=', 'pk = :p AND sk >= :a', ['m', 'n'], ['l']],
    ['BETWEEN', 'pk = :p AND sk BETWEEN :a AND :b', ['m', 'n', 'o'], ['l', 'p']],
    ['begins_with', 'pk = :p AND begins_with(sk, :a)', ['m', 'mx'], ['l', 'n']],
    ['sort condition first, parenthesised', '(sk >= :a) AND (pk = :p)', ['m'], ['l']],
  ])('checks the sort key against %s', (_, expression, inside, outside) => {
    const query = {
      KeyConditionExpression: expression,
      ExpressionAttributeValues: { ':p': 'P', ':a': 'm', ':b': 'o' },
    };
    for (const sk of inside) expect(refused(cursorOf({ pk: 'P', sk }), query), sk).toBe(false);
    for (const sk of outside) expect(refused(cursorOf({ pk: 'P', sk }), query), sk).toBe(true);
  });

  it('compares sort keys by UTF-8 bytes, as DynamoDB orders them', () => {
    // U+FF01 sorts before U+1F600 in UTF-8 but after its surrogates in UTF-16.
    const query = {
      KeyConditionExpression: 'pk = :p AND sk < :a',
      ExpressionAttributeValues: { ':p': 'P', ':a': '😀' },
    };
    expect(refused(cursorOf({ pk: 'P', sk: '！' }), query)).toBe(false);
  });

  it('refuses a cursor it cannot check: an unknown index or a key condition it cannot read', () => {
    const key = cursorOf({ pk: 'P', sk: 's' });
    expect(
      refused(key, {
        IndexName: 'nope',
        KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': 'P' },
      }),
    ).toBe(true);
    expect(
      refused(key, {
        KeyConditionExpression: 'pk = :p OR pk = :q',
        ExpressionAttributeValues: { ':p': 'P' },
      }),
    ).toBe(true);
    expect(refused(key, {})).toBe(true);
  });

  it('round-trips every key a query returns (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (partition, prefix, rest) => {
        const query = {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': partition, ':prefix': prefix },
        };
        const key = { pk: partition, sk: prefix + rest };
        expect(decodeCursor(cursorOf(key), query)).toEqual(key);
      }),
    );
  });
});

describe('keyConditions', () => {
  it('resolves placeholders of names and values', () => {
    expect(keyConditions(sellerTransactions)).toEqual([
      { attribute: 'pk', operator: '=', values: ['SELLER#1#test'] },
      { attribute: 'sk', operator: 'begins_with', values: ['TXN#'] },
    ]);
    expect(
      keyConditions({
        KeyConditionExpression: '#ipk = :ipk AND #isk between :lo and :hi',
        ExpressionAttributeNames: { '#ipk': 'gsi5pk', '#isk': 'gsi5sk' },
        ExpressionAttributeValues: { ':ipk': 'A', ':lo': '1', ':hi': '2' },
      }),
    ).toEqual([
      { attribute: 'gsi5pk', operator: '=', values: ['A'] },
      { attribute: 'gsi5sk', operator: 'between', values: ['1', '2'] },
    ]);
  });
});
