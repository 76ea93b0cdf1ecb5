import { jobId } from '#shared/domain/job-id';
import type { TestClockRepository } from '#shared/domain/ports';
import type { BillingInterval } from '#shared/domain/subscriptions/price';
import type { Tenant } from '#shared/domain/tenant';
import {
  type ClockDueItem,
  type ClockDueKind,
  TestClockLimitError,
} from '#shared/domain/test-clocks/test-clock';
import { ConflictError } from '#shared/errors';
import { countOneLess, countOneMore } from './capped-count';
import { dueJobIds, hourBuckets } from './due-buckets';
import { planEntity } from './entities/installment-plan';
import { paymentMethodEntity } from './entities/payment-method';
import { scheduledChargeEntity } from './entities/scheduled-charge';
import { subscriptionEntity } from './entities/subscription';
import { testClockEntity } from './entities/test-clock';
import { keys } from './keys';
import { alreadyExists, ConditionFailedError, type Item, orConflict, type Table } from './table';

/** The due entities' `byTestClock` pattern: one physical index (gsi6), one partition per clock. */
const { byTestClock } = subscriptionEntity.patterns;
const { byDeletionHour } = testClockEntity.patterns;

/** Each due entity's kind, the resource id its due job names and its due time (`dueAt` unless said). */
const DUE_ENTITIES: Record<string, { kind: ClockDueKind; id: (item: Item) => string; dueAt?: string }> = {
  [subscriptionEntity.entity]: { kind: 'subscription', id: (item) => String(item.id) },
  [scheduledChargeEntity.entity]: { kind: 'scheduled-charge', id: (item) => String(item.id) },
  [planEntity.entity]: { kind: 'installment-plan', id: (item) => String(item.uuid) },
  [paymentMethodEntity.entity]: {
    kind: 'payment-method',
    id: (item) => String(item.id),
    dueAt: 'nextExpiryStepAt',
  },
};

/** The item that counts a tenant's clocks (capped-count.ts). */
const TEST_CLOCK_COUNT_ENTITY = 'test-clock-count';

/** The tenant's clock count stayed held by other creations and deletions through every retry. */
const countContended = (cause: unknown) =>
  new ConflictError(
    "The seller's test clocks are being created or deleted at the same time; retry",
    'concurrent_update',
    { reason: 'contended', cause },
  );

/** Test clocks under their tenant; the work on a clock through the due entities' `byTestClock` pattern. */
export function createTestClockRepository(table: Table): TestClockRepository {
  /** Every item of the clock's due index with a due time by `until` (all of them without it). */
  async function onClock(tenant: Tenant, clockId: string, until?: string): Promise<Item[]> {
    const items: Item[] = [];
    let cursor: string | undefined;
    do {
      const out = await table.query<Item>({
        IndexName: byTestClock.name,
        KeyConditionExpression: until ? '#pk = :pk AND #sk <= :until' : '#pk = :pk',
        ExpressionAttributeNames: {
          '#pk': byTestClock.partitionKey,
          ...(until ? { '#sk': byTestClock.sortKey } : {}),
        },
        ExpressionAttributeValues: {
          ':pk': keys.testClockDue(tenant, clockId),
          ...(until ? { ':until': `${until}~` } : {}),
        },
        cursor,
      });
      items.push(...out.items);
      cursor = out.cursor;
    } while (cursor);
    return items;
  }

  return {
    async create(clock, max) {
      // The clock and the tenant's count in one transaction (capped-count.ts).
      await table.write({
        items: [
          { Put: { Item: testClockEntity.toItem(clock), ConditionExpression: 'attribute_not_exists(pk)' } },
          countOneMore(keys.testClockCount(clock.tenant), 'clocks', TEST_CLOCK_COUNT_ENTITY, max),
        ],
        toError: (failure) =>
          failure.failedIndexes.includes(0)
            ? alreadyExists('The test clock')(failure)
            : new TestClockLimitError(max),
        contended: countContended,
      });
    },
    async get(tenant, id) {
      const item = await table.get<Item>(keys.testClock(tenant, id), { consistent: true });
      return item ? testClockEntity.fromItem(item) : null;
    },
    async list(tenant, page) {
      const out = await table.queryPage<Item>(
        {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.tenant(tenant), ':prefix': keys.testClockPrefix },
          cursor: page.cursor,
        },
        page.limit,
      );
      return { items: out.items.map(testClockEntity.fromItem), cursor: out.cursor };
    },
    async save(next, previous) {
      await orConflict(
        table.put(testClockEntity.toItem(next), {
          ConditionExpression: 'attribute_exists(pk) AND version = :v',
          ExpressionAttributeValues: { ':v': previous.version },
        }),
        (cause) =>
          new ConflictError('The test clock changed at the same time; retry', 'concurrent_update', {
            reason: 'changed',
            cause,
          }),
      );
    },
    async delete(tenant, id) {
      try {
        await table.write({
          items: [
            { Delete: { Key: keys.testClock(tenant, id), ConditionExpression: 'attribute_exists(pk)' } },
            countOneLess(keys.testClockCount(tenant), 'clocks'),
          ],
          toError: (failure) => failure,
          contended: countContended,
        });
        return true;
      } catch (error) {
        // attribute_exists(pk) failed: the clock was gone already (another deletion freed its slot).
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },
    dueDeletions(now, hoursBack) {
      return dueJobIds(table, byDeletionHour, hourBuckets(now, hoursBack, keys.testClockDeletionBucket), now);
    },
    async dueOn(tenant, clockId, until) {
      const due: ClockDueItem[] = [];
      for (const item of await onClock(tenant, clockId, until)) {
        const entity = DUE_ENTITIES[String(item.entity)];
        const dueAt = entity && item[entity.dueAt ?? 'dueAt'];
        if (!entity || typeof dueAt !== 'string' || dueAt > until) continue;
        due.push({ kind: entity.kind, jobId: jobId(tenant, entity.id(item)), dueAt });
      }
      return due;
    },
    async subscriptionPeriods(tenant, clockId) {
      return (await onClock(tenant, clockId))
        .filter((item) => item.entity === subscriptionEntity.entity)
        .map((item) => {
          const price = item.price as { billingInterval: BillingInterval; intervalCount: number };
          return { billingInterval: price.billingInterval, intervalCount: Number(price.intervalCount) };
        });
    },
  };
}
