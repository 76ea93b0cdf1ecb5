import { type DynamoDBClient, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { seededRandom } from './seeded-random';

/** A DynamoDB that throttles a seeded share of the calls (the fault suite; off unless asked for). */
export interface DynamoThrottle {
  /** The share of calls refused, above 0 and at most 1. */
  share: number;
  seed: number;
}

/**
 * `LOCAL_DYNAMO_THROTTLE=<share>` (with `LOCAL_DYNAMO_THROTTLE_SEED=<integer>`, default 1): read by
 * `npm start` only (infra/local/start.ts), never by a Lambda. Unset, empty or 0: no throttle. A
 * malformed value stops the start with the variable's name rather than run without the fault.
 */
export function dynamoThrottleOf(env: NodeJS.ProcessEnv = process.env): DynamoThrottle | undefined {
  const raw = env.LOCAL_DYNAMO_THROTTLE?.trim();
  if (!raw || Number(raw) === 0) return undefined;
  const share = Number(raw);
  if (!Number.isFinite(share) || share < 0 || share > 1)
    throw new Error(`LOCAL_DYNAMO_THROTTLE must be a share between 0 and 1, not ${JSON.stringify(raw)}`);
  const seedRaw = env.LOCAL_DYNAMO_THROTTLE_SEED?.trim() || '1';
  const seed = Number(seedRaw);
  if (!Number.isSafeInteger(seed))
    throw new Error(`LOCAL_DYNAMO_THROTTLE_SEED must be an integer, not ${JSON.stringify(seedRaw)}`);
  return { share, seed };
}

/**
 * Makes the local runtime's DynamoDB client answer a seeded share of its sends with
 * ProvisionedThroughputExceededException, as DynamoDB does when a partition is over its
 * throughput. It sits where the wire would answer (inside the SDK's retries, after the request is
 * built), so the SDK retries a throttled send as it would on AWS and only what outlives its
 * attempts reaches the service's code. Nothing is sent for a throttled attempt: nothing is written.
 * Returns the count of throttled sends.
 */
export function throttleDynamo(client: DynamoDBClient, throttle: DynamoThrottle): { throttled: number } {
  const draw = seededRandom(throttle.seed);
  const counts = { throttled: 0 };
  client.middlewareStack.add(
    (next) => async (args) => {
      if (draw() < throttle.share) {
        counts.throttled += 1;
        throw new ProvisionedThroughputExceededException({
          message:
            'The level of configured provisioned throughput for the table was exceeded (local throttle).',
          $metadata: { httpStatusCode: 400 },
        });
      }
      return next(args);
    },
    { step: 'finalizeRequest', priority: 'low', name: 'localDynamoThrottle' },
  );
  return counts;
}
