import { spawnSync } from 'node:child_process';
import { type Runtime, startRuntime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { createApiKey } from '#shared/domain/auth/api-keys';
import { RATE_WINDOW_SECONDS } from '#shared/domain/auth/rate-limit';
import { buildBoleto } from '#shared/domain/payments/boleto';
import type { ChargeMethod } from '#shared/domain/payments/gateway';
import { buildPixPayload } from '#shared/domain/payments/pix';
import type { TransactionQuery } from '#shared/domain/ports';
import type { ProductView } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import { parseSearch } from '#shared/domain/transactions/search';
import { sellerNet, type Transaction, type TransactionStatus } from '#shared/domain/transactions/transaction';
import { percentile } from './endpoints';
import { createProducts, sandbox, testApiKey } from './fixtures';
import type { BenchContext } from './recipes';
import { table } from './report';
import { buyer } from './transaction-recipes';

/**
 * What a transaction list costs when one seller has many: 10,000 transactions of one test tenant,
 * written straight through the repository (no events, no HTTP), then every list filter read once
 * through the repository (items DynamoDB read for a page of 20) and over HTTP (round trips and
 * latency of GET /api/transactions, the API key's authentication included).
 */
export const SEEDED = 10_000;
const PRODUCTS = 20;
const CUSTOMERS = 200;
/** Customers registered through POST /api/v1/customers, so the e-mail search finds them. */
const REAL_CUSTOMERS = 5;
/**
 * DynamoDB Local spends ~10 ms of CPU on each of these 6-item TransactWriteItems and barely runs
 * them in parallel: ~100 creations/s whatever the concurrency (8 and 50 measured alike).
 */
const CONCURRENCY = 16;
const SAMPLES = 30;
const WARMUP = 3;

export interface ListingRow {
  filter: string;
  path: string;
  /** Matches the list reports (totalCount): a counter for one filter, else counted while reading. */
  totalCount: number;
  pageItems: number;
  itemsRead: number;
  tripsMean: number;
  tripsMax: number;
  p50Ms: number;
}

export interface ListingCost {
  seeded: number;
  seedSeconds: number;
  /** Creations retried because another create held the seller's counters (TransactionConflict). */
  conflictRetries: number;
  byStatus: Record<string, number>;
  byMethod: Record<string, number>;
  rows: ListingRow[];
  dynamoLocalStopped: boolean;
}

/** Deterministic, so every run seeds the same mix. */
export function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function pick<T extends string>(r: number, weights: Record<T, number>): T {
  let left = r * Object.values<number>(weights).reduce((a, b) => a + b, 0);
  for (const [key, weight] of Object.entries(weights) as [T, number][]) {
    left -= weight;
    if (left < 0) return key;
  }
  return Object.keys(weights)[0] as T;
}

const METHODS: Record<ChargeMethod, number> = { pix: 45, creditcard: 35, boleto: 20 };
/** Only the statuses each method reaches, in a plausible mix. */
const STATUS_MIX: Record<ChargeMethod, Partial<Record<TransactionStatus, number>>> = {
  pix: { payedPix: 70, pendingPix: 12, cancel: 15, reversed: 3 },
  boleto: { payedBoleto: 55, pendingBoleto: 25, cancel: 15, denied: 5 },
  creditcard: { captured: 75, denied: 18, reversed: 5, authorized: 2 },
};

type Buyer = Transaction['customer'];

function transactionOf(
  n: number,
  id: number,
  tenant: Tenant,
  product: ProductView,
  customer: Buyer,
  uuid: string,
  createdAt: Date,
  rand: () => number,
): Transaction {
  const method = pick(rand(), METHODS);
  const status = pick(rand(), STATUS_MIX[method] as Record<TransactionStatus, number>);
  const value = Math.round(product.value * 100);
  const installments = method === 'creditcard' ? 1 + Math.floor(rand() * 3) : 1;
  const gatewayPayId = 7_000_000_000 + id;
  const at = createdAt.toISOString();
  const later = new Date(createdAt.getTime() + 600_000).toISOString();
  const paid = status === 'payedPix' || status === 'payedBoleto' || status === 'captured';
  const reversed = status === 'reversed';
  const deadline =
    method === 'pix'
      ? new Date(createdAt.getTime() + 86_400_000).toISOString()
      : method === 'boleto'
        ? addDays(saoPauloDate(createdAt), 3)
        : null;
  const txid = `BENCH${String(id).padStart(20, '0')}`;
  const boleto =
    method === 'boleto'
      ? buildBoleto({
          bankCode: '000',
          amountCentavos: value,
          dueDate: deadline,
          freeField: `0000${String(gatewayPayId).padStart(17, '0')}0000`,
        })
      : null;
  const chargedBack = reversed && n % 2 === 0;
  return {
    id,
    uuid,
    tenant,
    provider: 'sandbox',
    gatewayPayId,
    status,
    checkoutSessionId: null,
    clientReferenceId: null,
    affiliate: null,
    paymentMethod: method,
    value,
    valueSeller: sellerNet(method, value, installments),
    installments,
    customer,
    product: { id: product.id, uuid: product.uuid, name: product.name, value },
    pix:
      method === 'pix'
        ? {
            qrCode: buildPixPayload({
              key: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
              amountCentavos: value,
              merchantName: `SANDBOX SELLER ${tenant.sellerId}`,
              merchantCity: 'SAO PAULO',
              txid,
            }),
            txid,
            expiresAt: deadline as string,
          }
        : null,
    boleto: boleto
      ? {
          ...boleto,
          dueDate: deadline as string,
          pdfUrl: `http://127.0.0.1/api/sandbox/boletos/${gatewayPayId}/pdf`,
        }
      : null,
    card: method === 'creditcard' ? { brand: 'visa', last4: '1111' } : null,
    failureCode: status === 'denied' ? 'card_declined' : chargedBack ? 'chargeback' : null,
    failureReason: status === 'denied' ? 'The card was declined' : null,
    refunds:
      reversed && !chargedBack
        ? [{ id: `re_bench${id}`, amount: value, reason: null, createdAt: later }]
        : [],
    refundedAmount: reversed && !chargedBack ? value : 0,
    paidAt: paid || reversed ? later : null,
    canceledAt: status === 'cancel' ? later : null,
    deadline,
    metadata: { source: 'bench' },
    createdAt: at,
    updatedAt: status === 'pendingPix' || status === 'pendingBoleto' ? at : later,
    version: status === 'pendingPix' || status === 'pendingBoleto' ? 1 : 2,
  };
}

export function contended(error: unknown): boolean {
  const name = (error as Error)?.name;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] })?.CancellationReasons ?? [];
  return (
    name === 'TransactionConflictException' ||
    (name === 'TransactionCanceledException' && reasons.some((r) => r.Code === 'TransactionConflict'))
  );
}

/** Runs `work` over 0..count-1 with at most `limit` at a time. */
export async function pooled(count: number, limit: number, work: (i: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

export function contextOf(runtime: Runtime): BenchContext {
  return {
    runtime,
    async newSeller() {
      const now = runtime.clock.now();
      const sellerId = await runtime.deps.repos.sellers.create('Listing seller', now);
      return { sellerId, token: await runtime.issuer.sign(sellerId, { now }) };
    },
    async createKeys(sellerId, count) {
      const deps = { apiKeys: runtime.deps.repos.apiKeys, clock: runtime.clock, ids: runtime.deps.ids };
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        ids.push((await createApiKey(deps, sellerId, { name: `listing ${i}`, environment: 'test' })).id);
      }
      return ids;
    },
  };
}

export async function call(runtime: Runtime, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${runtime.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

/** The seller's customers: a few registered over HTTP (searchable), the rest names on transactions. */
async function buyers(runtime: Runtime, key: string, sellerId: number): Promise<Buyer[]> {
  const out: Buyer[] = [];
  for (let k = 0; k < CUSTOMERS; k++) {
    const b = buyer(sellerId, 100 + k);
    const customer = { ...b, email: `listing-buyer${k}@example.com` };
    if (k < REAL_CUSTOMERS) {
      const res = await call(runtime, key, 'POST', '/api/v1/customers', {
        ...customer,
        personType: 'fisica',
      });
      if (res.status !== 201)
        throw new Error(`listing set-up: creating a customer answered ${res.status} ${res.text}`);
      const view = res.json();
      out.push({
        id: view.id,
        uuid: view.uuid,
        name: view.name,
        email: view.email,
        document: view.document,
        phone: view.phone,
      });
    } else {
      out.push({ id: 900_000 + k, uuid: runtime.deps.ids.uuid(), ...customer });
    }
  }
  return out;
}

async function seed(runtime: Runtime, tenant: Tenant, products: ProductView[], customers: Buyer[]) {
  const repo = runtime.deps.repos.transactions;
  const ids: number[] = [];
  for (let n = 0; n < SEEDED; n++) ids.push(await repo.nextId());
  const rand = random(20_240_601);
  const now = runtime.clock.now().getTime();
  const span = 90 * 86_400_000;
  // Built up front, in id order, so the mix does not depend on which creation finishes first.
  const all = ids.map((id, n) =>
    transactionOf(
      n,
      id,
      tenant,
      products[Math.floor(rand() * products.length)],
      customers[Math.floor(rand() * customers.length)],
      runtime.deps.ids.uuid(),
      new Date(now - span + Math.floor((n * span) / SEEDED)),
      rand,
    ),
  );
  let conflictRetries = 0;
  await pooled(all.length, CONCURRENCY, async (n) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await repo.create(all[n], []);
        return;
      } catch (error) {
        if (!contended(error) || attempt >= 100) throw error;
        conflictRetries += 1;
        await new Promise((ok) => setTimeout(ok, Math.random() * 5 * Math.min(attempt, 10)));
      }
    }
  });
  const count = (field: 'status' | 'paymentMethod') =>
    all.reduce<Record<string, number>>((acc, t) => {
      acc[t[field]] = (acc[t[field]] ?? 0) + 1;
      return acc;
    }, {});
  return { conflictRetries, byStatus: count('status'), byMethod: count('paymentMethod') };
}

/** Moves both clocks to just after the start of the next rate window (as the endpoint runner does). */
export async function nextRateWindow(runtime: Runtime) {
  const windowMs = RATE_WINDOW_SECONDS * 1000;
  // The request limit counts on real time: the runtime's wall clock is skewed in process.
  const wall = runtime.wallClock.now().getTime();
  runtime.wallClock.skew(((Math.floor(wall / windowMs) + 1) * windowMs + 1000 - wall) / 1000);
  const now = runtime.clock.now().getTime();
  const target = (Math.floor(now / windowMs) + 1) * windowMs + 1000;
  await runtime.timeline.advance((target - now) / 1000);
}

interface Filter {
  label: string;
  path: string;
  query: Omit<TransactionQuery, 'page' | 'limit' | 'search'> & { page?: number; search?: string };
}

async function measureFilter(runtime: Runtime, tenant: Tenant, key: string, f: Filter): Promise<ListingRow> {
  const { repos } = runtime.deps;
  const { search, page = 1, ...rest } = f.query;
  const query: TransactionQuery = { page, limit: 20, ...rest };
  // As GET /api/transactions reads ?search: the transactions' search index (search.ts).
  if (search !== undefined) query.search = parseSearch(search) ?? undefined;
  const direct = await repos.transactions.list(tenant, query);
  await nextRateWindow(runtime);
  const trips: number[] = [];
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const before = runtime.roundTrips.total;
    const started = performance.now();
    const res = await call(runtime, key, 'GET', f.path);
    const ms = performance.now() - started;
    const after = runtime.roundTrips.total;
    const items = res.status === 200 ? res.json().data?.length : undefined;
    if (items !== direct.items.length) {
      throw new Error(
        `listing: ${f.path} answered ${res.status} with ${items} items, the repository ${direct.items.length}`,
      );
    }
    if (i < WARMUP) continue;
    trips.push(after - before);
    samples.push(ms);
  }
  return {
    filter: f.label,
    path: f.path,
    totalCount: direct.totalCount,
    pageItems: direct.items.length,
    itemsRead: direct.itemsRead,
    tripsMean: Math.round((trips.reduce((a, b) => a + b, 0) / trips.length) * 100) / 100,
    tripsMax: Math.max(...trips),
    p50Ms: percentile(samples, 50),
  };
}

async function measure(runtime: Runtime): Promise<Omit<ListingCost, 'dynamoLocalStopped'>> {
  const ctx = contextOf(runtime);
  const { sellerId } = await ctx.newSeller();
  const tenant = sandbox(sellerId);
  const key = await testApiKey(ctx, sellerId);
  const products = await createProducts(ctx, tenant, PRODUCTS);
  const customers = await buyers(runtime, key, sellerId);
  const started = performance.now();
  const seeded = await seed(runtime, tenant, products, customers);
  const seedSeconds = Math.round((performance.now() - started) / 100) / 10;

  const [searched, byId] = [customers[1], customers[0]];
  const filters: Filter[] = [
    { label: 'none', path: '/api/transactions', query: {} },
    { label: 'status', path: '/api/transactions?status=payedPix', query: { status: 'payedPix' } },
    {
      label: 'paymentMethod',
      path: '/api/transactions?paymentMethod=boleto',
      query: { paymentMethod: 'boleto' },
    },
    {
      label: 'productId',
      path: `/api/transactions?productId=${products[0].id}`,
      query: { productId: products[0].id },
    },
    {
      label: 'customerId',
      path: `/api/transactions?customerId=${byId.id}`,
      query: { customerIds: [byId.id] },
    },
    {
      label: 'search (e-mail)',
      path: `/api/transactions?search=${encodeURIComponent(searched.email)}`,
      query: { search: searched.email },
    },
    {
      label: 'status+paymentMethod',
      path: '/api/transactions?status=cancel&paymentMethod=boleto',
      query: { status: 'cancel', paymentMethod: 'boleto' },
    },
    { label: 'none, page 50', path: '/api/transactions?page=50', query: { page: 50 } },
    // GET /api/v1/charges reads the first page as the list does without filters.
    { label: 'GET /api/v1/charges', path: '/api/v1/charges', query: {} },
  ];
  const rows: ListingRow[] = [];
  for (const f of filters) rows.push(await measureFilter(runtime, tenant, key, f));
  return { seeded: SEEDED, seedSeconds, ...seeded, rows };
}

/** Starts its own local runtime (DynamoDB Local in memory), seeds, measures, stops it. */
export async function measureListingCost(): Promise<ListingCost> {
  const runtime = await startRuntime({
    port: 0,
    dataDir: null,
    logLevel: 'silent',
    tableName: 'bench-listing',
    devIdentity: false,
  });
  const interrupted = (signal: NodeJS.Signals) => {
    runtime.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  let result: Omit<ListingCost, 'dynamoLocalStopped'>;
  try {
    // No background ticks: nothing but the measured request talks to DynamoDB between two readings.
    await runtime.timeline.stop();
    result = await measure(runtime);
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await runtime.stop();
  }
  const port = runtime.dynamo?.port;
  const running =
    port !== undefined && spawnSync('pgrep', ['-f', `DynamoDBLocal.*-port ${port}( |$)`]).status === 0;
  return { ...result, dynamoLocalStopped: !running };
}

const mix = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

export function formatListingCost(r: ListingCost): string {
  const rows = r.rows.map((row) => [
    row.filter,
    row.path,
    String(row.totalCount),
    String(row.pageItems),
    String(row.itemsRead),
    `${row.tripsMean}/${row.tripsMax}`,
    row.p50Ms.toFixed(2),
  ]);
  return [
    `Listing cost: ${r.seeded} transactions of one seller (test), ${PRODUCTS} products, ${CUSTOMERS} customers,`,
    `seeded in ${r.seedSeconds} s through the repository (${CONCURRENCY} at a time, ${r.conflictRetries} conflict retries).`,
    `Methods: ${mix(r.byMethod)}.`,
    `Statuses: ${mix(r.byStatus)}.`,
    `Items read = what DynamoDB read for one page of 20 (repository list, itemsRead); round trips and p50 =`,
    `the HTTP GET with an sk_test_ key (authentication included), ${SAMPLES} requests after ${WARMUP} warm-up.`,
    table(['filter', 'request', 'total', 'page', 'items read', 'trips avg/max', 'p50 ms'], rows, 'llrrrrr'),
    `DynamoDB Local stopped after the run: ${r.dynamoLocalStopped ? 'yes' : 'NO, a java process is left'}`,
  ].join('\n');
}
