import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const COLD_RUNS = 7;

/** Lambda sets these; passed only if a bundle cannot even be imported without them. */
const LAMBDA_ENV: Record<string, string> = {
  AWS_REGION: 'sa-east-1',
  TABLE_NAME: 'bench',
  JWT_ISSUER: 'https://cognito-idp.sa-east-1.amazonaws.com/bench',
  JWT_CLIENT_ID: 'bench',
  JWKS_URL: 'https://cognito-idp.sa-east-1.amazonaws.com/bench/.well-known/jwks.json',
  PUBLIC_BASE_URL: 'https://bench.example.com',
};

// Runs in a fresh process: times `import()` of the bundle only, not Node's own start. The CPU
// time beside the wall time: a module load is synchronous compile and evaluation on one thread,
// so on a quiet machine the two agree, and on a shared one the CPU time is what neighbours do
// not stretch (docs/decisions.md, "Cold start").
const PROBE = [
  'const cpu = process.cpuUsage();',
  'const started = performance.now();',
  'await import(process.argv[1]);',
  'const ms = performance.now() - started;',
  'const used = process.cpuUsage(cpu);',
  'process.stdout.write(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000 }));',
].join('\n');

export interface ColdStart {
  name: string;
  runsMs: number[];
  medianMs: number;
  /** CPU time (user + system) of the same imports. */
  cpuRunsMs: number[];
  cpuMedianMs: number;
  /** Environment variable names the import needed (empty: importing reads no configuration). */
  envNeeded: string[];
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function importOnce(
  file: string,
  env: Record<string, string>,
): { ms?: number; cpuMs?: number; error?: string } {
  // The Node that runs the bench (22, from node_modules), with nothing inherited but PATH.
  const child = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', PROBE, pathToFileURL(resolve(file)).href],
    { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 60_000 },
  );
  if (child.status !== 0)
    return { error: (child.stderr || String(child.error ?? 'failed')).trim().slice(-400) };
  return JSON.parse(child.stdout) as { ms: number; cpuMs: number };
}

/** Which environment the bundle needs to import at all: none, or Lambda's variables. */
function probeEnv(file: string): Record<string, string> {
  if (importOnce(file, {}).ms !== undefined) return {};
  const withEnv = importOnce(file, LAMBDA_ENV);
  if (withEnv.ms === undefined) throw new Error(`cannot import ${file}: ${withEnv.error}`);
  return LAMBDA_ENV;
}

/** Imports every bundle COLD_RUNS times, round-robin so that machine noise spreads evenly. */
export function measureColdStarts(bundles: { name: string; entryFile: string }[]): ColdStart[] {
  const envs = bundles.map((b) => probeEnv(b.entryFile));
  const runs: number[][] = bundles.map(() => []);
  const cpuRuns: number[][] = bundles.map(() => []);
  for (let run = 0; run < COLD_RUNS; run++) {
    bundles.forEach((bundle, i) => {
      const result = importOnce(bundle.entryFile, envs[i]);
      if (result.ms === undefined) throw new Error(`cannot import ${bundle.entryFile}: ${result.error}`);
      runs[i].push(result.ms);
      cpuRuns[i].push(result.cpuMs ?? Number.NaN);
    });
  }
  return bundles.map((bundle, i) => ({
    name: bundle.name,
    runsMs: runs[i],
    medianMs: median(runs[i]),
    cpuRunsMs: cpuRuns[i],
    cpuMedianMs: median(cpuRuns[i]),
    envNeeded: Object.keys(envs[i]),
  }));
}
