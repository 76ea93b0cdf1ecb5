import { describe, expect, it } from 'vitest';
import { prefixAsRange, successorOf } from '#shared/adapters/dynamodb/prefix-range';
import { freshTable } from './support';

describe('successorOf', () => {
  it('increments the last character', () => {
    expect(successorOf('WEBHOOK#')).toBe('WEBHOOK$');
    expect(successorOf('ana')).toBe('anb');
    expect(successorOf('café')).toBe('cafê');
  });

  it('has none for an empty prefix or a last character past U+D7FE', () => {
    expect(successorOf('')).toBeNull();
    expect(successorOf('a\uffff')).toBeNull();
    expect(successorOf('a😀')).toBeNull();
  });
});

describe('prefixAsRange', () => {
  it('sends a sort-key begins_with as BETWEEN the prefix and its successor', () => {
    const out = prefixAsRange({
      KeyConditionExpression: '#ipk = :ipk AND begins_with(#isk, :prefix)',
      ExpressionAttributeNames: { '#ipk': 'gsi1pk', '#isk': 'gsi1sk' },
      ExpressionAttributeValues: { ':ipk': 'P', ':prefix': 'ana' },
    });
    expect(out.query.KeyConditionExpression).toBe('#ipk = :ipk AND #isk BETWEEN :prefix AND :prefixRangeEnd');
    expect(out.query.ExpressionAttributeValues).toEqual({
      ':ipk': 'P',
      ':prefix': 'ana',
      ':prefixRangeEnd': 'anb',
    });
    expect(out.excluded).toEqual({ attribute: 'gsi1sk', value: 'anb' });
  });

  it('leaves counts, other key conditions and prefixes without a simple successor as they are', () => {
    const count = {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': 'A', ':p': 'B#' },
      Select: 'COUNT',
    };
    expect(prefixAsRange(count)).toEqual({ query: count });
    const plain = { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'A' } };
    expect(prefixAsRange(plain)).toEqual({ query: plain });
    const odd = {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': 'A', ':p': 'x😀' },
    };
    expect(prefixAsRange(odd)).toEqual({ query: odd });
  });
});

describe('a prefix Query on DynamoDB Local (table.query)', () => {
  it('answers exactly the keys that start with the prefix, the successor key left out', async () => {
    const table = await freshTable('prefix');
    const sks = ['ana', 'ana#1', 'anaconda', 'anb', 'anb#1', 'an', 'am~', 'ana\uffff', 'ana😀', 'anä'];
    for (const sk of sks) await table.put({ pk: 'P', sk });
    const page = await table.query<{ sk: string }>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'P', ':prefix': 'ana' },
    });
    const expected = sks.filter((s) => s.startsWith('ana'));
    expect(page.items.map((i) => i.sk).sort()).toEqual([...expected].sort());
    const count = await table.query({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'P', ':prefix': 'ana' },
      Select: 'COUNT',
    });
    expect(count.count).toBe(expected.length);
  });

  it('pages through the range with the cursor the begins_with query accepts', async () => {
    const table = await freshTable('prefix');
    for (let i = 0; i < 7; i++) await table.put({ pk: 'P', sk: `T#${i}` });
    await table.put({ pk: 'P', sk: 'T$' });
    await table.put({ pk: 'P', sk: 'U#1' });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await table.query<{ sk: string }>({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': 'P', ':prefix': 'T#' },
        Limit: 3,
        cursor,
      });
      seen.push(...page.items.map((i) => i.sk));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `T#${i}`));
  });
});
