import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTable } from '#infra/local/dynamodb-local';
import { IDLE_POLL_MS, LocalStreamPoller } from '#infra/local/streams';
import { Table } from '#shared/adapters/dynamodb/table';
import { TABLE } from '#shared/adapters/dynamodb/table-definition';
import { fileDynamoEndpoint } from '../support/file-dynamo';

const tables: Table[] = [];
afterAll(() => {
  for (const t of tables) t.client.destroy();
});

async function setup(batchSize?: number) {
  const endpoint = await fileDynamoEndpoint();
  const tableName = `stream-${randomUUID()}`;
  await ensureTable(endpoint, tableName);
  const table = new Table({ tableName, endpoint });
  tables.push(table);
  let now = 1_000_000;
  const seen: string[] = [];
  const poller = new LocalStreamPoller({
    client: table.client,
    endpoint,
    tableName,
    file: null,
    batchSize,
    onError: (e) => {
      throw e;
    },
    filter: (r) => r.dynamodb?.NewImage?.entity?.S === TABLE.outboxEntity,
    now: () => now,
  });
  poller.setConsumer(async (event) => {
    for (const r of event.Records) seen.push(String(r.dynamodb?.NewImage?.pk?.S));
  });
  const write = (id: string) => table.put({ pk: `EVENT#${id}`, sk: 'EVENT', entity: TABLE.outboxEntity });
  const advance = (ms: number) => {
    now += ms;
  };
  return { poller, seen, write, advance };
}

describe('LocalStreamPoller pacing', () => {
  it('skips a paced read while the stream was empty less than IDLE_POLL_MS ago, and reads once it is due', async () => {
    const { poller, seen, write, advance } = await setup();
    await poller.drain({ paced: true });
    await write('a');

    await poller.drain({ paced: true });
    expect(seen).toEqual([]);

    advance(IDLE_POLL_MS);
    await poller.drain({ paced: true });
    expect(seen).toEqual(['EVENT#a']);
  });

  it('reads again at once after a read that found records', async () => {
    const { poller, seen, write } = await setup();
    await write('a');
    await poller.drain({ paced: true });
    await write('b');

    await poller.drain({ paced: true });

    expect(seen).toEqual(['EVENT#a', 'EVENT#b']);
  });

  it('always reads on a drain that is not paced (the test clock advance)', async () => {
    const { poller, seen, write } = await setup();
    await poller.drain();
    await write('a');

    await poller.drain();

    expect(seen).toEqual(['EVENT#a']);
  });
});

describe('LocalStreamPoller reads', () => {
  it('ends a drain on a read that returned fewer records than its limit, with no empty read after it', async () => {
    const { poller, seen, write } = await setup(2);
    await poller.drain();
    await write('a');
    await write('b');
    await write('c');
    const before = poller.reads.calls;

    await poller.drain();

    // Two records (a full read), then one (fewer than the limit: the end of the shard).
    expect(poller.reads.calls - before).toBe(2);
    expect(seen).toEqual(['EVENT#a', 'EVENT#b', 'EVENT#c']);
  });

  it('reads on while every read comes back full, and once more to find the end', async () => {
    const { poller, seen, write } = await setup(2);
    await poller.drain();
    for (const id of ['a', 'b', 'c', 'd']) await write(id);
    const before = poller.reads.calls;

    await poller.drain();

    expect(poller.reads.calls - before).toBe(3);
    expect(seen).toEqual(['EVENT#a', 'EVENT#b', 'EVENT#c', 'EVENT#d']);
  });
});
