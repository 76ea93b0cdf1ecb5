import type { Transaction } from '#shared/domain/transactions/transaction';
import { keys } from '../keys';
import { fromTenantAttributes, ON_A_CLOCK, tenantAttributes } from '../tenant-fields';
import { defineEntity } from './entity';

const DATA_FIELDS = [
  'id',
  'uuid',
  'provider',
  'gatewayPayId',
  'status',
  'paymentMethod',
  'value',
  'valueSeller',
  'installments',
  'customer',
  'product',
  'pix',
  'boleto',
  'card',
  'failureCode',
  'failureReason',
  'refunds',
  'refundedAmount',
  'paidAt',
  'canceledAt',
  'deadline',
  'metadata',
  'checkoutSessionId',
  'clientReferenceId',
  'affiliate',
  'recurring',
  'scheduledCharge',
  'installmentPlan',
  'paidAmount',
  'lateCharges',
  'collected',
  'paidWith',
  'chargeback',
  'createdAt',
  'updatedAt',
  'version',
] as const;

/** The item attribute saying the seller's daily figures count the transaction as stored. */
export const IN_DAILY_FIGURES = 'inDailyFigures';

const newestFirst = (pk: string, t: Transaction) => ({ pk, sk: keys.numeric(t.id) });

/**
 * A transaction, in its tenant's partition under its numeric id; `version` is its optimistic lock.
 * Card brand and last 4 only. Each list pattern is headed by its counter (`~COUNT`), kept in the
 * transaction's writes.
 */
export const transactionEntity = defineEntity({
  entity: 'transaction',
  key: (t: Transaction) => keys.transaction(t.tenant, t.id),
  patterns: {
    byUuid: {
      index: 'gsi1',
      doc: '`TXNUUID#<uuid>` / `TXN`: a transaction by its uuid',
      at: (t) => ({ pk: keys.transactionByUuid(t.uuid), sk: 'TXN' }),
    },
    byStatus: {
      index: 'gsi2',
      doc: "`SELLER#<id>#<env>#TXNSTATUS#<status>` / id: a tenant's transactions per status, newest first, with its counter",
      at: (t) => newestFirst(keys.transactionsByStatus(t.tenant, t.status), t),
    },
    byGatewayPayId: {
      index: 'gsi3',
      doc: "`GATEWAYPAY#<gatewayPayId>` / `<provider>#<seller>#<env>`: transactions by the provider's payment id (notifications, the panel's cancel)",
      at: (t) => ({
        pk: keys.transactionByGatewayId(t.gatewayPayId),
        sk: `${t.provider}#${t.tenant.sellerId}#${t.tenant.environment}`,
      }),
    },
    byProduct: {
      index: 'gsi4',
      doc: "`…#TXNPRODUCT#<productId>` / id: a tenant's transactions of one product, newest first, with its counter",
      at: (t) => newestFirst(keys.transactionsOfProduct(t.tenant, t.product.id), t),
    },
    byCustomer: {
      index: 'gsi5',
      doc: "`…#TXNCUSTOMER#<customerId>` / id: a tenant's transactions of one customer, newest first, with its counter",
      at: (t) => newestFirst(keys.transactionsOfCustomer(t.tenant, t.customer.id), t),
    },
    byStatusAndMethod: {
      index: 'gsi6',
      doc: "`…#TXNSTATUSMETHOD#<status>#<method>` / id: a tenant's transactions of one status and one payment method, newest first, with its counter (the list's combined filter reads the page, not the whole status)",
      at: (t) => newestFirst(keys.transactionsByStatusAndMethod(t.tenant, t.status, t.paymentMethod), t),
    },
  },
  attributes: (t) => tenantAttributes(t, DATA_FIELDS, ON_A_CLOCK),
  fromItem: (item): Transaction => {
    const {
      recurring,
      scheduledCharge,
      installmentPlan,
      paidAmount,
      lateCharges,
      collected,
      paidWith,
      chargeback,
      ...t
    } = fromTenantAttributes<Transaction>(item, DATA_FIELDS, ON_A_CLOCK);
    // Only a subscription's, a scheduled charge's or a carnê's transaction carries its link: the
    // others read back as they were written, without.
    return {
      ...t,
      ...(recurring ? { recurring } : {}),
      ...(scheduledCharge ? { scheduledCharge } : {}),
      ...(installmentPlan ? { installmentPlan } : {}),
      ...(typeof paidAmount === 'number' ? { paidAmount } : {}),
      ...(chargeback ? { chargeback } : {}),
      // Every write since the daily figures exist marks the item (transaction-repository.ts).
      ...(item[IN_DAILY_FIGURES] ? {} : { outsideDailyFigures: true as const }),
      ...(lateCharges ? { lateCharges } : {}),
      ...(collected ? { collected } : {}),
      ...(paidWith ? { paidWith } : {}),
    };
  },
});
