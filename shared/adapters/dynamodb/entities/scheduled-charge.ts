import { searchableName } from '#shared/domain/customers/customer';
import { normalizeDocument } from '#shared/domain/documents';
import type { Attempt, ScheduledCharge } from '#shared/domain/scheduled-charges/charge';
import type { Tenant } from '#shared/domain/tenant';
import { hourBucketPlace, testClockDuePlace } from '../due-buckets';
import { keys } from '../keys';
import type { ListPartition } from '../list-partitions';
import type { Item } from '../table';
import { fromTenantAttributes, ON_A_CLOCK, tenantAttributes } from '../tenant-fields';
import { defineEntity } from './entity';

/** The charge's attributes (its cycles are items of their own). */
const CHARGE_FIELDS = [
  'id',
  'type',
  'status',
  'customer',
  'product',
  'description',
  'amount',
  'methods',
  'dueDate',
  'anchorDate',
  'recurrence',
  'trialDays',
  'trialEndsOn',
  'paymentMethod',
  'cancelAtPeriodEnd',
  'pausedAt',
  'canceledAt',
  'overdueCycles',
  'dueAt',
  'lateCharges',
  'reminderOffsets',
  'createdAt',
  'updatedAt',
  'version',
] as const;

/** What a search compares, stored on the charge and its copies (filters of the other partitions). */
export function searchAttributes(c: ScheduledCharge) {
  return {
    searchName: searchableName(c.customer.name),
    searchEmail: c.customer.email.toLowerCase(),
    searchDocument: normalizeDocument(c.customer.document),
  };
}

/** The charge's data attributes (what the charge item and its search copies share). */
export const chargeAttributes = (c: ScheduledCharge): Item => ({
  ...tenantAttributes(c, CHARGE_FIELDS, ON_A_CLOCK),
  ...searchAttributes(c),
});

const listed = (pk: string, c: ScheduledCharge) => ({
  pk,
  sk: keys.scheduledChargeListOrder(c.dueDate, c.id),
});

/**
 * A scheduled charge, in its tenant's partition under `SCH#<id>` (its cycles and timeline follow it
 * there); `version` is its optimistic lock and `timelineSeq` its timeline's counter, written by the
 * repository's save. Listed by dueDate then id in four partitions (all, status, customer, type),
 * each with its counter. `fromItem` reads a charge item or a search copy as the charge without
 * cycles (lists show none); a copy has no timeline counter (0).
 */
export const scheduledChargeEntity = defineEntity({
  entity: 'scheduled-charge',
  key: (c: ScheduledCharge) => keys.scheduledCharge(c.tenant, c.id),
  patterns: {
    byTenant: {
      index: 'gsi1',
      doc: "`SELLER#<id>#<env>#SCHS` / `<dueDate>#<id>`: a tenant's scheduled charges by due date, with their counter",
      at: (c) => listed(keys.scheduledChargesOfTenant(c.tenant), c),
    },
    byStatus: {
      index: 'gsi2',
      doc: '`…#SCHSTATUS#<status>` / `<dueDate>#<id>`: scheduled charges per status by due date, with their counter',
      at: (c) => listed(keys.scheduledChargesByStatus(c.tenant, c.status), c),
    },
    byDueHour: {
      index: 'gsi3',
      doc: "`DUE#SCH#<YYYY-MM-DDTHH>` / `<dueAt>#<job id>`: scheduled charges by the hour of their `dueAt` (the heartbeat's sweep); only while something is due",
      at: (c) => hourBucketPlace(c, c.id, keys.scheduledChargeDueBucket),
    },
    byType: {
      index: 'gsi4',
      doc: '`…#SCHTYPE#<type>` / `<dueDate>#<id>`: scheduled charges of one type by due date, with their counter',
      at: (c) => listed(keys.scheduledChargesOfType(c.tenant, c.type), c),
    },
    byCustomer: {
      index: 'gsi5',
      doc: "`…#SCHCUSTOMER#<customerId>` / `<dueDate>#<id>`: scheduled charges of one customer by due date, with their counter (also the portal's open charges)",
      at: (c) => listed(keys.scheduledChargesOfCustomer(c.tenant, c.customer.id), c),
    },
    byTestClock: {
      index: 'gsi6',
      doc: "`SELLER#<id>#<env>#CLOCKDUE#<clockId>` / `<dueAt>#<job id>`: the scheduled charges on a sandbox test clock with work due (the clock's advance); never in the hour buckets",
      at: (c) => testClockDuePlace(c, c.id),
    },
  },
  attributes: chargeAttributes,
  fromItem: (item): ScheduledCharge => ({
    ...fromTenantAttributes<ScheduledCharge>(item, CHARGE_FIELDS, ON_A_CLOCK),
    cycles: [],
    timelineSeq: Number(item.timelineSeq ?? 0),
  }),
});

const { byTenant, byStatus, byCustomer, byType } = scheduledChargeEntity.patterns;

/**
 * The four list partitions a charge is in (all, status, customer, type), each sorted by
 * `dueDate#id` and counted by `keys.scheduledChargeCounter(scope)`. The order is fixed: the
 * repository moves counters by position.
 */
export function chargePartitions(c: ScheduledCharge): ListPartition[] {
  return [
    { scope: 'ALL', index: byTenant, value: keys.scheduledChargesOfTenant(c.tenant) },
    {
      scope: `STATUS#${c.status}`,
      index: byStatus,
      value: keys.scheduledChargesByStatus(c.tenant, c.status),
    },
    {
      scope: `CUSTOMER#${c.customer.id}`,
      index: byCustomer,
      value: keys.scheduledChargesOfCustomer(c.tenant, c.customer.id),
    },
    { scope: `TYPE#${c.type}`, index: byType, value: keys.scheduledChargesOfType(c.tenant, c.type) },
  ];
}

const ATTEMPT_FIELDS: (keyof Attempt)[] = [
  'id',
  'chargeId',
  'cycleNumber',
  'attemptNumber',
  'attemptedAt',
  'source',
  'paymentMethod',
  'paymentMethodId',
  'cardLast4',
  'cardBrand',
  'status',
  'failureCode',
  'failureReason',
  'gatewayFailureCode',
  'gatewayChargeId',
  'transactionId',
];

/** An attempt of a scheduled charge, outside the charge's range (`SCHATT#<id>#<attempt id>`). */
export const attemptEntity = defineEntity({
  entity: 'scheduled-charge-attempt',
  key: ({ tenant, attempt: a }: { tenant: Tenant; attempt: Attempt }) =>
    keys.scheduledChargeAttempt(tenant, a.chargeId, a.id),
  patterns: {
    byCycle: {
      index: 'gsi1',
      doc: '`SELLER#<id>#<env>#SCHATTCYC#<charge id>#<cycle>` / attempt id: the attempts of one scheduled-charge cycle, newest first',
      at: ({ tenant, attempt: a }) => ({
        pk: keys.scheduledChargeAttemptsOfCycle(tenant, a.chargeId, a.cycleNumber),
        sk: keys.numeric(a.id),
      }),
    },
  },
  attributes: ({ tenant, attempt }) => ({
    sellerId: tenant.sellerId,
    environment: tenant.environment,
    ...attempt,
  }),
  fromItem: (item) => {
    const a: Record<string, unknown> = {};
    for (const f of ATTEMPT_FIELDS) a[f] = item[f] ?? null;
    return {
      tenant: { sellerId: Number(item.sellerId), environment: item.environment as Tenant['environment'] },
      attempt: a as unknown as Attempt,
    };
  },
});
