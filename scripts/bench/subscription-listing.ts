import type { Runtime } from '#infra/local/runtime';
import type { SubscriptionQuery } from '#shared/domain/ports';
import type { ProductView } from '#shared/domain/products/products';
import { nextBoundary, periodEnd } from '#shared/domain/subscriptions/periods';
import type { SubscriptionPrice } from '#shared/domain/subscriptions/price';
import type { Subscription, SubscriptionStatus } from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import { percentile } from './endpoints';
import { createProducts, sandbox, testApiKey } from './fixtures';
import {
  call,
  contended,
  contextOf,
  type ListingRow,
  nextRateWindow,
  pick,
  pooled,
  random,
} from './listing-cost';
import { table } from './report';
import { onOwnRuntime } from './standalone';
import { buyer } from './transaction-recipes';

/**
 * What GET /api/subscriptions costs when one seller has many subscriptions: SEEDED subscriptions
 * of one test tenant written straight through the repository (no history, no events, no HTTP),
 * then each filter read once through the repository (items DynamoDB read for a page of 20) and
 * over HTTP (round trips and latency, the API key's authentication included), as the transaction
 * listing is measured.
 */
/**
 * A seller of some size, kept at 2,000 because DynamoDB Local writes ~25 of these transactions a
 * second on a busy machine (5,000 took 3.5 minutes); the per-page figures depend on the filter's
 * partition sizes, which grow in proportion.
 */
export const SUBSCRIPTIONS_SEEDED = 2_000;
const PRODUCTS = 10;
/** About five subscriptions per customer: a customer rarely holds more. */
const CUSTOMERS = 400;
/** More at once only queues in DynamoDB Local (and trips the SDK's 3 s request-timeout warning). */
const CONCURRENCY = 8;
const SAMPLES = 30;
const WARMUP = 3;
const DAY_MS = 86_400_000;

/** A plausible book of a year of monthly subscriptions. */
const STATUS_MIX: Record<SubscriptionStatus, number> = {
  active: 70,
  canceled: 18,
  failed: 5,
  pending_cancellation: 5,
  pending: 2,
};

export interface SubscriptionListing {
  seeded: number;
  seedSeconds: number;
  conflictRetries: number;
  byStatus: Record<string, number>;
  rows: ListingRow[];
  dynamoLocalStopped: boolean;
}

type Customer = Subscription['customer'];

function subscriptionOf(
  id: number,
  uuid: string,
  tenant: Tenant,
  price: SubscriptionPrice,
  customer: Customer,
  createdAt: Date,
  now: Date,
  rand: () => number,
): Subscription {
  const status = pick(rand(), STATUS_MIX);
  const anchor = createdAt.toISOString();
  const { n, at } = nextBoundary(anchor, price.billingInterval, price.intervalCount, now.toISOString());
  const started = periodEnd(anchor, price.billingInterval, price.intervalCount, n - 1);
  const ended = new Date(Math.max(createdAt.getTime(), now.getTime() - rand() * 180 * DAY_MS)).toISOString();
  const pix = rand() < 0.15;
  const live = status === 'active' || status === 'pending_cancellation';
  const paused = status === 'active' && rand() < 0.04;
  return {
    id,
    uuid,
    tenant,
    status,
    customer,
    price: {
      id: price.id,
      uuid: price.uuid,
      name: price.name,
      unitAmount: price.unitAmount,
      billingInterval: price.billingInterval,
      intervalCount: price.intervalCount,
      trialDays: price.trialDays,
      product: price.product,
    },
    collectionMethod: pix ? 'pix_automatic' : 'card',
    paymentMethod: pix ? null : { id: 800_000 + customer.id, cardLast4: '1111', cardBrand: 'visa' },
    pixAuthorizationId: pix ? `pixauth_bench_${id}` : null,
    billingAnchor: anchor,
    billingCycle: status === 'pending' ? 0 : n,
    currentPeriodStart: status === 'pending' ? anchor : started,
    currentPeriodEnd:
      status === 'pending' ? periodEnd(anchor, price.billingInterval, price.intervalCount, 1) : at,
    trialEndsAt: null,
    cancelAt: status === 'canceled' ? ended : status === 'pending_cancellation' ? at : null,
    cancelledAt: status === 'canceled' ? ended : null,
    cancelAtPeriodEnd: status === 'pending_cancellation',
    cancelReason: status === 'canceled' || status === 'pending_cancellation' ? 'bench' : null,
    pausedAt: paused ? started : null,
    lastPaymentAt: status === 'pending' ? null : started,
    nextPaymentAt: live ? at : null,
    failedPaymentCount: status === 'failed' ? 4 : 0,
    dueAt: live ? at : null,
    pendingCharge: null,
    checkoutSessionId: null,
    metadata: { source: 'bench' },
    createdAt: anchor,
    updatedAt: anchor,
    version: 1,
  };
}

/** One monthly price per product, written through the repository. */
async function pricesOf(runtime: Runtime, tenant: Tenant, products: ProductView[]) {
  const out: SubscriptionPrice[] = [];
  const at = runtime.clock.now().toISOString();
  for (const product of products) {
    const price: SubscriptionPrice = {
      id: await runtime.deps.repos.prices.nextId(),
      uuid: runtime.deps.ids.uuid(),
      tenant,
      product: { id: product.id, uuid: product.uuid, name: product.name },
      name: `${product.name} monthly`,
      unitAmount: 2_990,
      billingInterval: 'month',
      intervalCount: 1,
      trialDays: 0,
      isActive: true,
      createdAt: at,
      updatedAt: at,
      version: 1,
    };
    await runtime.deps.repos.prices.create(price);
    out.push(price);
  }
  return out;
}

async function seed(runtime: Runtime, tenant: Tenant, prices: SubscriptionPrice[]) {
  const repo = runtime.deps.repos.subscriptions;
  const customers: Customer[] = Array.from({ length: CUSTOMERS }, (_, k) => {
    const b = buyer(tenant.sellerId, 300 + k);
    return {
      id: 900_000 + k,
      uuid: runtime.deps.ids.uuid(),
      name: b.name,
      email: b.email,
      document: b.document,
    };
  });
  const ids: number[] = [];
  for (let n = 0; n < SUBSCRIPTIONS_SEEDED; n++) ids.push(await repo.nextId());
  const rand = random(20_250_112);
  const now = runtime.clock.now();
  const span = 365 * DAY_MS;
  // Built up front, in id order, so the mix does not depend on which creation finishes first.
  const all = ids.map((id, n) =>
    subscriptionOf(
      id,
      runtime.deps.ids.uuid(),
      tenant,
      prices[Math.floor(rand() * prices.length)],
      customers[Math.floor(rand() * customers.length)],
      new Date(now.getTime() - span + Math.floor((n * span) / SUBSCRIPTIONS_SEEDED)),
      now,
      rand,
    ),
  );
  let conflictRetries = 0;
  await pooled(all.length, CONCURRENCY, async (n) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await repo.create(all[n], { events: [], history: [] });
        return;
      } catch (error) {
        if (!contended(error) || attempt >= 100) throw error;
        conflictRetries += 1;
        await new Promise((ok) => setTimeout(ok, Math.random() * 5 * Math.min(attempt, 10)));
      }
    }
  });
  const byStatus = all.reduce<Record<string, number>>((acc, s) => {
    acc[s.status] = (acc[s.status] ?? 0) + 1;
    return acc;
  }, {});
  // The customer with the most subscriptions, for the customer filters.
  const perCustomer = new Map<number, number>();
  for (const s of all) perCustomer.set(s.customer.id, (perCustomer.get(s.customer.id) ?? 0) + 1);
  const busiest = [...perCustomer.entries()].sort((a, b) => b[1] - a[1])[0][0];
  return { conflictRetries, byStatus, busiest };
}

interface Filter {
  label: string;
  query: Omit<SubscriptionQuery, 'page' | 'limit'> & { page?: number };
}

const pathOf = (query: Filter['query']) => {
  const params = new URLSearchParams(
    Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string]),
  ).toString();
  return `/api/subscriptions${params ? `?${params}` : ''}`;
};

async function measureFilter(runtime: Runtime, tenant: Tenant, key: string, f: Filter): Promise<ListingRow> {
  const { page = 1, ...rest } = f.query;
  const direct = await runtime.deps.repos.subscriptions.list(tenant, { page, limit: 20, ...rest });
  const path = pathOf(f.query);
  await nextRateWindow(runtime);
  const trips: number[] = [];
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const before = runtime.roundTrips.total;
    const started = performance.now();
    const res = await call(runtime, key, 'GET', path);
    const ms = performance.now() - started;
    const after = runtime.roundTrips.total;
    const body = res.status === 200 ? res.json() : undefined;
    if (body?.data?.length !== direct.items.length || body?.totalCount !== direct.totalCount) {
      throw new Error(
        `subscription listing: ${path} answered ${res.status} with ${body?.data?.length} items of ` +
          `${body?.totalCount}, the repository ${direct.items.length} of ${direct.totalCount}: ${res.text.slice(0, 300)}`,
      );
    }
    if (i < WARMUP) continue;
    trips.push(after - before);
    samples.push(ms);
  }
  return {
    filter: f.label,
    path,
    totalCount: direct.totalCount,
    pageItems: direct.items.length,
    itemsRead: direct.itemsRead,
    tripsMean: Math.round((trips.reduce((a, b) => a + b, 0) / trips.length) * 100) / 100,
    tripsMax: Math.max(...trips),
    p50Ms: percentile(samples, 50),
  };
}

async function measure(runtime: Runtime): Promise<Omit<SubscriptionListing, 'dynamoLocalStopped'>> {
  const ctx = contextOf(runtime);
  const { sellerId } = await ctx.newSeller();
  const tenant = sandbox(sellerId);
  const key = await testApiKey(ctx, sellerId);
  const products = await createProducts(ctx, tenant, PRODUCTS);
  const prices = await pricesOf(runtime, tenant, products);
  const started = performance.now();
  const seeded = await seed(runtime, tenant, prices);
  const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
  const customerId = seeded.busiest;
  const productId = products[0].id;
  const filters: Filter[] = [
    { label: 'none', query: {} },
    { label: 'status (common)', query: { status: 'active' } },
    { label: 'status (rare)', query: { status: 'pending' } },
    { label: 'customerId', query: { customerId } },
    { label: 'productId', query: { productId } },
    { label: 'status+customerId', query: { status: 'active', customerId } },
    { label: 'status (common)+productId', query: { status: 'active', productId } },
    { label: 'status (rare)+productId', query: { status: 'failed', productId } },
    { label: 'customerId+productId', query: { customerId, productId } },
    { label: 'none, page 50', query: { page: 50 } },
  ];
  const rows: ListingRow[] = [];
  for (const f of filters) rows.push(await measureFilter(runtime, tenant, key, f));
  const { busiest: _, ...counts } = seeded;
  return { seeded: SUBSCRIPTIONS_SEEDED, seedSeconds, ...counts, rows };
}

/** Starts its own local runtime, seeds, measures, stops it. */
export async function measureSubscriptionListing(): Promise<SubscriptionListing> {
  const { result, dynamoLocalStopped } = await onOwnRuntime('bench-sub-listing', measure);
  return { ...result, dynamoLocalStopped };
}

export function formatSubscriptionListing(r: SubscriptionListing): string {
  const mix = Object.entries(r.byStatus)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
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
    `Subscription listing: ${r.seeded} subscriptions of one seller (test), ${PRODUCTS} products, ${CUSTOMERS} customers,`,
    `seeded in ${r.seedSeconds} s through the repository (${CONCURRENCY} at a time, ${r.conflictRetries} conflict retries).`,
    `Statuses: ${mix}.`,
    'Items read = what DynamoDB read for one page of 20 (repository list, itemsRead); round trips and p50 =',
    `the HTTP GET with an sk_test_ key (authentication included), ${SAMPLES} requests after ${WARMUP} warm-up.`,
    table(['filter', 'request', 'total', 'page', 'items read', 'trips avg/max', 'p50 ms'], rows, 'llrrrrr'),
    `DynamoDB Local stopped after the run: ${r.dynamoLocalStopped ? 'yes' : 'NO, a java process is left'}`,
  ].join('\n');
}
