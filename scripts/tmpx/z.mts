import { readFileSync } from 'node:fs';
import { DynamoDBClient, CreateTableCommand, PutItemCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, DescribeStreamCommand, GetShardIteratorCommand, GetRecordsCommand } from '@aws-sdk/client-dynamodb-streams';
import { startDynamoLocal } from '/work/main/infra/local/dynamodb-local';
import { createTableInput } from '/work/main/shared/adapters/dynamodb/table-definition';
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const d = await startDynamoLocal({ dataDir: null, jit: 'long' });
const cfg = { endpoint: d.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
const c = new DynamoDBClient(cfg); const s = new DynamoDBStreamsClient(cfg);
await c.send(new CreateTableCommand(createTableInput('bench-t') as any));
const item = (i: number) => ({ pk: { S: `P#${i % 97}` }, sk: { S: `S#${i}` }, data: { S: 'x'.repeat(300) }, n: { N: String(i) } });
let base = 0;
for (const round of [1, 2, 3]) {
  let c0 = cpu(d.pid!); let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => { while (next < 3000) { const i = next++; await c.send(new PutItemCommand({ TableName: 'bench-t', Item: item(base + i) })); } }));
  console.log('put cpu/op', ((cpu(d.pid!) - c0) / 3000).toFixed(2));
  const arn = (await c.send(new DescribeTableCommand({ TableName: 'bench-t' }))).Table!.LatestStreamArn!;
  c0 = cpu(d.pid!);
  const shards = (await s.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription!.Shards!;
  let records = 0; let calls = 0;
  for (const sh of shards) {
    let it = (await s.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId: sh.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
    while (it) { const out = await s.send(new GetRecordsCommand({ ShardIterator: it, Limit: 100 })); calls++; records += out.Records!.length; if (!out.Records!.length) break; it = out.NextShardIterator; }
  }
  const ms = cpu(d.pid!) - c0;
  console.log('stream read: records', records, 'calls', calls, 'cpu ms', ms, 'per record', (ms / 3000 / round).toFixed(3));
  base += 1_000_000;
}
c.destroy(); s.destroy(); await d.stop();
