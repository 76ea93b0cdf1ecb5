import type { InstallmentPlan } from '#shared/domain/installment-plans/plan';
import { hourBucketPlace, testClockDuePlace } from '../due-buckets';
import { keys } from '../keys';
import type { ListPartition } from '../list-partitions';
import { fromTenantAttributes, ON_A_CLOCK, tenantAttributes } from '../tenant-fields';
import { defineEntity } from './entity';

/** The plan's attributes, one each, top level; its installments are one list attribute. */
const PLAN_FIELDS = [
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
  'reminderOffsets',
  'fingerprint',
  'booklet',
  'activatedAt',
  'completedAt',
  'canceledAt',
  'createdAt',
  'updatedAt',
  'version',
] as const satisfies readonly Exclude<keyof InstallmentPlan, 'tenant'>[];

const listed = (pk: string, p: InstallmentPlan) => ({
  pk,
  sk: keys.installmentPlanListOrder(p.createdAt, p.uuid),
});

/**
 * An installment plan (carnê) with its (at most 12) installments inline, in its tenant's partition
 * under its uuid; `version` is its optimistic lock. Listed newest first (createdAt, then uuid) in
 * four partitions (all, status, customer, customer and status), each headed by its counter, so
 * every filter of the list is one or more whole partitions.
 */
export const planEntity = defineEntity({
  entity: 'installment-plan',
  key: (p: InstallmentPlan) => keys.installmentPlan(p.tenant, p.uuid),
  patterns: {
    byTenant: {
      index: 'gsi1',
      doc: "`SELLER#<id>#<env>#PLANS` / `<createdAt>#<uuid>`: a tenant's installment plans newest first, with their counter",
      at: (p) => listed(keys.installmentPlansOfTenant(p.tenant), p),
    },
    byStatus: {
      index: 'gsi2',
      doc: '`…#PLANSTATUS#<status>` / `<createdAt>#<uuid>`: installment plans per status newest first, with their counter',
      at: (p) => listed(keys.installmentPlansByStatus(p.tenant, p.status), p),
    },
    byDueHour: {
      index: 'gsi3',
      doc: "`DUE#PLAN#<YYYY-MM-DDTHH>` / `<dueAt>#<job id>`: installment plans by the hour of their `dueAt` (the heartbeat's sweep); only while something is due",
      at: (p) => hourBucketPlace(p, p.uuid, keys.installmentPlanDueBucket),
    },
    byCustomerStatus: {
      index: 'gsi4',
      doc: '`…#PLANCUSTSTATUS#<customerId>#<status>` / `<createdAt>#<uuid>`: installment plans of one customer in one status newest first, with their counter',
      at: (p) => listed(keys.installmentPlansOfCustomerByStatus(p.tenant, p.customer.id, p.status), p),
    },
    byCustomer: {
      index: 'gsi5',
      doc: "`…#PLANCUSTOMER#<customerId>` / `<createdAt>#<uuid>`: installment plans of one customer newest first, with their counter (also the customer area's list)",
      at: (p) => listed(keys.installmentPlansOfCustomer(p.tenant, p.customer.id), p),
    },
    byTestClock: {
      index: 'gsi6',
      doc: "`SELLER#<id>#<env>#CLOCKDUE#<clockId>` / `<dueAt>#<job id>`: the installment plans (carnês) on a sandbox test clock with work due (the clock's advance); never in the hour buckets",
      at: (p) => testClockDuePlace(p, p.uuid),
    },
  },
  attributes: (p) => tenantAttributes(p, PLAN_FIELDS, ON_A_CLOCK),
  fromItem: (item) => fromTenantAttributes<InstallmentPlan>(item, PLAN_FIELDS, ON_A_CLOCK),
});

const { byTenant, byStatus, byCustomer, byCustomerStatus } = planEntity.patterns;

/**
 * The four list partitions a plan is in, each headed by its counter. The order is fixed: counters
 * move by position.
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
