import { measureClockAdvance } from './clock-advance';
import { measureEventThroughput } from './event-throughput';
import type { LongPhase } from './filter';
import { measureListingCost } from './listing-cost';
import { measureLoadTest } from './load-test';
import { measureRenewalJob } from './renewal-job';
import { measureScheduledChargeListing } from './scheduled-charge-listing';
import { measureSubscriptionListing } from './subscription-listing';

/** The phases scripts/bench/phase-process.ts runs in a process of their own. */
const MEASURES: Record<LongPhase, () => Promise<unknown>> = {
  'listing transactions': measureListingCost,
  'listing subscriptions': measureSubscriptionListing,
  'listing scheduled charges': measureScheduledChargeListing,
  'event throughput': measureEventThroughput,
  'clock advance': measureClockAdvance,
  'renewal job': measureRenewalJob,
  'load test': measureLoadTest,
};

const phase = process.argv[2] as LongPhase;
const measure = MEASURES[phase];
const answer = (message: { result?: unknown; error?: string }) =>
  new Promise<void>((done) => process.send?.(message, () => done()));
try {
  if (!measure) throw new Error(`no phase named "${phase}"`);
  await answer({ result: await measure() });
} catch (error) {
  await answer({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}
process.exit(0);
