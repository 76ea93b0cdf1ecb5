import type { Key } from './keys';

/*
 * A tenant's count of a capped resource (webhook endpoints, test clocks) is an item moved in the
 * same transaction as the resource's put or delete: the cap is a condition on the count, never a
 * count read first, so concurrent creations cannot pass it together and a refused one writes nothing.
 */

/** The transaction part that counts one more, refused (its condition) at `max` when one is given. */
export function countOneMore(key: Key, attribute: string, entity: string, max?: number) {
  return {
    Update: {
      Key: key,
      UpdateExpression: 'SET entity = :entity, version = :one ADD #n :one',
      ...(max === undefined ? {} : { ConditionExpression: 'attribute_not_exists(#n) OR #n < :max' }),
      ExpressionAttributeNames: { '#n': attribute },
      ExpressionAttributeValues: {
        ':entity': entity,
        ':one': 1,
        ...(max === undefined ? {} : { ':max': max }),
      },
    },
  };
}

/** The transaction part that counts one less (with the resource's conditional delete). */
export function countOneLess(key: Key, attribute: string) {
  return {
    Update: {
      Key: key,
      UpdateExpression: 'ADD #n :minus',
      ExpressionAttributeNames: { '#n': attribute },
      ExpressionAttributeValues: { ':minus': -1 },
    },
  };
}
