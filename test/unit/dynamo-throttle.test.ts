import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoThrottleOf, throttleDynamo } from '#infra/local/dynamo-throttle';
import { seededRandom } from '#infra/local/seeded-random';
import { createDynamoClient } from '#shared/adapters/dynamodb/table';

describe('the local DynamoDB throttle (fault injection, npm start only)', () => {
  it('is off unless LOCAL_DYNAMO_THROTTLE names a share, and refuses a malformed one by name', () => {
    expect(dynamoThrottleOf({})).toBeUndefined();
    expect(dynamoThrottleOf({ LOCAL_DYNAMO_THROTTLE: '' })).toBeUndefined();
    expect(dynamoThrottleOf({ LOCAL_DYNAMO_THROTTLE: '0' })).toBeUndefined();
    expect(dynamoThrottleOf({ LOCAL_DYNAMO_THROTTLE: '0.5' })).toEqual({ share: 0.5, seed: 1 });
    expect(dynamoThrottleOf({ LOCAL_DYNAMO_THROTTLE: '1', LOCAL_DYNAMO_THROTTLE_SEED: '7' })).toEqual({
      share: 1,
      seed: 7,
    });
    expect(() => dynamoThrottleOf({ LOCAL_DYNAMO_THROTTLE: 'half' })).toThrow('LOCAL_DYNAMO_THROTTLE');
    expect(() => dynamoThrottleOf({ LOCAL_DYNAMO_THROTTLE: '1.5' })).toThrow('LOCAL_DYNAMO_THROTTLE');
    expect(() => dynamoThrottleOf({ LOCAL_DYNAMO_THROTTLE: '0.5', LOCAL_DYNAMO_THROTTLE_SEED: 'x' })).toThrow(
      'LOCAL_DYNAMO_THROTTLE_SEED',
    );
  });

  it('answers ProvisionedThroughputExceededException where the wire would, so the SDK retries it, and sends nothing', async () => {
    // Nothing listens on port 9: a send that went out would fail to connect instead.
    const client = createDynamoClient({ endpoint: 'http://127.0.0.1:9' });
    const counts = throttleDynamo(client, { share: 1, seed: 1 });
    const sent = client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'a' }, sk: { S: 'b' } } }));
    await expect(sent).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    // The table's client makes 2 attempts: both were throttled.
    expect(counts.throttled).toBe(2);
    client.destroy();
  });

  it('draws the same faults again from the same seed', () => {
    const draws = (seed: number) => Array.from({ length: 20 }, seededRandom(seed));
    expect(draws(7)).toEqual(draws(7));
    expect(draws(7)).not.toEqual(draws(8));
    expect(draws(7).every((d) => d >= 0 && d < 1)).toBe(true);
  });
});
