import { readNumberedPage } from '#shared/domain/paging';
import { todayOf } from '#shared/domain/payments/late-charge-settings';
import type { Tenant } from '#shared/domain/tenant';
import { type Transaction, toTransactionView } from '#shared/domain/transactions/transaction';
import { NotFoundError } from '#shared/errors';
import {
  isPayment,
  SCHEDULED_CHARGE_NOT_FOUND,
  type ScheduledCharge,
  type TimelineEntry,
  toCycleView,
  toScheduledChargeView,
} from './charge';
import type { ScheduledChargeDeps } from './deps';
import type { ListScheduledChargesInput } from './schemas';

/** A charge of the tenant; another seller's or environment's answers exactly like a missing one. */
export async function findCharge(
  deps: Pick<ScheduledChargeDeps, 'scheduledCharges'>,
  tenant: Tenant,
  id: string,
): Promise<ScheduledCharge> {
  const found = await deps.scheduledCharges.get(tenant, id);
  if (!found) throw new NotFoundError(SCHEDULED_CHARGE_NOT_FOUND);
  return found;
}

export const toTimelineView = (e: TimelineEntry) => ({
  id: e.id,
  kind: e.kind,
  cycleNumber: e.cycleNumber,
  data: e.data,
  createdAt: e.createdAt,
});

/** Every transaction of every cycle, oldest first, as the transaction API shows them. */
export async function transactionsOf(
  deps: Pick<ScheduledChargeDeps, 'transactions'>,
  charge: ScheduledCharge,
): Promise<Transaction[]> {
  const ids = [...new Set(charge.cycles.flatMap((c) => c.transactionIds))];
  const found = await Promise.all(ids.map((id) => deps.transactions.get(charge.tenant, id)));
  return found.filter((t): t is Transaction => t !== null);
}

/**
 * The detail view: the charge, its cycles with their pay links and issued pix and boleto, its
 * payments (`transactions`, oldest first: spec, a mark-paid creates none, "so the transactions array
 * stays empty") and its timeline (newest first).
 */
export async function toChargeDetail(
  deps: Pick<ScheduledChargeDeps, 'scheduledCharges' | 'transactions' | 'publicBaseUrl' | 'clock'>,
  charge: ScheduledCharge,
) {
  const today = todayOf(deps.clock);
  const [transactions, timeline] = await Promise.all([
    transactionsOf(deps, charge),
    deps.scheduledCharges.timeline(charge.tenant, charge.id),
  ]);
  const byId = new Map(transactions.map((t) => [t.id, t]));
  return {
    ...toScheduledChargeView(charge),
    cycles: charge.cycles.map((c) => toCycleView(charge, c, deps.publicBaseUrl, byId, today)),
    transactions: transactions.filter(isPayment).map((t) => toTransactionView(t, today)),
    timeline: timeline.map(toTimelineView),
  };
}

/** GET /api/v1/scheduled-charges/{id}. */
export async function getScheduledCharge(
  deps: Pick<ScheduledChargeDeps, 'scheduledCharges' | 'transactions' | 'publicBaseUrl' | 'clock'>,
  tenant: Tenant,
  id: string,
) {
  return toChargeDetail(deps, await findCharge(deps, tenant, id));
}

/**
 * GET /api/v1/scheduled-charges: newest first, every filter served by the repository's indexes
 * (docs/decisions.md); numbered pages read from the start, so page × limit is bounded.
 */
export async function listScheduledCharges(
  deps: Pick<ScheduledChargeDeps, 'scheduledCharges'>,
  tenant: Tenant,
  query: ListScheduledChargesInput,
) {
  const page = await readNumberedPage(query, (at) =>
    deps.scheduledCharges.list(tenant, {
      statuses: query.status ?? [],
      customerId: query.customerId,
      type: query.type,
      dueDateFrom: query.dueDateFrom,
      dueDateTo: query.dueDateTo,
      search: query.search,
      ...at,
    }),
  );
  return numberedPage(page, query.limit, toScheduledChargeView);
}

/** A repository page as a list answers it: `{data, count, totalCount, totalPages}`. */
export function numberedPage<T, V>(
  page: { items: T[]; totalCount: number },
  limit: number,
  view: (item: T) => V,
) {
  return {
    data: page.items.map(view),
    count: page.items.length,
    totalCount: page.totalCount,
    totalPages: Math.ceil(page.totalCount / limit),
  };
}
