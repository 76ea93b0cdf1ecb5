import { resolve } from 'node:path';
import { logger } from '#shared/logger';
import { startRuntime } from './runtime';

/** `npm start`: the whole service on this machine, no AWS account. */
async function main() {
  const inMemory = process.env.LOCAL_IN_MEMORY === '1';
  const dataDir = inMemory ? null : resolve(process.env.LOCAL_DATA_DIR ?? '.local');
  let runtime: Awaited<ReturnType<typeof startRuntime>>;
  try {
    runtime = await startRuntime({
      dataDir,
      dynamoJit: 'long',
      logLevel: (process.env.LOG_LEVEL as never) ?? 'info',
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  const where = dataDir ? `data in ${dataDir}` : 'in memory';
  console.log(
    `payment-service ready at ${runtime.baseUrl} (${where}; credentials in ${dataDir ?? 'memory'}/dev-credentials.json)`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    await runtime.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

void main();
