import { afterAll, inject } from 'vitest';
import { leaseDynamo } from './dynamo-pool';

let lease: ReturnType<typeof leaseDynamo> | undefined;

/**
 * The DynamoDB Local of this test file: leased from the global setup's pool at the first call and
 * given back after the file (the pool stops it), so no file runs on the writes of another.
 */
export async function fileDynamoEndpoint(): Promise<string> {
  lease ??= leaseDynamo(inject('dynamoPool'));
  return (await lease).endpoint;
}

// Registered when a test file first imports this module, so it runs after the file's own
// afterAll hooks (vitest runs after-hooks in reverse order): runtimes stop before their database.
afterAll(async () => {
  const held = lease;
  lease = undefined;
  if (held) await (await held).release();
});
