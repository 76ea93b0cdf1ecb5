import { readFileSync, writeFileSync } from 'node:fs';
import type { BenchResults } from './report';
import { baselineOf } from './report';

/**
 * `node --import tsx scripts/bench/record-baseline.ts [results.json]`: writes the routes' figures of
 * a full `npm run bench` (default build/bench/results.json) to scripts/bench/baseline.json, which
 * later runs compare against. Recorded once before the data-layer work (issue 33).
 */
const results = JSON.parse(
  readFileSync(process.argv[2] ?? 'build/bench/results.json', 'utf8'),
) as BenchResults;
const baseline = baselineOf(results.endpoints, results.generatedAt);
writeFileSync(new URL('./baseline.json', import.meta.url), `${JSON.stringify(baseline, null, 2)}\n`);
console.log(
  `baseline: ${Object.keys(baseline.routes).length} routes, raw GetItem p50 ${baseline.rawGetItemP50Ms} ms`,
);
