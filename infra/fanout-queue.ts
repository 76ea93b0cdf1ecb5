/**
 * The numbers of the webhook fan-out queue and its event source mapping, in plain seconds, read by
 * the stack (FANOUT_SOURCE and the queue in infra/constructs/async.ts, which say why each is what
 * it is) and by the local runtime's queue (infra/local/runtime.ts). This module imports nothing,
 * so the local runtime does not load aws-cdk-lib for them.
 */
export const FANOUT_QUEUE = {
  /** The fan-out function's timeout; the queue's visibility timeout is six times it. */
  functionTimeoutSeconds: 10,
  /** A message received this many times without succeeding moves to the fan-out's failure queue. */
  maxReceiveCount: 5,
  batchSize: 10,
  maxBatchingWindowSeconds: 0,
  maxConcurrency: 5,
} as const;

/** AWS's rule for Lambda event sources: at least six times the consumer's timeout. */
export const FANOUT_VISIBILITY_TIMEOUT_SECONDS = FANOUT_QUEUE.functionTimeoutSeconds * 6;
