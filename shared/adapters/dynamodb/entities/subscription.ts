import type { Subscription } from '#shared/domain/subscriptions/subscription';
import { hourBucketPlace, testClockDuePlace } from '../due-buckets';
import { keys } from '../keys';
import type { ListPartition } from '../list-partitions';
import { fromTenantAttributes, ON_A_CLOCK, tenantAttributes } from '../tenant-fields';
import { defineEntity } from './entity';

/** The subscription's attributes: one each, top level (the tenant as sellerId and environment). */
const SUBSCRIPTION_FIELDS = [
  'id',
  'uuid',
  'status',
  'customer',
  'price',
  'collectionMethod',
  'paymentMethod',
  'pixAuthorizationId',
  'billingAnchor',
  'billingCycle',
  'currentPeriodStart',
  'currentPeriodEnd',
  'trialEndsAt',
  'cancelAt',
  'cancelledAt',
  'cancelAtPeriodEnd',
  'cancelReason',
  'pausedAt',
  'lastPaymentAt',
  'nextPaymentAt',
  'failedPaymentCount',
  'dueAt',
  'pendingCharge',
  'checkoutSessionId',
  'metadata',
  'createdAt',
  'updatedAt',
  'version',
] as const;

const listed = (pk: string, s: Subscription) => ({ pk, sk: keys.numeric(s.id) });

/**
 * A subscription, in its tenant's partition under its numeric id; `version` is its optimistic lock.
 * Listed newest first in four partitions (all, status, customer, product), each headed by its
 * counter (`keys.subscriptionCounter(scope)`, index sort key `~COUNT`).
 */
export const subscriptionEntity = defineEntity({
  entity: 'subscription',
  key: (s: Subscription) => keys.subscription(s.tenant, s.id),
  patterns: {
    byTenant: {
      index: 'gsi1',
      doc: "`SELLER#<id>#<env>#SUBS` / id: a tenant's subscriptions newest first, with their counter",
      at: (s) => listed(keys.subscriptionsOfTenant(s.tenant), s),
    },
    byStatus: {
      index: 'gsi2',
      doc: '`…#SUBSTATUS#<status>` / id: subscriptions per status newest first, with their counter',
      at: (s) => listed(keys.subscriptionsByStatus(s.tenant, s.status), s),
    },
    byDueHour: {
      index: 'gsi3',
      doc: "`DUE#SUB#<YYYY-MM-DDTHH>` / `<dueAt>#<job id>`: subscriptions by the hour of their `dueAt` (the heartbeat's sweep); only while something is due",
      at: (s) => hourBucketPlace(s, s.id, keys.subscriptionDueBucket),
    },
    byProduct: {
      index: 'gsi4',
      doc: '`…#SUBPRODUCT#<productId>` / id: subscriptions of one product newest first, with their counter',
      at: (s) => listed(keys.subscriptionsOfProduct(s.tenant, s.price.product.id), s),
    },
    byCustomer: {
      index: 'gsi5',
      doc: '`…#SUBCUSTOMER#<customerId>` / id: subscriptions of one customer newest first, with their counter',
      at: (s) => listed(keys.subscriptionsOfCustomer(s.tenant, s.customer.id), s),
    },
    byTestClock: {
      index: 'gsi6',
      doc: "`SELLER#<id>#<env>#CLOCKDUE#<clockId>` / `<dueAt>#<job id>`: the subscriptions on a sandbox test clock with work due (the clock's advance); never in the hour buckets",
      at: (s) => testClockDuePlace(s, s.id),
    },
  },
  attributes: (s) => tenantAttributes(s, SUBSCRIPTION_FIELDS, ON_A_CLOCK),
  fromItem: (item) => fromTenantAttributes<Subscription>(item, SUBSCRIPTION_FIELDS, ON_A_CLOCK),
});

const { byTenant, byStatus, byCustomer, byProduct } = subscriptionEntity.patterns;

/**
 * The four list partitions a subscription is in, each headed by its counter. The order is fixed:
 * the repository moves counters by position.
 */
export function subscriptionPartitions(s: Subscription): ListPartition[] {
  return [
    { scope: 'ALL', index: byTenant, value: keys.subscriptionsOfTenant(s.tenant) },
    { scope: `STATUS#${s.status}`, index: byStatus, value: keys.subscriptionsByStatus(s.tenant, s.status) },
    {
      scope: `CUSTOMER#${s.customer.id}`,
      index: byCustomer,
      value: keys.subscriptionsOfCustomer(s.tenant, s.customer.id),
    },
    {
      scope: `PRODUCT#${s.price.product.id}`,
      index: byProduct,
      value: keys.subscriptionsOfProduct(s.tenant, s.price.product.id),
    },
  ];
}
