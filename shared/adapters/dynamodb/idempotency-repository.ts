import type { BeginOutcome, IdempotencyRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';
import { idempotencyEntity } from './entities/idempotency';
import { keys } from './keys';
import { ConditionFailedError, orConflict, type Table } from './table';

const epoch = (d: Date) => Math.floor(d.getTime() / 1000);

export function createIdempotencyRepository(table: Table): IdempotencyRepository {
  return {
    async begin(scope, key, fingerprint, now): Promise<BeginOutcome> {
      try {
        // Exactly one concurrent request wins this conditional put. An expired record (TTL
        // deletion lags) or an abandoned lease can be taken over.
        await table.put(idempotencyEntity.toItem({ scope, key, fingerprint, now }), {
          ConditionExpression:
            'attribute_not_exists(pk) OR #ttl < :now OR (#state = :running AND leaseUntil < :now)',
          ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
          ExpressionAttributeValues: { ':now': epoch(now), ':running': 'in_progress' },
        });
        return { state: 'started' };
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        const existing = error.existing;
        if (!existing)
          throw new ConflictError('The idempotency key is taken', 'already_exists', {
            reason: 'already_exists',
            cause: error,
          });
        return idempotencyEntity.fromItem(existing);
      }
    },

    async complete(scope, key, response, now) {
      await table.update({
        Key: keys.idempotency(scope, key),
        UpdateExpression: 'SET #state = :done, #response = :response, completedAt = :at',
        ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
        ExpressionAttributeValues: { ':done': 'completed', ':response': response, ':at': now.toISOString() },
      });
    },

    async release(scope, key) {
      await orConflict(
        table.delete(keys.idempotency(scope, key), {
          condition: '#state = :running',
          names: { '#state': 'state' },
          values: { ':running': 'in_progress' },
        }),
        (cause) =>
          new ConflictError('The idempotency key is no longer in progress', 'idempotency_not_in_progress', {
            reason: 'changed',
            cause,
          }),
      );
    },
  };
}
