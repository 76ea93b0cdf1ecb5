import type { PaymentAttempt } from '#shared/domain/attempts/attempt';
import type { AttemptRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';
import { dueJobIds, hourBuckets } from './due-buckets';
import { paymentAttemptEntity } from './entities/payment-attempt';
import { keys } from './keys';
import { alreadyExists, type ConditionFailedError, type Item, type Table } from './table';

const { byDueHour } = paymentAttemptEntity.patterns;
const toItem = paymentAttemptEntity.toItem;

const changed = (cause: ConditionFailedError) =>
  new ConflictError('The payment attempt changed; read it again', 'concurrent_update', {
    reason: 'changed',
    cause,
  });

export function createAttemptRepository(table: Table): AttemptRepository {
  /**
   * The attempt as `next`, while it is in one of `from`, on the version `previous` was read at
   * (`anyVersion`: whatever moved meanwhile, as a settle, whose own write guards against twice).
   */
  const save = (
    next: PaymentAttempt,
    previous: PaymentAttempt,
    from: PaymentAttempt['status'][],
    anyVersion = false,
  ) =>
    table.write({
      items: [
        {
          Put: {
            Item: toItem(next),
            ConditionExpression: `${anyVersion ? 'attribute_exists(pk)' : 'version = :v'} AND #status IN (${from.map((_, i) => `:s${i}`).join(', ')})`,
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ...(anyVersion ? {} : { ':v': previous.version }),
              ...Object.fromEntries(from.map((s, i) => [`:s${i}`, s])),
            },
          },
        },
      ],
      toError: changed,
    });

  return {
    async create(attempt) {
      // Staged inside `atomically`: an attempt is written with what it guards (a refund's record).
      await table.write({
        items: [{ Put: { Item: toItem(attempt), ConditionExpression: 'attribute_not_exists(pk)' } }],
        toError: alreadyExists('The payment attempt'),
      });
    },

    async get(tenant, id) {
      const item = await table.get<Item>(keys.paymentAttempt(tenant, id), { consistent: true });
      return item ? paymentAttemptEntity.fromItem(item) : null;
    },

    settle(attempt, at) {
      // A voided attempt still settles: the provider's answer came after all, and money is recorded.
      // Not on the version read: a reconciler's postpone meanwhile must not refuse the sale's write,
      // whose own conditions (the transaction's id) keep it from being recorded twice.
      const next = { ...attempt, status: 'settled' as const, outcome: 'recorded', dueAt: null };
      return save(
        { ...next, updatedAt: at, version: attempt.version + 1 },
        attempt,
        ['pending', 'voided'],
        true,
      );
    },

    void(attempt, at) {
      const next = { ...attempt, status: 'voided' as const, outcome: 'not_at_provider', dueAt: null };
      return save({ ...next, updatedAt: at, version: attempt.version + 1 }, attempt, ['pending']);
    },

    async reopen<A extends PaymentAttempt>(attempt: A, at: string, dueAt: string): Promise<A> {
      const next = {
        ...attempt,
        status: 'pending' as const,
        outcome: null,
        dueAt,
        updatedAt: at,
        version: attempt.version + 1,
      };
      await save(next, attempt, ['voided']);
      return next;
    },

    postpone(attempt, at, dueAt) {
      return save({ ...attempt, dueAt, updatedAt: at, version: attempt.version + 1 }, attempt, ['pending']);
    },

    dueJobIds(now, hoursBack) {
      return dueJobIds(table, byDueHour, hourBuckets(now, hoursBack, keys.attemptDueBucket), now);
    },
  };
}
