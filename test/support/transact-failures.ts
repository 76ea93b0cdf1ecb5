import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

/** The error a promise rejects with, or null when it resolves (for matching its fields). */
export const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e,
  );

/**
 * The SDK's TransactWriteItems cancellation: one reason per entry, by code (`None`,
 * `ConditionalCheckFailed`), with the item as it was when the entry asked for ALL_OLD.
 */
export const cancelled = (reasons: (string | { Code: string; Item?: Record<string, unknown> })[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: reasons.map((r) =>
      typeof r === 'string' ? { Code: r } : { Code: r.Code, ...(r.Item ? { Item: marshall(r.Item) } : {}) },
    ),
  });
