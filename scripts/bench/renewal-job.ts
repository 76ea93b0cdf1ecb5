import { handler as jobsHandler } from '#functions/jobs/handler';
import type { Runtime } from '#infra/local/runtime';
import { jobId } from '#shared/domain/job-id';
import type { ScheduledJob } from '#shared/domain/ports';
import { SUBSCRIPTION_DUE_JOB, type SubscriptionView } from '#shared/domain/subscriptions/subscription';
import { percentile } from './endpoints';
import { contextOf } from './listing-cost';
import { providerOnly } from './provider-trips';
import { onOwnRuntime } from './standalone';
import { cardHolders, type SubscriptionSeller, subscribe, subscriptionSeller } from './subscription-fixtures';

/**
 * What one `subscription-due` job costs: the jobs function's handler run with the payload the
 * engine scheduled (as EventBridge Scheduler invokes it), on subscriptions whose period just ended,
 * each run measured alone (the runtime's background ticks are stopped, so every DynamoDB command in
 * the window is the job's). The sandbox provider keeps its charges, tokens and idempotency keys in
 * the same table (partitions `SANDBOX#…`); those commands are counted apart, since a real
 * provider is an HTTPS call, not a table round trip.
 */
export const RENEWALS = 20;
const WARMUP = 3;

export interface JobStats {
  runs: number;
  /** What the runs answered (DueOutcome.outcome), by outcome. */
  outcomes: Record<string, number>;
  /** Every DynamoDB command of the run, avg/max. */
  tripsMean: number;
  tripsMax: number;
  /** Of those, the service's own (subscription, transaction, outbox, counters, sequences). */
  serviceMean: number;
  serviceMax: number;
  /** Of those, the sandbox provider's (`SANDBOX#…` partitions). */
  providerMean: number;
  providerMax: number;
  /** Mean per run, by command; provider commands prefixed `sandbox `. */
  byCommand: Record<string, number>;
  p50Ms: number;
  maxMs: number;
}

export interface RenewalJob {
  renewals: number;
  /** The due job of a subscription whose period ended, paid by its saved card. */
  paid: JobStats;
  /** The same job fired again after it finished (EventBridge's at-least-once): it reads and stops. */
  secondRun: JobStats;
  /** The due job on a saved card that now declines: payment_failed, a retry in 3 days. */
  declined: JobStats;
  /** Two runs of the same job at once, counted together per pair. */
  concurrentPair: JobStats;
  /**
   * Card transactions written for the subscriptions' first payments and their renewal attempts
   * (paid, declined, concurrent pairs); one more than expected would be a job that charged twice.
   */
  chargeTransactions: number;
  expectedChargeTransactions: number;
  dynamoLocalStopped: boolean;
}

interface Traced {
  command: string;
  provider: boolean;
}

/** Records every command on the table's client with whether it touched the provider's partitions only. */
function traceCommands(runtime: Runtime) {
  let log: Traced[] = [];
  runtime.deps.table.client.middlewareStack.add(
    (next, context) => async (args) => {
      log.push({
        command: String(context.commandName ?? 'unknown').replace(/Command$/, ''),
        provider: providerOnly(args.input),
      });
      return next(args);
    },
    { step: 'initialize', name: 'benchRenewalTracer' },
  );
  return {
    take(): Traced[] {
      const out = log;
      log = [];
      return out;
    },
  };
}

interface Run {
  traced: Traced[];
  ms: number;
  outcomes: string[];
}

const round = (n: number) => Math.round(n * 100) / 100;
const mean = (values: number[]) => round(values.reduce((a, b) => a + b, 0) / Math.max(1, values.length));

function statsOf(runs: Run[]): JobStats {
  const trips = runs.map((r) => r.traced.length);
  const provider = runs.map((r) => r.traced.filter((t) => t.provider).length);
  const service = trips.map((n, i) => n - provider[i]);
  const byCommand: Record<string, number> = {};
  const outcomes: Record<string, number> = {};
  for (const r of runs) {
    for (const t of r.traced) {
      const name = t.provider ? `sandbox ${t.command}` : t.command;
      byCommand[name] = (byCommand[name] ?? 0) + 1;
    }
    for (const o of r.outcomes) outcomes[o] = (outcomes[o] ?? 0) + 1;
  }
  const ms = runs.map((r) => r.ms);
  return {
    runs: runs.length,
    outcomes,
    tripsMean: mean(trips),
    tripsMax: Math.max(...trips),
    serviceMean: mean(service),
    serviceMax: Math.max(...service),
    providerMean: mean(provider),
    providerMax: Math.max(...provider),
    byCommand: Object.fromEntries(Object.entries(byCommand).map(([k, v]) => [k, round(v / runs.length)])),
    p50Ms: round(percentile(ms, 50)),
    maxMs: round(Math.max(...ms)),
  };
}

/** The one-time schedule the engine made for the subscription's current due time. */
function dueJobOf(runtime: Runtime, s: SubscriptionView): ScheduledJob {
  const id = jobId(s, s.id);
  const entry = runtime.scheduler
    .pending()
    .find((e) => !e.everySeconds && e.payload.job === SUBSCRIPTION_DUE_JOB && e.payload.id === id);
  if (!entry) throw new Error(`renewal bench: no ${SUBSCRIPTION_DUE_JOB} schedule for subscription ${s.id}`);
  return entry.payload;
}

type Tracer = ReturnType<typeof traceCommands>;

/** Runs the jobs handler once per payload, all at once, and counts what they sent together. */
async function fire(tracer: Tracer, payloads: ScheduledJob[]): Promise<Run> {
  tracer.take();
  const started = performance.now();
  const answers = await Promise.all(payloads.map((p) => jobsHandler(p)));
  const ms = performance.now() - started;
  return {
    traced: tracer.take(),
    ms,
    outcomes: answers.map((a) => String((a as { outcome?: unknown } | undefined)?.outcome)),
  };
}

/** Active subscriptions of one seller, each on its own buyer's card (`number`: the card saved). */
async function dueSubscriptions(runtime: Runtime, count: number, number?: string) {
  const ctx = contextOf(runtime);
  const seller: SubscriptionSeller = await subscriptionSeller(ctx);
  const holders = await cardHolders(ctx, seller, count, 1, number);
  const subs: SubscriptionView[] = [];
  for (const holder of holders) subs.push(...(await subscribe(ctx, seller, holder, 1)));
  return { seller, holders, subs };
}

/** Card charges the sandbox made for the seller's test tenant (the service's transactions of it). */
async function cardTransactions(runtime: Runtime, seller: SubscriptionSeller): Promise<number> {
  const page = await runtime.deps.repos.transactions.list(seller.tenant, {
    page: 1,
    limit: 1,
    paymentMethod: 'creditcard',
  });
  return page.totalCount;
}

async function measure(runtime: Runtime): Promise<Omit<RenewalJob, 'dynamoLocalStopped'>> {
  const total = WARMUP + RENEWALS;
  const tracer = traceCommands(runtime);
  // Renewals that pay: set up, then the clock moves past every period's end (nothing runs meanwhile).
  const paidSet = await dueSubscriptions(runtime, total);
  const pairSet = await dueSubscriptions(runtime, total);
  // Renewals that decline: the cards pay their first charge, then the issuer declines them.
  const declinedSet = await dueSubscriptions(runtime, total);
  for (const holder of declinedSet.holders) {
    await runtime.deps.sandbox.setSavedCardOutcome(declinedSet.seller.tenant, holder.cards[0].token, {
      outcome: 'declined',
      failureCode: 'insufficient_funds',
    });
  }
  const all = [...paidSet.subs, ...pairSet.subs, ...declinedSet.subs];
  const lastDue = Math.max(...all.map((s) => Date.parse(s.nextPaymentAt as string)));
  runtime.clock.setTo(new Date(lastDue + 1000));

  const paid: Run[] = [];
  const second: Run[] = [];
  for (const [i, s] of paidSet.subs.entries()) {
    const job = dueJobOf(runtime, s);
    const first = await fire(tracer, [job]);
    const again = await fire(tracer, [job]);
    if (i < WARMUP) continue;
    paid.push(first);
    second.push(again);
  }
  const declined: Run[] = [];
  for (const [i, s] of declinedSet.subs.entries()) {
    const run = await fire(tracer, [dueJobOf(runtime, s)]);
    if (i >= WARMUP) declined.push(run);
  }
  const pairs: Run[] = [];
  for (const [i, s] of pairSet.subs.entries()) {
    const job = dueJobOf(runtime, s);
    const run = await fire(tracer, [job, job]);
    if (i >= WARMUP) pairs.push(run);
  }

  // Each paid and each pair subscription: its first payment and one renewal; each declined one:
  // its first payment and one declined attempt. A second run that charged again would show here.
  const charged =
    (await cardTransactions(runtime, paidSet.seller)) +
    (await cardTransactions(runtime, pairSet.seller)) +
    (await cardTransactions(runtime, declinedSet.seller));
  // The buyers' own card payments that saved the cards are card transactions too.
  const saves = 3 * total;
  return {
    renewals: RENEWALS,
    paid: statsOf(paid),
    secondRun: statsOf(second),
    declined: statsOf(declined),
    concurrentPair: statsOf(pairs),
    chargeTransactions: charged - saves,
    expectedChargeTransactions: 3 * total * 2,
  };
}

/** Starts its own local runtime, sets up and runs the jobs, stops it. */
export async function measureRenewalJob(): Promise<RenewalJob> {
  const { result, dynamoLocalStopped } = await onOwnRuntime('bench-renewal', measure);
  return { ...result, dynamoLocalStopped };
}
