import type { Runtime } from '#infra/local/runtime';
import { addDays } from '#shared/dates';
import type { ScheduledChargeQuery } from '#shared/domain/ports';
import {
  type ChargeStatus,
  type ChargeType,
  SCHEDULED_CHARGE_PREFIX,
  type ScheduledCharge,
} from '#shared/domain/scheduled-charges/charge';
import type { Tenant } from '#shared/domain/tenant';
import { percentile } from './endpoints';
import { sandbox } from './fixtures';
import { contended, contextOf, pick, pooled, random } from './listing-cost';
import { table } from './report';
import { onOwnRuntime } from './standalone';
import { buyer } from './transaction-recipes';

/**
 * What GET /api/v1/scheduled-charges costs in DynamoDB when one seller has SEEDED charges: the
 * charges of one test tenant written straight through the repository (one cycle each, no
 * timeline, no events, no HTTP), then each filter read through the repository: the items
 * DynamoDB read for a page of 20 (`itemsRead`, counters included) and the repository call's p50.
 */
export const SCHEDULED_CHARGES_SEEDED = 10_000;
/** About five charges per customer. */
const CUSTOMERS = 2_000;
/** More at once only queues in DynamoDB Local and contends on the list counters. */
const CONCURRENCY = 8;
const SAMPLES = 10;
const LIMIT = 20;

/** A plausible book: most charges settled or waiting, a few late. */
const STATUS_MIX: Record<ChargeStatus, number> = {
  paid: 45,
  scheduled: 30,
  overdue: 8,
  due_today: 2,
  canceled: 6,
  recurrence_canceled: 3,
  paused: 2,
  trial: 2,
  pending_tokenization: 2,
};
const TYPE_MIX: Record<ChargeType, number> = { one_time: 70, recurring: 30 };

export interface ScheduledChargeListingRow {
  filter: string;
  totalCount: number;
  pageItems: number;
  itemsRead: number;
  p50Ms: number;
}

export interface ScheduledChargeListing {
  seeded: number;
  seedSeconds: number;
  conflictRetries: number;
  byStatus: Record<string, number>;
  rows: ScheduledChargeListingRow[];
  dynamoLocalStopped: boolean;
}

const idOf = (n: number) => `${SCHEDULED_CHARGE_PREFIX}test_${String(n).padStart(24, '0')}`;

function chargeOf(
  n: number,
  tenant: Tenant,
  customer: ScheduledCharge['customer'],
  today: string,
  rand: () => number,
) {
  const status = pick(rand(), STATUS_MIX);
  const type = pick(rand(), TYPE_MIX);
  // Due dates over a year around today: settled ones mostly past, waiting ones mostly ahead.
  const offset = Math.floor(rand() * 365) - (status === 'scheduled' || status === 'trial' ? 0 : 300);
  const dueDate = addDays(today, status === 'overdue' ? -1 - Math.floor(rand() * 60) : offset);
  const at = new Date(
    Date.parse(`${today}T12:00:00.000Z`) - (SCHEDULED_CHARGES_SEEDED - n) * 60_000,
  ).toISOString();
  const charge: ScheduledCharge = {
    id: idOf(n),
    tenant,
    type,
    status,
    customer,
    product: null,
    description: null,
    amount: 5_000 + (n % 50) * 100,
    methods: ['pix', 'boleto'],
    dueDate,
    anchorDate: dueDate,
    recurrence:
      type === 'recurring'
        ? { interval: 'month', intervalCount: 1, endAfterCycles: null, endDate: null }
        : null,
    trialDays: 0,
    trialEndsOn: null,
    paymentMethod: null,
    cancelAtPeriodEnd: false,
    pausedAt: null,
    canceledAt: null,
    cycles: [
      {
        number: 1,
        dueDate,
        amount: 5_000,
        status: status === 'paid' ? 'paid' : status === 'overdue' ? 'overdue' : 'scheduled',
        payToken: `cob_${tenant.sellerId}_${idOf(n)}_bench${String(n).padStart(27, '0')}`,
        transactionIds: [],
        issued: { pix: null, boleto: null },
        remindersSent: [],
        paidAt: null,
        paidBy: null,
        paidTransactionId: null,
        paymentDate: null,
        externalReference: null,
        attemptCount: 0,
        nextRetryAt: null,
        claim: null,
        failureCode: null,
        failureReason: null,
        gatewayFailureCode: null,
        createdAt: at,
        updatedAt: at,
      },
    ],
    overdueCycles: status === 'overdue' ? 1 : 0,
    dueAt: null,
    reminderOffsets: null,
    timelineSeq: 0,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  return charge;
}

async function seed(runtime: Runtime, tenant: Tenant) {
  const repo = runtime.deps.repos.scheduledCharges;
  const customers = Array.from({ length: CUSTOMERS }, (_, k) => {
    const b = buyer(tenant.sellerId, k);
    return {
      id: 900_000 + k,
      uuid: runtime.deps.ids.uuid(),
      name: b.name,
      email: b.email,
      document: b.document,
    };
  });
  const rand = random(20_261_123);
  const today = runtime.clock.now().toISOString().slice(0, 10);
  const all = Array.from({ length: SCHEDULED_CHARGES_SEEDED }, (_, n) =>
    chargeOf(n + 1, tenant, customers[Math.floor(rand() * customers.length)], today, rand),
  );
  let conflictRetries = 0;
  await pooled(all.length, CONCURRENCY, async (n) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await repo.create(all[n], { events: [], timeline: [] });
        return;
      } catch (error) {
        if (!contended(error) || attempt >= 100) throw error;
        conflictRetries += 1;
        await new Promise((ok) => setTimeout(ok, Math.random() * 5 * Math.min(attempt, 10)));
      }
    }
  });
  const byStatus = all.reduce<Record<string, number>>((acc, c) => {
    acc[c.status] = (acc[c.status] ?? 0) + 1;
    return acc;
  }, {});
  const perCustomer = new Map<number, number>();
  for (const c of all) perCustomer.set(c.customer.id, (perCustomer.get(c.customer.id) ?? 0) + 1);
  const busiest = [...perCustomer.entries()].sort((a, b) => b[1] - a[1])[0][0];
  return { conflictRetries, byStatus, busiest, today, sample: all[0].customer };
}

interface Filter {
  label: string;
  query: Partial<ScheduledChargeQuery>;
}

async function measureFilter(
  runtime: Runtime,
  tenant: Tenant,
  f: Filter,
): Promise<ScheduledChargeListingRow> {
  const q: ScheduledChargeQuery = { statuses: [], page: 1, limit: LIMIT, ...f.query };
  const repo = runtime.deps.repos.scheduledCharges;
  const first = await repo.list(tenant, q);
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await repo.list(tenant, q);
    samples.push(performance.now() - started);
  }
  return {
    filter: f.label,
    totalCount: first.totalCount,
    pageItems: first.items.length,
    itemsRead: first.itemsRead,
    p50Ms: percentile(samples, 50),
  };
}

async function measure(runtime: Runtime): Promise<Omit<ScheduledChargeListing, 'dynamoLocalStopped'>> {
  const ctx = contextOf(runtime);
  const { sellerId } = await ctx.newSeller();
  const tenant = sandbox(sellerId);
  const started = performance.now();
  const seeded = await seed(runtime, tenant);
  const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
  const { busiest: customerId, today, sample } = seeded;
  const month = { dueDateFrom: addDays(today, -15), dueDateTo: addDays(today, 15) };
  const filters: Filter[] = [
    { label: 'none', query: {} },
    { label: 'none, page 50', query: { page: 50 } },
    { label: 'status (common: paid)', query: { statuses: ['paid'] } },
    { label: 'status (rare: due_today)', query: { statuses: ['due_today'] } },
    { label: 'statuses overdue+due_today', query: { statuses: ['overdue', 'due_today'] } },
    { label: 'customerId', query: { customerId } },
    { label: 'type recurring', query: { type: 'recurring' } },
    { label: 'dueDate ±15 days', query: month },
    { label: 'status scheduled + dueDate ±15 days', query: { statuses: ['scheduled'], ...month } },
    { label: 'type one_time + status overdue', query: { type: 'one_time', statuses: ['overdue'] } },
    { label: 'customerId + status paid', query: { customerId, statuses: ['paid'] } },
    { label: 'search e-mail', query: { search: sample.email } },
    { label: 'search document', query: { search: sample.document } },
    { label: 'search name (one customer)', query: { search: sample.name } },
    { label: 'search name prefix "Bench Buyer 1"', query: { search: 'Bench Buyer 1' } },
    { label: 'search name prefix "bench" (all)', query: { search: 'bench' } },
    { label: 'search e-mail + status paid', query: { search: sample.email, statuses: ['paid'] } },
  ];
  const rows: ScheduledChargeListingRow[] = [];
  for (const f of filters) rows.push(await measureFilter(runtime, tenant, f));
  return {
    seeded: SCHEDULED_CHARGES_SEEDED,
    seedSeconds,
    conflictRetries: seeded.conflictRetries,
    byStatus: seeded.byStatus,
    rows,
  };
}

/** Starts its own local runtime, seeds, measures, stops it. */
export async function measureScheduledChargeListing(): Promise<ScheduledChargeListing> {
  const { result, dynamoLocalStopped } = await onOwnRuntime('bench-sch-listing', measure);
  return { ...result, dynamoLocalStopped };
}

export function formatScheduledChargeListing(r: ScheduledChargeListing): string {
  const mix = Object.entries(r.byStatus)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const rows = r.rows.map((row) => [
    row.filter,
    String(row.totalCount),
    String(row.pageItems),
    String(row.itemsRead),
    row.p50Ms.toFixed(2),
  ]);
  return [
    `Scheduled charge listing: ${r.seeded} charges of one seller (test), ${CUSTOMERS} customers, seeded in`,
    `${r.seedSeconds} s through the repository (${CONCURRENCY} at a time, ${r.conflictRetries} conflict retries).`,
    `Statuses: ${mix}.`,
    `Items read = what DynamoDB read for one page of ${LIMIT} (repository list, itemsRead, counters included);`,
    `p50 = the repository call against DynamoDB Local, ${SAMPLES} calls.`,
    table(['filter', 'total', 'page', 'items read', 'p50 ms'], rows, 'lrrrr'),
    `DynamoDB Local stopped after the run: ${r.dynamoLocalStopped ? 'yes' : 'NO, a java process is left'}`,
  ].join('\n');
}
