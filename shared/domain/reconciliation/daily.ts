import { addDays, isCalendarDate, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import type { Deps } from '#shared/domain/deps';
import type { PaymentProvider } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import type { ProviderNotification } from '#shared/domain/transactions/notifications';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { logger } from '#shared/logger';
import {
  differencesOf,
  expectedAtProvider,
  groupByGatewayPayId,
  missingPayment,
  repairOf,
  unknownPayment,
} from './compare';
import {
  MAX_RECORDED_DIFFERENCES,
  RECONCILIATION_DIFFERENCES_METRIC,
  type Reconciliation,
  type ReconciliationDifference,
  type Repair,
  reconciliationId,
} from './reconciliation';

/** The job of the daily reconciliation, fired once a day by its schedule (infra). */
export const RECONCILIATION_JOB = 'provider-reconciliation';
/** The schedule's job id: the day before the run's Sao Paulo day. Any YYYY-MM-DD id reconciles that day. */
export const RECONCILIATION_DAILY_ID = 'daily';
/** The live provider whose connected sellers are reconciled. */
export const RECONCILED_PROVIDER = 'asaas';

export type ReconciliationDeps = Pick<
  Deps,
  'transactions' | 'payments' | 'connections' | 'reconciliations' | 'clock' | 'metrics' | 'reporter'
> & {
  /** Applies a provider notification as a webhook would (receiveVerifiedNotification). */
  apply: (n: ProviderNotification) => Promise<{ applied?: boolean; duplicate?: boolean } | unknown>;
};

/**
 * Our transactions of the tenant created on `day`: the seller's list, newest id first, read back
 * until it reaches a transaction created before the day before. Ids only roughly follow time (a
 * container hands out ids from a block it claimed earlier), so the day's transactions may sit among
 * the previous day's; a container never keeps a block for a day.
 */
async function transactionsOfDay(
  deps: ReconciliationDeps,
  tenant: Tenant,
  day: string,
): Promise<Transaction[]> {
  const start = startOfSaoPauloDay(day).toISOString();
  const end = startOfSaoPauloDay(addDays(day, 1)).toISOString();
  const floor = startOfSaoPauloDay(addDays(day, -1)).toISOString();
  const out: Transaction[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await deps.transactions.list(tenant, {
      page: 1,
      limit: 100,
      createdBefore: end,
      cursor,
      countTotal: false,
    });
    out.push(...page.items.filter((t) => t.createdAt >= start));
    if (!page.cursor || page.items.some((t) => t.createdAt < floor)) return out;
    cursor = page.cursor;
  }
}

/** The provider notification a repair applies: one id per charge and outcome, so it applies once. */
function repairNotification(repair: Repair, t: Transaction, now: Date): ProviderNotification {
  return {
    id: `reconciliation_${t.provider}_${t.gatewayPayId}_${repair}`,
    provider: t.provider,
    type: repair,
    gatewayPayId: t.gatewayPayId,
    occurredAt: now.toISOString(),
  };
}

async function applyRepair(deps: ReconciliationDeps, d: ReconciliationDifference, t: Transaction) {
  const repair = d.providerStatus ? repairOf(d.providerStatus, t) : null;
  if (!repair) return d;
  const result = (await deps.apply(repairNotification(repair, t, deps.clock.now()))) as {
    applied?: boolean;
    duplicate?: boolean;
  };
  return result.applied || result.duplicate ? { ...d, repair } : d;
}

/**
 * Compares the provider's payments of one tenant's day with our transactions of that day, repairs
 * what the provider moved forward (through the notification path, with its events and follow-ups)
 * and records every difference once: a record that exists means the day was reconciled, and is
 * answered as it is.
 */
export async function reconcileTenantDay(
  deps: ReconciliationDeps,
  tenant: Tenant,
  provider: PaymentProvider,
  day: string,
): Promise<Reconciliation> {
  const id = reconciliationId(tenant, provider.provider, day);
  const existing = await deps.reconciliations.get(tenant, id);
  if (existing) return existing;
  const payments = await provider.listPayments(tenant, day);
  const ours = (await transactionsOfDay(deps, tenant, day)).filter((t) => t.provider === provider.provider);
  const { charges, unknown } = groupByGatewayPayId(payments);
  const differences: ReconciliationDifference[] = [];
  const matched = new Set<number>();

  for (const t of ours) {
    const charge = charges.get(t.gatewayPayId);
    if (charge) {
      matched.add(t.gatewayPayId);
      for (const d of differencesOf(charge, t)) differences.push(await applyRepair(deps, d, t));
      continue;
    }
    if (!expectedAtProvider(t)) continue;
    // Not listed on this day: held on another one (created around midnight), or not held at all.
    const status = await provider.status(t.gatewayPayId);
    if (status === null) differences.push(missingPayment(t));
    else
      for (const d of differencesOf(
        { providerPaymentId: String(t.gatewayPayId), status, amountCentavos: null },
        t,
      ))
        differences.push(await applyRepair(deps, d, t));
  }
  for (const charge of charges.values()) {
    if (matched.has(charge.gatewayPayId)) continue;
    // Ours, created on another day (our record is written after the provider's payment).
    const t = (await deps.transactions.findByGatewayPayId(charge.gatewayPayId)).find(
      (c) =>
        c.provider === provider.provider &&
        c.tenant.sellerId === tenant.sellerId &&
        c.tenant.environment === tenant.environment,
    );
    if (!t) differences.push(unknownPayment({ ...charge, gatewayPayId: charge.gatewayPayId }));
    else for (const d of differencesOf(charge, t)) differences.push(await applyRepair(deps, d, t));
  }
  differences.push(...unknown.map(unknownPayment));

  const record: Reconciliation = {
    id,
    tenant,
    provider: provider.provider,
    day,
    status: differences.length === 0 ? 'matched' : 'differences',
    providerPayments: payments.length,
    transactions: ours.length,
    differenceCount: differences.length,
    repairedCount: differences.filter((d) => d.repair !== null).length,
    differences: differences.slice(0, MAX_RECORDED_DIFFERENCES),
    createdAt: deps.clock.now().toISOString(),
  };
  // A concurrent run of the same day stored it first: its record stands (repairs are idempotent).
  if (!(await deps.reconciliations.create(record)))
    return (await deps.reconciliations.get(tenant, id)) ?? record;
  report(deps, record);
  return record;
}

/** Every run leaves a line and a metric; a day with differences is a warning for the operator. */
function report(deps: ReconciliationDeps, r: Reconciliation) {
  deps.metrics.count(RECONCILIATION_DIFFERENCES_METRIC, r.differenceCount);
  const kinds: Record<string, number> = {};
  for (const d of r.differences) kinds[d.kind] = (kinds[d.kind] ?? 0) + 1;
  const line = {
    reconciliationId: r.id,
    sellerId: r.tenant.sellerId,
    environment: r.tenant.environment,
    provider: r.provider,
    day: r.day,
    providerPayments: r.providerPayments,
    transactions: r.transactions,
    differenceCount: r.differenceCount,
    repairedCount: r.repairedCount,
    kinds,
  };
  if (r.differenceCount > 0) logger.warn('reconciliation found differences', line);
  else logger.info('reconciliation matched', line);
}

/** The day a job id names: `daily` is the day before the run's Sao Paulo day. */
export function dayOfJob(id: string, now: Date): string | null {
  if (id === RECONCILIATION_DAILY_ID) return addDays(saoPauloDate(now), -1);
  return isCalendarDate(id) ? id : null;
}

/**
 * Job: reconciles the day with the live provider for every seller connected to it. One seller's
 * failure (its provider unreachable, its key revoked) is reported and the others go on; the job
 * then fails, so its retry reconciles what is still missing (the recorded ones are not redone).
 */
export async function runReconciliationJob(deps: ReconciliationDeps, jobId: string) {
  const day = dayOfJob(jobId, deps.clock.now());
  if (!day) return { skipped: 'bad id' };
  const provider = deps.payments.byName(RECONCILED_PROVIDER);
  if (!provider) return { skipped: 'no provider' };
  let reconciled = 0;
  let differences = 0;
  const failed: unknown[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.connections.connectedSellers(RECONCILED_PROVIDER, cursor);
    for (const sellerId of page.sellerIds) {
      const tenant: Tenant = { sellerId, environment: 'live' };
      try {
        const r = await reconcileTenantDay(deps, tenant, provider, day);
        reconciled += 1;
        differences += r.differenceCount;
      } catch (error) {
        deps.reporter.error('could not reconcile a seller with its provider', error, { sellerId, day });
        failed.push(error);
      }
    }
    cursor = page.cursor;
  } while (cursor);
  if (failed.length > 0)
    throw new AggregateError(failed, `${failed.length} seller(s) not reconciled for ${day}`);
  return { day, reconciled, differences };
}
