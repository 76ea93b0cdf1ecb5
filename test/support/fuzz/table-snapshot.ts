import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from '#shared/adapters/dynamodb/table';

/** Every item of the table that a refused request must leave alone, by `pk|sk`, as canonical JSON. */
export type Snapshot = Map<string, string>;

/**
 * What the pipeline writes for any request, refused or not: rate-limit counters, idempotency
 * records, id-allocation counters, the health probe and heartbeat, and the seller's request log
 * (every authenticated request is logged, refused ones too).
 */
const IGNORED_PARTITIONS = [
  /^RATE#/,
  /^IDEMP#/,
  /^COUNTER$/,
  /^SYSTEM$/,
  /^SELLER#\d+#(test|live)#REQUESTS$/,
];
/** An API key item counts its own requests (rate-limit slots) and records when it was last used. */
const API_KEY_COUNTERS = new Set(['rl0', 'rl1', 'rlAt', 'lastUsedAt']);

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Set)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v instanceof Set
        ? [...v].sort()
        : v,
  );

const documentClients = new WeakMap<Table, DynamoDBDocumentClient>();

/** A consistent scan of the whole table (each test runtime has a small table of its own). */
export async function snapshot(table: Table): Promise<Snapshot> {
  let doc = documentClients.get(table);
  if (!doc) {
    doc = DynamoDBDocumentClient.from(table.client);
    documentClients.set(table, doc);
  }
  const out: Snapshot = new Map();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({ TableName: table.name, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    for (const item of page.Items ?? []) {
      const pk = String(item.pk);
      if (IGNORED_PARTITIONS.some((p) => p.test(pk))) continue;
      const kept = pk.startsWith('APIKEY#')
        ? Object.fromEntries(Object.entries(item).filter(([k]) => !API_KEY_COUNTERS.has(k)))
        : item;
      out.set(`${pk}|${String(item.sk)}`, canonical(kept));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** The items added, removed or changed between two snapshots, one line each (values cut short). */
export function differences(before: Snapshot, after: Snapshot): string[] {
  const cut = (s: string | undefined) => (s && s.length > 400 ? `${s.slice(0, 400)}…` : s);
  const out: string[] = [];
  for (const [key, value] of after) {
    const old = before.get(key);
    if (old === undefined) out.push(`added ${key}: ${cut(value)}`);
    else if (old !== value) out.push(`changed ${key}: ${cut(old)} -> ${cut(value)}`);
  }
  for (const key of before.keys()) if (!after.has(key)) out.push(`removed ${key}`);
  return out;
}
