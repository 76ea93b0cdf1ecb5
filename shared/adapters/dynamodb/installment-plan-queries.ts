import type { InstallmentPlan } from '#shared/domain/installment-plans/plan';
import type { InstallmentPlanPage, InstallmentPlanQuery } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { planEntity } from './entities/installment-plan';
import { keys } from './keys';
import { readNewestFirst } from './list-partitions';
import type { Item, Table } from './table';

const PLAN_ENTITY = planEntity.entity;
/** listByCustomer answers at most this many plans (the customer area). */
const CUSTOMER_LIST_LIMIT = 100;
/** listByCustomer leaves out plans completed or canceled longer ago than this. */
const CLOSED_SHOWN_MS = 90 * 86_400_000;
/** listByCustomer's bound on the items one request reads. */
const MAX_ITEMS_READ = 2_000;

const { byTenant, byStatus, byCustomer, byCustomerStatus } = planEntity.patterns;
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
  return { items: plans.slice(skip, wanted).map(planEntity.fromItem), totalCount, itemsRead };
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
  return found.slice(0, CUSTOMER_LIST_LIMIT).map(planEntity.fromItem);
}
