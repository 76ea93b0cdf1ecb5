import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startDynamoLocal } from '#infra/local/dynamodb-local';
import type { Runtime } from '#infra/local/runtime';
import { card } from '../support/checkout-fixtures';
import { client, startTestRuntime } from '../support/runtime';

/**
 * The local data folder holds mail with live links, the table with `whsec_` secrets, queued
 * events and keys: nobody but its owner may read any of it (issue 31).
 */
const root = mkdtempSync(join(tmpdir(), 'ps-data-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every folder and file under `dir` (the folder itself first), with its permission bits. */
function modes(dir: string): { path: string; dir: boolean; mode: number }[] {
  const found = [{ path: dir, dir: true, mode: lstatSync(dir).mode & 0o777 }];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) found.push(...modes(path));
    else found.push({ path, dir: false, mode: stat.mode & 0o777 });
  }
  return found;
}

/** The entries anyone but the owner could read, write or enter; folders not 0700, files not 0600. */
function notPrivate(dir: string) {
  return modes(dir)
    .filter((e) => (e.dir ? e.mode !== 0o700 : e.mode !== 0o600))
    .map((e) => `${e.path.slice(dir.length) || '/'} ${e.mode.toString(8)}`);
}

async function untilExists(path: string, advance: () => Promise<unknown>) {
  const deadline = Date.now() + 20_000;
  while (!existsSync(path) || readdirSync(path).length === 0) {
    if (Date.now() > deadline) throw new Error(`${path} was not written in time`);
    await advance();
  }
}

/** A seller's sandbox card sale: the receipt goes to the mail folder, events through the queues. */
async function sellSomething(runtime: Runtime) {
  const api = client(runtime.baseUrl);
  const jwt = await runtime.issuer.sign(97_001, { now: runtime.clock.now() });
  const key = (await api.post('/api/api-keys', { name: 'k', environment: 'test' }, { token: jwt })).body.key;
  const product = (
    await api.post(
      '/api/products',
      { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 49.9, installments: 1 },
      { token: key },
    )
  ).body;
  await api.post('/api/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['*'] }, { token: key });
  const sale = await api.post('/api/transactions', {
    productId: product.uuid,
    paymentMethod: 'creditcard',
    customer: {
      name: 'Maria Souza',
      email: 'maria@example.com',
      document: '52998224725',
      phone: '11987654321',
    },
    card: card('4111111111111111'),
  });
  expect(sale.status, JSON.stringify(sale.body)).toBe(201);
  return () => api.post('/api/test-helpers/clock/advance', { seconds: 1 });
}

describe('the local data folder', () => {
  it('is created owner-only (0700), and every file the runtime writes in it is 0600', async () => {
    const dataDir = join(root, 'fresh', '.local');
    const runtime = await startTestRuntime({ dataDir });
    try {
      const advance = await sellSomething(runtime);
      await untilExists(join(dataDir, 'mail'), advance);
      await advance();
    } finally {
      await runtime.stop();
    }

    const written = modes(dataDir).map((e) => e.path.slice(dataDir.length));
    expect(written).toEqual(expect.arrayContaining(['/dev-credentials.json', '/jwt-keys.json', '/mail']));
    expect(written.some((p) => p.startsWith('/mail/') && p.endsWith('.json'))).toBe(true);
    expect(notPrivate(dataDir)).toEqual([]);
  });

  it('is tightened, with what is already in it, when it exists with wider modes', async () => {
    const dataDir = join(root, 'old', '.local');
    mkdirSync(join(dataDir, 'mail'), { recursive: true });
    writeFileSync(join(dataDir, 'mail', '01old.json'), '{}');
    writeFileSync(join(dataDir, 'left-over.json'), '[]');
    chmodSync(join(dataDir, 'mail', '01old.json'), 0o644);
    chmodSync(join(dataDir, 'left-over.json'), 0o666);
    chmodSync(join(dataDir, 'mail'), 0o755);
    chmodSync(dataDir, 0o755);

    const runtime = await startTestRuntime({ dataDir });
    await runtime.stop();

    expect(notPrivate(dataDir)).toEqual([]);
  });

  it("keeps DynamoDB Local's own files owner-only", async () => {
    const dataDir = join(root, 'dynamo', '.local', 'dynamodb');
    const dynamo = await startDynamoLocal({ dataDir });
    const db = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      await db.send(
        new CreateTableCommand({
          TableName: 'secrets',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        }),
      );
      await db.send(
        new PutItemCommand({ TableName: 'secrets', Item: { pk: { S: 'whsec_not_for_others' } } }),
      );
    } finally {
      db.destroy();
      await dynamo.stop();
    }

    expect(readdirSync(dataDir).length).toBeGreaterThan(0);
    expect(notPrivate(dataDir)).toEqual([]);
  });
});
