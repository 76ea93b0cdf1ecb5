import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { Deps } from '#shared/domain/deps';
import { limitQuery } from '#shared/domain/paging';
import type { ChargeStatus } from '#shared/domain/payments/gateway';
import type { Tenant } from '#shared/domain/tenant';
import type { TransactionStatus } from '#shared/domain/transactions/transaction';
import { NotFoundError } from '#shared/errors';
import { centavosToReais } from '#shared/money';

export const RECONCILIATION_NOT_FOUND = 'Reconciliation not found';

/** The EMF metric of the differences found (the stack alarms on any). */
export const RECONCILIATION_DIFFERENCES_METRIC = 'ReconciliationDifferences';

/** How many differences one record keeps in full (an item stays far below DynamoDB's 400 KB). */
export const MAX_RECORDED_DIFFERENCES = 200;

export type DifferenceKind =
  /** The provider holds a payment that names none of our transactions: reported, never turned into one. */
  | 'unknown_payment'
  /** A transaction of ours the provider holds no payment for. */
  | 'missing_payment'
  | 'amount_mismatch'
  | 'status_mismatch';

/** The provider notification type a repair applies (compare.ts: repairOf). */
export type Repair = 'charge.paid' | 'charge.refunded' | 'charge.charged_back';

export interface ReconciliationDifference {
  kind: DifferenceKind;
  providerPaymentId: string | null;
  gatewayPayId: number | null;
  transactionId: number | null;
  /** Centavos. */
  providerAmount: number | null;
  /** Centavos. */
  ourAmount: number | null;
  providerStatus: ChargeStatus | null;
  ourStatus: TransactionStatus | null;
  /** What was applied to repair it (a provider notification type), or null when only reported. */
  repair: Repair | null;
}

export interface Reconciliation {
  id: string;
  tenant: Tenant;
  provider: string;
  /** The Sao Paulo calendar day compared. */
  day: string;
  status: 'matched' | 'differences';
  providerPayments: number;
  transactions: number;
  differenceCount: number;
  repairedCount: number;
  /** The first MAX_RECORDED_DIFFERENCES differences. */
  differences: ReconciliationDifference[];
  createdAt: string;
}

/**
 * One id per tenant, provider and day, the same on every run (a re-run finds the record), and
 * unguessable across sellers: `rcn_<yyyymmdd>_<16 hex of the tenant, provider and day>`.
 */
export function reconciliationId(tenant: Tenant, provider: string, day: string): string {
  const digest = createHash('sha256')
    .update(`${tenant.sellerId}:${tenant.environment}:${provider}:${day}`)
    .digest('hex')
    .slice(0, 16);
  return `rcn_${day.replaceAll('-', '')}_${digest}`;
}

const ID = /^rcn_(\d{4})(\d{2})(\d{2})_([0-9a-f]{16})$/;

/** The day and digest of a well-formed id (the record's key); null for anything else. */
export function parseReconciliationId(id: string): { day: string; digest: string } | null {
  const m = ID.exec(id);
  return m ? { day: `${m[1]}-${m[2]}-${m[3]}`, digest: m[4] } : null;
}

const reais = (centavos: number | null) => (centavos === null ? null : centavosToReais(centavos));

export function toReconciliationView(r: Reconciliation) {
  return {
    id: r.id,
    provider: r.provider,
    day: r.day,
    environment: r.tenant.environment,
    status: r.status,
    providerPayments: r.providerPayments,
    transactions: r.transactions,
    differenceCount: r.differenceCount,
    repairedCount: r.repairedCount,
    differences: r.differences.map((d) => ({
      kind: d.kind,
      providerPaymentId: d.providerPaymentId,
      gatewayPayId: d.gatewayPayId,
      transactionId: d.transactionId,
      providerAmount: reais(d.providerAmount),
      ourAmount: reais(d.ourAmount),
      providerStatus: d.providerStatus,
      ourStatus: d.ourStatus,
      repair: d.repair,
    })),
    createdAt: r.createdAt,
  };
}

export const reconciliationIdParam = z.object({
  id: z.string().regex(ID, 'id must be a reconciliation id (rcn_…)'),
});

export const listReconciliationsQuery = z.object({
  limit: limitQuery,
  cursor: z.string().max(2048).optional(),
});

export type ReconciliationReadDeps = Pick<Deps, 'reconciliations'>;

/** The tenant's daily reconciliations with its provider, newest day first. */
export async function listReconciliations(
  deps: ReconciliationReadDeps,
  tenant: Tenant,
  query: z.output<typeof listReconciliationsQuery>,
) {
  const page = await deps.reconciliations.list(tenant, { limit: query.limit, cursor: query.cursor });
  return { data: page.items.map(toReconciliationView), nextCursor: page.cursor ?? null };
}

/** One reconciliation of the tenant; another tenant's answers as a missing one. */
export async function getReconciliation(deps: ReconciliationReadDeps, tenant: Tenant, id: string) {
  const found = await deps.reconciliations.get(tenant, id);
  if (!found) throw new NotFoundError(RECONCILIATION_NOT_FOUND);
  return toReconciliationView(found);
}
