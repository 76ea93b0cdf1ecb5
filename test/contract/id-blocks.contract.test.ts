import { afterAll, describe, expect, it } from 'vitest';
import { keys } from '#shared/adapters/dynamodb/keys';
import { Table } from '#shared/adapters/dynamodb/table';
import { fileDynamoEndpoint } from '../support/file-dynamo';
import { freshTable } from './support';

const containers: Table[] = [];
afterAll(() => {
  for (const table of containers.splice(0)) table.client.destroy();
});

/** Another container on the same table: its own client and its own blocks in memory. */
async function container(of: Table): Promise<Table> {
  const table = new Table({ tableName: of.name, endpoint: await fileDynamoEndpoint() });
  containers.push(table);
  return table;
}

describe('id blocks on DynamoDB Local (issue 17)', () => {
  it('never hands out one id twice across containers drawing concurrently, each in increasing order', async () => {
    const first = await freshTable('ids');
    const tables = [first, ...(await Promise.all([1, 2, 3].map(() => container(first))))];
    // Blocks of 10 so that 60 ids per container cross five blocks, most of them claimed ahead.
    const draw = async (table: Table) => {
      const ids: number[] = [];
      for (let round = 0; round < 20; round++) {
        // Three sales at once in one container, as concurrent invocations of a Node.js process would.
        const batch = await Promise.all([0, 1, 2].map(() => table.nextId('transaction', { block: 10 })));
        ids.push(...batch.sort((a, b) => a - b));
      }
      return ids;
    };
    const drawn = await Promise.all(tables.map(draw));

    const all = drawn.flat();
    expect(all).toHaveLength(240);
    expect(new Set(all).size).toBe(240);
    for (const ids of drawn) {
      expect(ids.every((id, i) => i === 0 || id > ids[i - 1])).toBe(true);
    }
    // Every id came from a claimed block: none beyond what the counter reserved.
    const counter = await first.get<{ value: number }>(keys.counter('transaction'), { consistent: true });
    expect(Math.max(...all)).toBeLessThanOrEqual(Number(counter?.value));
    expect(tables.reduce((n, t) => n + t.aheadClaims, 0)).toBeGreaterThan(0);
  });
});
