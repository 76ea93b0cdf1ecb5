import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpGroups } from '#infra/routes';
import { routeKey } from '#shared/http/types';
import { type ColdStart, measureColdStarts } from './bench/cold-start';
import { type EndpointReport, measureEndpoints } from './bench/endpoints';
import { benchFilter } from './bench/filter';
import { type BenchResults, bundleSections, evaluateBudgets, formatJson, formatReport } from './bench/report';
import { BENCH_BUILD_DIR, measureSizes, type SizeReport } from './bench/sizes';

/**
 * `npm run bench`: bundle sizes, cold starts against the bare handler, and one recipe per route
 * (round trips and p50 beside a raw GetItem of the same run). Budgets that fail are reported as
 * FAIL; the command fails only when the bench itself cannot run. `BENCH_ONLY=word,...` measures
 * only the routes and phases the words name (scripts/bench/filter.ts). The long phases (listing
 * costs, event throughput, jobs, the load test) have scripts of their own: scripts/bench-phase.ts.
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
  `${JSON.stringify(results ?? { sizes, coldStarts }, null, 2)}\n`,
);
const printed = [
  results && formatReport(results),
  // Without endpoints there is no full report; the bundle sizes and cold starts still print.
  !results && sizes && coldStarts && bundleSections(sizes, coldStarts).join('\n'),
  results && formatJson(results),
].filter((section): section is string => typeof section === 'string');
console.log(printed.join('\n\n'));
if (endpoints && !endpoints.dynamoLocalStopped) {
  log('DynamoDB Local is still running after the runtime stopped');
  process.exitCode = 1;
}
