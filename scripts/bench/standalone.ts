import { spawnSync } from 'node:child_process';
import { type Runtime, startRuntime } from '#infra/local/runtime';
import { configureLogs } from '#shared/logger';

/**
 * Runs `work` on a local runtime of its own (DynamoDB Local in memory, no demo seller) with the
 * background ticks stopped, so nothing but what `work` sends talks to DynamoDB between two
 * readings; stops it even when interrupted, and tells whether DynamoDB Local (java) is gone after.
 */
export async function onOwnRuntime<T>(
  tableName: string,
  work: (runtime: Runtime) => Promise<T>,
): Promise<{ result: T; dynamoLocalStopped: boolean }> {
  configureLogs({ level: 'silent' });
  const runtime = await startRuntime({
    port: 0,
    dataDir: null,
    logLevel: 'silent',
    tableName,
    devIdentity: false,
  });
  const interrupted = (signal: NodeJS.Signals) => {
    runtime.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  let result: T;
  try {
    await runtime.timeline.stop();
    result = await work(runtime);
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await runtime.stop();
  }
  const port = runtime.dynamo?.port;
  const running =
    port !== undefined && spawnSync('pgrep', ['-f', `DynamoDBLocal.*-port ${port}( |$)`]).status === 0;
  return { result, dynamoLocalStopped: !running };
}
