import type { InstallmentPlan } from '#shared/domain/installment-plans/plan';
import type { InstallmentPlanPage, InstallmentPlanQuery } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { keys } from './keys';
import { type ListPartition, readNewestFirst } from './list-partitions';
import type { Item, Table } from './table';
import { TABLE } from './table-definition';
import { fromTenantAttributes, tenantAttributes } from './tenant-fields';

export const PLAN_ENTITY = 'installment-plan';
/** listByCustomer answers at most this many plans (the customer area). */
const CUSTOMER_LIST_LIMIT = 100;
/** listByCustomer leaves out plans completed or canceled longer ago than this. */
const CLOSED_SHOWN_MS = 90 * 86_400_000;
/** listByCustomer's bound on the items one request reads. */
const MAX_ITEMS_READ = 2_000;

const {
  byUuidOrOwner: byTenant,
  byStatusOrName: byStatus,
  byCustomer,
  byProduct: byCustomerStatus,
} = TABLE.indexes;

/**
 * The four list partitions a plan is in (all, status, customer, customer and status), each sorted
 * by `createdAt#uuid` and headed by its counter, so every filter of `list` (statuses and/or
 * customer) is one or more whole partitions. The order is fixed: counters move by position.
 */
export function planPartitions(p: InstallmentPlan): ListPartition[] {
  return [
    { scope: 'ALL', index: byTenant, value: keys.installmentPlansOfTenant(p.tenant) },
    {
      scope: `STATUS#${p.status}`,
      index: byStatus,
      value: keys.installmentPlansByStatus(p.tenant, p.status),
    },
    {
      scope: `CUSTOMER#${p.customer.id}`,
      index: byCustomer,
      value: keys.installmentPlansOfCustomer(p.tenant, p.customer.id),
    },
    {
      scope: `CUSTSTATUS#${p.customer.id}#${p.status}`,
      index: byCustomerStatus,
      value: keys.installmentPlansOfCustomerByStatus(p.tenant, p.customer.id, p.status),
    },
  ];
}

/** The plan's attributes, one each, top level; its installments are one list attribute. */
export const PLAN_FIELDS = [
  'uuid',
  'status',
  'cancelReason',
  'product',
  'customer',
  'affiliate',
  'installments',
  'installmentsPaid',
  'baseValue',
  'fator',
  'installmentAmount',
  'totalScheduled',
  'totalCollected',
  'firstDueDate',
  'installmentsDetail',
  'overdueInstallments',
  'dueAt',
  'fingerprint',
  'activatedAt',
  'completedAt',
  'canceledAt',
  'createdAt',
  'updatedAt',
  'version',
] as const satisfies readonly Exclude<keyof InstallmentPlan, 'tenant'>[];

export const planAttributes = (p: InstallmentPlan): Item => tenantAttributes(p, PLAN_FIELDS);
export const toPlan = (item: Item): InstallmentPlan =>
  fromTenantAttributes<InstallmentPlan>(item, PLAN_FIELDS);
const listOrder = (item: Item) => keys.installmentPlanListOrder(String(item.createdAt), String(item.uuid));

/**
 * Statuses and customer pick whole partitions: none → all; statuses → one per status; customer →
 * the customer's; both → one per (customer, status). Each partition is read newest first up to
 * the page's end, merged, and totalCount is their counters' sum: a page of `limit` reads at most
 * (page × limit + 1) items per partition, whatever the filters.
 */
export async function listInstallmentPlans(
  table: Table,
  tenant: Tenant,
  q: InstallmentPlanQuery,
): Promise<InstallmentPlanPage> {
  const statuses = [...new Set(q.statuses)];
  const { customerId } = q;
  const partitions =
    statuses.length === 0
      ? customerId === undefined
        ? [{ index: byTenant, value: keys.installmentPlansOfTenant(tenant) }]
        : [{ index: byCustomer, value: keys.installmentPlansOfCustomer(tenant, customerId) }]
      : statuses.map((s) =>
          customerId === undefined
            ? { index: byStatus, value: keys.installmentPlansByStatus(tenant, s) }
            : {
                index: byCustomerStatus,
                value: keys.installmentPlansOfCustomerByStatus(tenant, customerId, s),
              },
        );
  const skip = (q.page - 1) * q.limit;
  const wanted = skip + q.limit;
  const { rows, totalCount, itemsRead } = await readNewestFirst(table, partitions, wanted);
  const plans = rows.filter((item) => item.entity === PLAN_ENTITY);
  plans.sort((a, b) => (listOrder(a) < listOrder(b) ? 1 : listOrder(a) > listOrder(b) ? -1 : 0));
  return { items: plans.slice(skip, wanted).map(toPlan), totalCount, itemsRead };
}

/**
 * The customer's plans newest first, but those completed or canceled before `now` − 90 days (a
 * filter expression on the customer's partition), at most 100.
 */
export async function listPlansOfCustomer(
  table: Table,
  tenant: Tenant,
  customerId: number,
  now: Date,
): Promise<InstallmentPlan[]> {
  const cutoff = new Date(now.getTime() - CLOSED_SHOWN_MS).toISOString();
  const found: Item[] = [];
  let read = 0;
  let cursor: string | undefined;
  do {
    const page = await table.query<Item>({
      IndexName: byCustomer.name,
      KeyConditionExpression: '#pk = :pk',
      FilterExpression:
        '#entity = :plan AND NOT ((#status = :completed AND completedAt < :cutoff) OR (#status = :canceled AND canceledAt < :cutoff))',
      ExpressionAttributeNames: { '#pk': byCustomer.partitionKey, '#entity': 'entity', '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': keys.installmentPlansOfCustomer(tenant, customerId),
        ':plan': PLAN_ENTITY,
        ':completed': 'completed',
        ':canceled': 'canceled',
        ':cutoff': cutoff,
      },
      ScanIndexForward: false,
      cursor,
    });
    read += page.scanned ?? page.items.length;
    found.push(...page.items);
    cursor = page.cursor;
  } while (cursor && found.length < CUSTOMER_LIST_LIMIT && read < MAX_ITEMS_READ);
  return found.slice(0, CUSTOMER_LIST_LIMIT).map(toPlan);
}
