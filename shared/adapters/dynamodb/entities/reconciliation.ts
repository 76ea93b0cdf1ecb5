import type { Reconciliation, ReconciliationDifference } from '#shared/domain/reconciliation/reconciliation';
import { keys } from '../keys';
import { defineEntity } from './entity';

/** A daily reconciliation with a provider, under its tenant, listed newest day first by its key. */
export const reconciliationEntity = defineEntity({
  entity: 'reconciliation',
  version: 1,
  key: (r: Reconciliation) => keys.reconciliation(r.tenant, r.day, r.id),
  patterns: {},
  attributes: (r) => ({
    id: r.id,
    sellerId: r.tenant.sellerId,
    environment: r.tenant.environment,
    provider: r.provider,
    day: r.day,
    status: r.status,
    providerPayments: r.providerPayments,
    transactions: r.transactions,
    differenceCount: r.differenceCount,
    repairedCount: r.repairedCount,
    differences: r.differences,
    createdAt: r.createdAt,
  }),
  fromItem: (item): Reconciliation => ({
    id: String(item.id),
    tenant: {
      sellerId: Number(item.sellerId),
      environment: item.environment as Reconciliation['tenant']['environment'],
    },
    provider: String(item.provider),
    day: String(item.day),
    status: item.status as Reconciliation['status'],
    providerPayments: Number(item.providerPayments),
    transactions: Number(item.transactions),
    differenceCount: Number(item.differenceCount),
    repairedCount: Number(item.repairedCount),
    differences: (item.differences as ReconciliationDifference[]) ?? [],
    createdAt: String(item.createdAt),
  }),
});
