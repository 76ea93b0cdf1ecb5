import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpGroups } from '#infra/routes';
import { routeKey } from '#shared/http/types';
import { type ClockAdvance, formatClockAdvance } from './bench/clock-advance';
import { type ColdStart, measureColdStarts } from './bench/cold-start';
import { type EndpointReport, measureEndpoints } from './bench/endpoints';
import { type EventThroughput, formatEventThroughput } from './bench/event-throughput';
import { benchFilter } from './bench/filter';
import { formatListingCost, type ListingCost } from './bench/listing-cost';
import { formatLoadTest, type LoadTest } from './bench/load-test';
import { inFreshProcess } from './bench/phase-process';
import type { RenewalJob } from './bench/renewal-job';
import {
  type BenchResults,
  bundleSections,
  evaluateBudgets,
  formatJson,
  formatRenewalJob,
  formatReport,
} from './bench/report';
import { formatScheduledChargeListing, type ScheduledChargeListing } from './bench/scheduled-charge-listing';
import { BENCH_BUILD_DIR, measureSizes, type SizeReport } from './bench/sizes';
import { formatSubscriptionListing, type SubscriptionListing } from './bench/subscription-listing';

/**
 * `npm run bench`: the budgets of DESIGN.md section 7, measured and printed. Budgets that fail are
 * reported as FAIL; the command fails only when the bench itself cannot run. `BENCH_ONLY=word,...`
 * measures only the routes and phases the words name (scripts/bench/filter.ts).
 */
process.chdir(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const only = benchFilter(process.env.BENCH_ONLY);
if (!only.all) log(`BENCH_ONLY=${only.words.join(',')}: measuring only what these words name`);

let sizes: SizeReport | undefined;
let coldStarts: ColdStart[] | undefined;
if (only.phase('sizes and cold starts')) {
  log('building bundles into build/bench/');
  sizes = await measureSizes();
  log('timing cold module loads');
  coldStarts = measureColdStarts([sizes.bare, ...sizes.functions]);
}
const anyRoute = httpGroups.some((g) => g.routes.some((r) => only.route(g.name, routeKey(r))));
let endpoints: EndpointReport | undefined;
if (anyRoute) {
  log('starting the local runtime (DynamoDB Local) and measuring endpoints');
  endpoints = await measureEndpoints(only, log);
}
let listingCost: ListingCost | undefined;
if (only.phase('listing transactions')) {
  log('seeding 10,000 transactions of one seller and measuring the list filters');
  listingCost = await inFreshProcess('listing transactions');
}
let subscriptionListing: SubscriptionListing | undefined;
if (only.phase('listing subscriptions')) {
  log('seeding subscriptions of one seller and measuring the subscription list filters');
  subscriptionListing = await inFreshProcess('listing subscriptions');
}
let scheduledChargeListing: ScheduledChargeListing | undefined;
if (only.phase('listing scheduled charges')) {
  log('seeding 10,000 scheduled charges of one seller and measuring the scheduled charge list filters');
  scheduledChargeListing = await inFreshProcess('listing scheduled charges');
}
let eventThroughput: EventThroughput | undefined;
if (only.phase('event throughput')) {
  log('measuring webhook delivery throughput against a local receiver');
  eventThroughput = await inFreshProcess('event throughput');
}
let clockAdvance: ClockAdvance | undefined;
if (only.phase('clock advance')) {
  log('advancing the test clock 31 days, empty and with 1,000 due one-time jobs');
  clockAdvance = await inFreshProcess('clock advance');
}
let renewalJob: RenewalJob | undefined;
if (only.phase('renewal job')) {
  log('running subscription-due jobs: renewals by saved card, declines, double fires');
  renewalJob = await inFreshProcess('renewal job');
}
let loadTest: LoadTest | undefined;
if (only.phase('load test')) {
  log(
    'load test: 100 requests/s of mixed reads and writes from a second process, then one key past its limit',
  );
  loadTest = await inFreshProcess('load test');
}

const results: BenchResults | undefined = endpoints && {
  generatedAt: new Date().toISOString(),
  node: process.versions.node,
  ...(only.all ? {} : { only: only.words }),
  sizes,
  coldStarts,
  endpoints,
  budgets: evaluateBudgets(sizes, coldStarts, endpoints),
};
mkdirSync(BENCH_BUILD_DIR, { recursive: true });
writeFileSync(
  join(BENCH_BUILD_DIR, 'results.json'),
  `${JSON.stringify(
    {
      ...(results ?? { sizes, coldStarts }),
      listingCost,
      subscriptionListing,
      scheduledChargeListing,
      eventThroughput,
      clockAdvance,
      renewalJob,
      loadTest,
    },
    null,
    2,
  )}\n`,
);
const printed = [
  results && formatReport(results),
  // Without endpoints there is no full report; the bundle sizes and cold starts still print.
  !results && sizes && coldStarts && bundleSections(sizes, coldStarts).join('\n'),
  listingCost && formatListingCost(listingCost),
  subscriptionListing && formatSubscriptionListing(subscriptionListing),
  scheduledChargeListing && formatScheduledChargeListing(scheduledChargeListing),
  eventThroughput && formatEventThroughput(eventThroughput),
  clockAdvance && formatClockAdvance(clockAdvance),
  renewalJob && formatRenewalJob(renewalJob),
  loadTest && formatLoadTest(loadTest),
  results && formatJson(results),
].filter((section): section is string => typeof section === 'string');
console.log(printed.join('\n\n'));
const stopped = [
  endpoints,
  listingCost,
  subscriptionListing,
  scheduledChargeListing,
  clockAdvance,
  renewalJob,
  loadTest,
].every((phase) => phase === undefined || phase.dynamoLocalStopped);
if (!stopped) {
  log('DynamoDB Local is still running after the runtime stopped');
  process.exitCode = 1;
}
