import { join, resolve } from 'node:path';
import { asaasUrlsOf } from '#shared/config';
import { logger } from '#shared/logger';
import { BUILD_DIR, buildDashboard } from '../../esbuild.config.mjs';
import type { TestClock } from './clock';
import { dynamoThrottleOf } from './dynamo-throttle';
import { startRuntime } from './runtime';

/**
 * `npm start`: the whole service on this machine, no AWS account. `npm run start:bundled` (this,
 * with --bundled, after `npm run build`) runs every function from its esbuild bundle in build/, the
 * code Lambda runs, instead of its source.
 */
async function main() {
  const bundled = process.argv.includes('--bundled');
  const inMemory = process.env.LOCAL_IN_MEMORY === '1';
  const dataDir = inMemory ? null : resolve(process.env.LOCAL_DATA_DIR ?? '.local');
  // An already running DynamoDB Local (the fault suite restarts its own under the runtime).
  const dynamoEndpoint = process.env.LOCAL_DYNAMODB_ENDPOINT?.trim() || undefined;
  let runtime: Awaited<ReturnType<typeof startRuntime>>;
  let dynamoThrottle: ReturnType<typeof dynamoThrottleOf>;
  try {
    dynamoThrottle = dynamoThrottleOf();
    // The dashboard is built from its sources at every start, so /dashboard is never stale.
    await buildDashboard();
    runtime = await startRuntime({
      dataDir,
      dynamoEndpoint,
      dynamoJit: 'long',
      dynamoThrottle,
      bundled,
      logLevel: (process.env.LOG_LEVEL as never) ?? 'info',
      // Live mode's Asaas endpoints, as the deployed stack passes them (a fake, Asaas's sandbox).
      asaasUrls: asaasUrlsOf(),
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  const where = dataDir
    ? `data in ${dataDir}; credentials in ${join(dataDir, 'dev-credentials.json')}`
    : 'in memory: nothing is written, not even dev-credentials.json';
  console.log(`payment-service ready at ${runtime.baseUrl} (${where})`);
  console.log(`seller dashboard: ${runtime.baseUrl}/dashboard`);
  console.log(testClockLine(runtime.clock));
  if (dynamoEndpoint) console.log(`dynamodb: ${dynamoEndpoint} (LOCAL_DYNAMODB_ENDPOINT, not started here)`);
  if (dynamoThrottle)
    console.log(
      `dynamodb: throttling ${Math.round(dynamoThrottle.share * 100)}% of sends (LOCAL_DYNAMO_THROTTLE, seed ${dynamoThrottle.seed})`,
    );
  if (bundled) console.log(`functions: the esbuild bundles in ${resolve(BUILD_DIR)}`);
  const asaas = runtime.deps.config;
  console.log(`asaas: sandbox ${asaas.asaasSandboxUrl}, production ${asaas.asaasProductionUrl}`);
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

/** Where the test clock stands: it is kept in the data folder, so a restart goes on from it. */
function testClockLine(clock: TestClock): string {
  const now = clock.now().toISOString();
  if (clock.offsetMs === 0)
    return `test clock: ${now} (real time; POST /api/test-helpers/clock/advance moves it)`;
  const days = (clock.offsetMs / 86_400_000).toFixed(1);
  return `test clock: ${now}, ${days} days ahead of real time, kept from the last run (a new data folder starts at real time)`;
}

void main();
