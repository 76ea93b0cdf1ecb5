import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatClockAdvance } from './bench/clock-advance';
import { formatEventThroughput } from './bench/event-throughput';
import { LONG_PHASES, type LongPhase } from './bench/filter';
import { formatListingCost } from './bench/listing-cost';
import { formatLoadTest } from './bench/load-test';
import { inFreshProcess } from './bench/phase-process';
import { formatRenewalJob } from './bench/report';
import { formatScheduledChargeListing } from './bench/scheduled-charge-listing';
import { BENCH_BUILD_DIR } from './bench/sizes';
import { formatSubscriptionListing } from './bench/subscription-listing';

/**
 * `npm run bench:<name>`: one of the bench's long phases, each on a runtime of its own in a fresh
 * process (scripts/bench/phase-process.ts), printed and written to build/bench/<name>.json. They
 * are kept out of `npm run bench`, which measures bundles, cold starts and one recipe per route.
 */
/** Each phase formats its own result type (phase-main.ts measures it). */
const FORMAT: Record<LongPhase, (result: never) => string> = {
  'listing transactions': formatListingCost,
  'listing subscriptions': formatSubscriptionListing,
  'listing scheduled charges': formatScheduledChargeListing,
  'event throughput': formatEventThroughput,
  'clock advance': formatClockAdvance,
  'renewal job': formatRenewalJob,
  'load test': formatLoadTest,
};

/** The scripts' names: `bench:listing` runs the three listing phases, and so on. */
const SCRIPTS: Record<string, readonly LongPhase[]> = {
  listing: ['listing transactions', 'listing subscriptions', 'listing scheduled charges'],
  events: ['event throughput'],
  jobs: ['clock advance', 'renewal job'],
  load: ['load test'],
};

process.chdir(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
const name = process.argv[2] ?? '';
const phases = SCRIPTS[name];
if (!phases) {
  console.error(`usage: bench-phase.ts <${Object.keys(SCRIPTS).join('|')}>`);
  process.exit(2);
}
const results: Partial<Record<LongPhase, { dynamoLocalStopped: boolean }>> = {};
for (const phase of phases) {
  if (!LONG_PHASES.includes(phase)) throw new Error(`no long phase named "${phase}"`);
  process.stderr.write(`bench: ${phase}\n`);
  const result = await inFreshProcess<{ dynamoLocalStopped: boolean }>(phase);
  results[phase] = result;
  console.log(`${FORMAT[phase](result as never)}\n`);
}
mkdirSync(BENCH_BUILD_DIR, { recursive: true });
writeFileSync(join(BENCH_BUILD_DIR, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
if (!Object.values(results).every((r) => r.dynamoLocalStopped !== false)) {
  process.stderr.write('bench: DynamoDB Local is still running after the runtime stopped\n');
  process.exitCode = 1;
}
