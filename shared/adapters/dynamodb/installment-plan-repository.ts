import { FINGERPRINT_HELD, type InstallmentPlan } from '#shared/domain/installment-plans/plan';
import type { Clock, InstallmentPlanChanges, InstallmentPlanRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { transactWithOverdueCount } from './customer-overdue';
import { dueJobIds, hourBuckets } from './due-buckets';
import { planEntity, planPartitions } from './entities/installment-plan';
import { listInstallmentPlans, listPlansOfCustomer } from './installment-plan-queries';
import { keys } from './keys';
import { counterMoves } from './list-partitions';
import { outboxPut } from './outbox';
import { ConditionFailedError, type Item, type Table, type TransactItem } from './table';
import { transactionCreateWrites } from './transaction-repository';

const FINGERPRINT_ENTITY = 'installment-plan-fingerprint';
/** A hold's item outlives its `until` by a day before DynamoDB's TTL removes it (expiry is `until`, not TTL). */
const FINGERPRINT_TTL_MARGIN_S = 86_400;

const planItem = planEntity.toItem;
const toPlan = planEntity.fromItem;
const PLAN_ENTITY = planEntity.entity;
const { byDueHour } = planEntity.patterns;

/**
 * Installment plans in the single table (docs/data-model.md, "Installment plans"): the plan item
 * holds its installments (at most 12, a few KB), so a read is one GetItem and a change one Put.
 * `clock` gives the now of fingerprint expiry and of listByCustomer's 90 days: the container's,
 * so the local runtime's test clock moves them too.
 */
export function createInstallmentPlanRepository(
  table: Table,
  clock: Clock = { now: () => new Date() },
): InstallmentPlanRepository {
  /**
   * The plan's Put (index 0, conditioned), its list counters, events, its transaction with that
   * one's counters and events, and the customer's overdue count, in one TransactWriteItems (about
   * 5 to 20 writes). A failed condition of the plan is `changed` (save) or `already_exists`
   * (create); any other is the stored transaction (`already_exists`).
   */
  async function write(
    previous: InstallmentPlan | null,
    next: InstallmentPlan,
    changes: InstallmentPlanChanges,
  ): Promise<void> {
    if ((changes.transactions?.length ?? 0) > 1)
      throw new Error(
        'An installment plan change writes at most one new transaction (their tenant counters are shared items)',
      );
    const put: TransactItem = previous
      ? {
          Put: {
            Item: planItem(next),
            ConditionExpression: 'attribute_exists(pk) AND version = :v',
            ExpressionAttributeValues: { ':v': previous.version },
          },
        }
      : { Put: { Item: planItem(next), ConditionExpression: 'attribute_not_exists(pk)' } };
    const fixed: TransactItem[] = [
      put,
      ...counterMoves(previous ? planPartitions(previous) : null, planPartitions(next), (scope) =>
        keys.installmentPlanCounter(next.tenant, scope),
      ),
      ...changes.events.map(outboxPut),
      ...(changes.transactions ?? []).flatMap((t) => transactionCreateWrites(t.record, t.events)),
    ];
    // The guard goes last (before the overdue count's writes): its index names a held fingerprint.
    const guard = changes.fingerprint ? fixed.length : -1;
    if (changes.fingerprint)
      fixed.push({
        Put: holdPut(next.tenant, changes.fingerprint.value, next.uuid, changes.fingerprint.until),
      });
    await transactWithOverdueCount(
      table,
      fixed,
      { tenant: next.tenant, customerUuid: next.customer.uuid, delta: changes.customerOverdueDelta ?? 0 },
      {
        entity: 'The installment plan',
        creating: previous === null,
        failure: (error) =>
          error.failedIndexes.includes(guard)
            ? new ConflictError('Another plan holds the fingerprint', FINGERPRINT_HELD, {
                reason: 'already_exists',
                cause: error,
              })
            : undefined,
      },
    );
  }

  /** The guard's Put for `planUuid`, conditioned on it being free, this plan's or expired. */
  function holdPut(tenant: Tenant, fingerprint: string, planUuid: string, until: string) {
    return {
      Item: {
        ...keys.installmentPlanFingerprint(tenant, fingerprint),
        entity: FINGERPRINT_ENTITY,
        version: 1,
        sellerId: tenant.sellerId,
        environment: tenant.environment,
        planUuid,
        until,
        ttl: Math.floor(new Date(until).getTime() / 1000) + FINGERPRINT_TTL_MARGIN_S,
      },
      // Free, this plan's, or expired (ISO instants compare as text).
      ConditionExpression: 'attribute_not_exists(pk) OR planUuid = :plan OR #until <= :now',
      ExpressionAttributeNames: { '#until': 'until' },
      ExpressionAttributeValues: { ':plan': planUuid, ':now': clock.now().toISOString() },
    };
  }

  return {
    async reserveFingerprint(tenant, fingerprint, planUuid, until) {
      try {
        const { Item, ...condition } = holdPut(tenant, fingerprint, planUuid, until);
        await table.put(Item, { ...condition, ReturnValuesOnConditionCheckFailure: 'NONE' });
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },

    async releaseFingerprint(tenant, fingerprint, planUuid) {
      try {
        await table.delete(keys.installmentPlanFingerprint(tenant, fingerprint), {
          condition: 'planUuid = :plan',
          values: { ':plan': planUuid },
        });
      } catch (error) {
        // Another plan holds it now (or nothing does): not ours to remove.
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    },

    create: (plan, changes) => write(null, plan, changes),

    async get(tenant, uuid) {
      const item = await table.get<Item>(keys.installmentPlan(tenant, uuid), { consistent: true });
      return item && item.entity === PLAN_ENTITY ? toPlan(item) : null;
    },

    save: (next, previous, changes) => write(previous, next, changes),

    list: (tenant, query) => listInstallmentPlans(table, tenant, query),

    listByCustomer: (tenant, customerId) => listPlansOfCustomer(table, tenant, customerId, clock.now()),

    duePlans(now, hoursBack) {
      return dueJobIds(table, byDueHour, hourBuckets(now, hoursBack, keys.installmentPlanDueBucket), now, {
        accept: (item) => item.entity === PLAN_ENTITY,
        idOf: (item) => String(item.uuid),
      });
    },
  };
}
