import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Runtime } from '#infra/local/runtime';
import { figureUpdates, SHARDS } from '#shared/adapters/dynamodb/daily-figures';
import { IN_DAILY_FIGURES, transactionEntity } from '#shared/adapters/dynamodb/entities/transaction';
import { addDays, saoPauloDate } from '#shared/dates';
import { createApiKey } from '#shared/domain/auth/api-keys';
import { type FigureCell, figureCellsOf } from '#shared/domain/dashboard/figures';
import type { Tenant } from '#shared/domain/tenant';
import { sellerNet, type Transaction, type TransactionStatus } from '#shared/domain/transactions/transaction';
import { percentile } from './endpoints';
import { pick, random } from './listing-cost';

/**
 * The home's cost at a big seller: `count` transactions of one test tenant over the last 30 days,
 * written straight into DynamoDB Local (BatchWriteItem of the items as the repository writes them,
 * and their daily figures summed in memory and added once per block), then
 * GET /api/dashboard/summary for 30 days over HTTP: items the figures read, round trips, p50.
 */
const SAMPLES = 30;
const WARMUP = 3;

const METHODS = { pix: 45, creditcard: 35, boleto: 20 } as const;
const STATUS_MIX: Record<keyof typeof METHODS, Partial<Record<TransactionStatus, number>>> = {
  pix: { payedPix: 70, pendingPix: 12, cancel: 15, reversed: 3 },
  boleto: { payedBoleto: 55, pendingBoleto: 25, cancel: 15, denied: 5 },
  creditcard: { captured: 75, denied: 18, reversed: 5 },
};

function saleOf(id: number, tenant: Tenant, createdAt: Date, rand: () => number): Transaction {
  const method = pick(rand(), METHODS);
  const status = pick(rand(), STATUS_MIX[method] as Record<TransactionStatus, number>);
  const value = 1_000 + Math.floor(rand() * 49_000);
  const at = createdAt.toISOString();
  const paid =
    status !== 'pendingPix' && status !== 'pendingBoleto' && status !== 'cancel' && status !== 'denied';
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    tenant,
    provider: 'sandbox',
    gatewayPayId: 8_000_000_000 + id,
    status,
    paymentMethod: method,
    value,
    valueSeller: sellerNet(method, value, 1),
    installments: 1,
    customer: {
      id: 1 + (id % 500),
      uuid: `c0000000-0000-4000-8000-${String(id % 500).padStart(12, '0')}`,
      name: 'Comprador Bench',
      email: 'bench@example.com',
      document: '52998224725',
      phone: '11987654321',
    },
    product: { id: 1, uuid: 'p0000000-0000-4000-8000-000000000001', name: 'Curso', value },
    pix: null,
    boleto: null,
    card: method === 'creditcard' ? { brand: 'visa', last4: '4242' } : null,
    failureCode: status === 'reversed' && id % 2 === 0 ? 'chargeback' : null,
    failureReason: null,
    refunds: [],
    refundedAmount: status === 'reversed' && id % 2 === 1 ? value : 0,
    paidAt: paid ? at : null,
    canceledAt: status === 'cancel' ? at : null,
    deadline:
      method === 'pix'
        ? new Date(createdAt.getTime() + 86_400_000).toISOString()
        : method === 'boleto'
          ? addDays(saoPauloDate(createdAt), 3)
          : null,
    metadata: {},
    checkoutSessionId: null,
    clientReferenceId: null,
    affiliate: null,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
}

export interface HomeSummaryCost {
  seeded: number;
  seedSeconds: number;
  figureItems: number;
  itemsRead: number;
  tripsMean: number;
  tripsMax: number;
  p50Ms: number;
  p95Ms: number;
}

export async function measureHomeSummary(runtime: Runtime, count: number): Promise<HomeSummaryCost> {
  const { table } = runtime.deps;
  const now = runtime.clock.now();
  const sellerId = await runtime.deps.repos.sellers.create('Home bench seller', now);
  const tenant: Tenant = { sellerId, environment: 'test' };
  const deps = { apiKeys: runtime.deps.repos.apiKeys, clock: runtime.clock, ids: runtime.deps.ids };
  const key = (await createApiKey(deps, sellerId, { name: 'home bench', environment: 'test' })).key;

  const started = performance.now();
  const rand = random(37);
  const cells: FigureCell[][] = Array.from({ length: SHARDS }, () => []);
  const span = 30 * 86_400_000;
  const writes: Promise<unknown>[] = [];
  let batch: Record<string, unknown>[] = [];
  const flush = async (items: Record<string, unknown>[]) => {
    let pending = items.map((Item) => ({ PutRequest: { Item } }));
    while (pending.length) {
      const out = await table.doc.send(new BatchWriteCommand({ RequestItems: { [table.name]: pending } }));
      pending = (out.UnprocessedItems?.[table.name] ?? []) as typeof pending;
    }
  };
  for (let id = 1; id <= count; id++) {
    const t = saleOf(id, tenant, new Date(now.getTime() - span + Math.floor((id / count) * span)), rand);
    cells[id % SHARDS].push(...figureCellsOf(t));
    batch.push({ ...transactionEntity.toItem(t), [IN_DAILY_FIGURES]: true });
    if (batch.length === 25) {
      writes.push(flush(batch));
      batch = [];
      if (writes.length >= 16) await Promise.all(writes.splice(0));
    }
  }
  writes.push(flush(batch));
  await Promise.all(writes);
  let figureItems = 0;
  for (let shard = 0; shard < SHARDS; shard++) {
    for (const update of figureUpdates(tenant, shard, cells[shard])) {
      if (!('Update' in update)) continue;
      await table.update(update.Update);
      figureItems++;
    }
  }
  const seedSeconds = (performance.now() - started) / 1000;

  const today = saoPauloDate(now);
  const path = `/api/dashboard/summary?from=${addDays(today, -29)}&to=${today}`;
  const direct = await runtime.deps.repos.transactions.dailyFigures(tenant, [
    { from: addDays(today, -29), to: today },
    { from: today, to: addDays(today, 30) },
  ]);
  const trips: number[] = [];
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const before = runtime.roundTrips.total;
    const t0 = performance.now();
    const res = await fetch(`${runtime.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { count?: number };
    const ms = performance.now() - t0;
    const after = runtime.roundTrips.total;
    if (res.status !== 200 || typeof body.count !== 'number')
      throw new Error(`home summary answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    if (i < WARMUP) continue;
    trips.push(after - before);
    samples.push(ms);
  }
  return {
    seeded: count,
    seedSeconds,
    figureItems,
    itemsRead: direct.itemsRead,
    tripsMean: Math.round((trips.reduce((a, b) => a + b, 0) / trips.length) * 100) / 100,
    tripsMax: Math.max(...trips),
    p50Ms: percentile(samples, 50),
    p95Ms: percentile(samples, 95),
  };
}

export function printHomeSummary(cost: HomeSummaryCost): void {
  console.log(
    `home summary (GET /api/dashboard/summary, 30 days) over ${cost.seeded.toLocaleString('en')} transactions`,
  );
  console.log(
    `  seeded in ${cost.seedSeconds.toFixed(1)} s; ${cost.figureItems} daily-figure items hold them`,
  );
  console.log(
    `  figure items read ${cost.itemsRead} (budget 40: ${cost.itemsRead <= 40 ? 'ok' : 'OVER'}); round trips avg/max ${cost.tripsMean}/${cost.tripsMax} (authentication and rate limit included); p50 ${cost.p50Ms.toFixed(1)} ms, p95 ${cost.p95Ms.toFixed(1)} ms`,
  );
}
