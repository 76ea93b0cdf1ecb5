import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatClockAdvance, measureClockAdvance } from './bench/clock-advance';
import { measureColdStarts } from './bench/cold-start';
import { measureEndpoints } from './bench/endpoints';
import { formatEventThroughput, measureEventThroughput } from './bench/event-throughput';
import { formatListingCost, measureListingCost } from './bench/listing-cost';
import { type BenchResults, evaluateBudgets, formatJson, formatReport } from './bench/report';
import { BENCH_BUILD_DIR, measureSizes } from './bench/sizes';

/**
 * `npm run bench`: the budgets of DESIGN.md section 7, measured and printed. Budgets that fail are
 * reported as FAIL; the command fails only when the bench itself cannot run.
 */
process.chdir(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

log('building bundles into build/bench/');
const sizes = await measureSizes();
log('timing cold module loads');
const coldStarts = measureColdStarts([sizes.bare, ...sizes.functions]);
log('starting the local runtime (DynamoDB Local) and measuring endpoints');
const endpoints = await measureEndpoints();
log('seeding 10,000 transactions of one seller and measuring the list filters');
const listingCost = await measureListingCost();
log('measuring webhook delivery throughput against a local receiver');
const eventThroughput = await measureEventThroughput();
log('advancing the test clock 31 days, empty and with 1,000 due one-time jobs');
const clockAdvance = await measureClockAdvance();

const results: BenchResults = {
  generatedAt: new Date().toISOString(),
  node: process.versions.node,
  sizes,
  coldStarts,
  endpoints,
  budgets: evaluateBudgets(sizes, coldStarts, endpoints),
};
mkdirSync(BENCH_BUILD_DIR, { recursive: true });
writeFileSync(
  join(BENCH_BUILD_DIR, 'results.json'),
  `${JSON.stringify({ ...results, listingCost, eventThroughput, clockAdvance }, null, 2)}\n`,
);
console.log(formatReport(results));
console.log('');
console.log(formatListingCost(listingCost));
console.log('');
console.log(formatEventThroughput(eventThroughput));
console.log('');
console.log(formatClockAdvance(clockAdvance));
console.log('');
console.log(formatJson(results));
if (!endpoints.dynamoLocalStopped || !listingCost.dynamoLocalStopped || !clockAdvance.dynamoLocalStopped) {
  log('DynamoDB Local is still running after the runtime stopped');
  process.exitCode = 1;
}
