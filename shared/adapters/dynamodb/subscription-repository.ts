import type { SubscriptionChanges, SubscriptionRepository } from '#shared/domain/ports';
import type { Subscription, SubscriptionHistoryEntry } from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { dueJobIds, hourBuckets } from './due-buckets';
import { subscriptionEntity, subscriptionPartitions } from './entities/subscription';
import { keys } from './keys';
import { counterMoves } from './list-partitions';
import { outboxPut } from './outbox';
import { listSubscriptions } from './subscription-queries';
import { alreadyExists, type ConditionFailedError, type Item, type Table, type TransactItem } from './table';

const ENTITY = subscriptionEntity.entity;
const { byCustomer, byDueHour } = subscriptionEntity.patterns;
const HISTORY_ENTITY = 'subscription-event';
/** TransactWriteItems takes at most 100 entries; a state change writes about 10 to 20. */
/** The portal lists at most this many subscriptions of a customer. */
const CUSTOMER_LIST_LIMIT = 100;

const toItem = subscriptionEntity.toItem;
const toSubscription = subscriptionEntity.fromItem;

/** Counters of the list partitions the subscription leaves go down, those it enters go up. */
const counterMovesOf = (previous: Subscription | null, next: Subscription): TransactItem[] =>
  counterMoves(previous ? subscriptionPartitions(previous) : null, subscriptionPartitions(next), (scope) =>
    keys.subscriptionCounter(next.tenant, scope),
  );

function toHistoryEntry(item: Item): SubscriptionHistoryEntry {
  return {
    id: Number(item.id),
    subscriptionId: Number(item.subscriptionId),
    eventType: item.eventType as SubscriptionHistoryEntry['eventType'],
    eventData: (item.eventData as Record<string, unknown>) ?? {},
    createdAt: String(item.createdAt),
  };
}

export function createSubscriptionRepository(table: Table): SubscriptionRepository {
  /** The history items of a change; each record takes an id from the `subscription-event` sequence. */
  async function historyPuts(s: Subscription, changes: SubscriptionChanges): Promise<TransactItem[]> {
    const puts: TransactItem[] = [];
    for (const h of changes.history) {
      const id = await table.nextId('subscription-event', { block: 20 });
      puts.push({
        Put: {
          Item: {
            ...keys.subscriptionEvent(s.tenant, s.id, s.updatedAt, id),
            entity: HISTORY_ENTITY,
            version: 1,
            sellerId: s.tenant.sellerId,
            environment: s.tenant.environment,
            id,
            subscriptionId: s.id,
            eventType: h.eventType,
            eventData: h.eventData,
            createdAt: s.updatedAt,
          },
        },
      });
    }
    return puts;
  }

  /**
   * The subscription's Put (index 0), its counters, history and events in one write (Table.write: inside Atomically, with the charge's transaction).
   */
  async function write(
    put: TransactItem,
    previous: Subscription | null,
    next: Subscription,
    changes: SubscriptionChanges,
  ) {
    const writes: TransactItem[] = [
      put,
      ...counterMovesOf(previous, next),
      ...(await historyPuts(next, changes)),
      ...changes.events.map(outboxPut),
    ];
    await table.write({
      items: writes,
      toError: (failure: ConditionFailedError) =>
        previous
          ? new ConflictError('The subscription changed at the same time; retry', 'concurrent_update', {
              reason: 'changed',
              cause: failure,
            })
          : alreadyExists('The subscription')(failure),
    });
  }

  return {
    nextId: () => table.nextId('subscription', { block: 20 }),

    async create(subscription, changes) {
      const put = { Put: { Item: toItem(subscription), ConditionExpression: 'attribute_not_exists(pk)' } };
      await write(put, null, subscription, changes);
    },

    async get(tenant, id) {
      const item = await table.get<Item>(keys.subscription(tenant, id), { consistent: true });
      return item ? toSubscription(item) : null;
    },

    async save(next, previous, changes) {
      const put = {
        Put: {
          Item: toItem(next),
          ConditionExpression: 'attribute_exists(pk) AND version = :v',
          ExpressionAttributeValues: { ':v': previous.version },
        },
      };
      await write(put, previous, next, changes);
    },

    list: (tenant, query) => listSubscriptions(table, tenant, query),

    async listByCustomer(tenant, customerId) {
      const index = byCustomer;
      const page = await table.query<Item>({
        IndexName: index.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': index.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.subscriptionsOfCustomer(tenant, customerId) },
        ScanIndexForward: false,
        // The partition's counter comes first.
        Limit: CUSTOMER_LIST_LIMIT + 1,
      });
      return page.items
        .filter((item) => item.entity === ENTITY)
        .slice(0, CUSTOMER_LIST_LIMIT)
        .map(toSubscription);
    },

    async history(tenant: Tenant, subscriptionId: number, limit = 100) {
      const page = await table.query<Item>({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: {
          ':pk': keys.tenant(tenant),
          ':prefix': keys.subscriptionEventsPrefix(subscriptionId),
        },
        ScanIndexForward: false,
        Limit: limit,
      });
      return page.items.map(toHistoryEntry);
    },

    dueSubscriptions(now, hoursBack) {
      return dueJobIds(table, byDueHour, hourBuckets(now, hoursBack, keys.subscriptionDueBucket), now);
    },
  };
}
