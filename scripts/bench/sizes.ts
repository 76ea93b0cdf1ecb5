import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import { buildFunction, functionBuildOptions, functionNames } from '../../esbuild.config.mjs';

/** Bench bundles live apart from `npm run build`'s output, so the two never race. */
export const BENCH_BUILD_DIR = join('build', 'bench');
export const BARE_NAME = 'bare-handler';

export interface BundleSize {
  name: string;
  entryFile: string;
  /** Entry plus every chunk it imports statically, recursively: what a cold start reads. */
  loadBytes: number;
  loadFiles: number;
  /** Everything reachable, lazy import() chunks included. */
  totalBytes: number;
  totalFiles: number;
}

export interface SizeReport {
  bare: BundleSize;
  functions: BundleSize[];
  /** Set when the bench's copy of the esbuild options no longer matches esbuild.config.mjs. */
}

const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$\s{},*]*?from\s*)?["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

function relativeImports(file: string, pattern: RegExp): string[] {
  const code = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const match of code.matchAll(pattern)) {
    const spec = match[1];
    if (!spec.startsWith('./') && !spec.startsWith('../')) continue;
    const target = resolve(dirname(file), spec);
    if (existsSync(target)) out.push(target);
  }
  return out;
}

/** Files reachable from `entry`; with `lazy`, dynamic import() edges are followed too. */
function reachable(entry: string, lazy: boolean): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of relativeImports(file, STATIC_IMPORT)) visit(next);
    if (lazy) for (const next of relativeImports(file, DYNAMIC_IMPORT)) visit(next);
  };
  visit(resolve(entry));
  return [...seen];
}

const bytesOf = (files: string[]) => files.reduce((sum, f) => sum + statSync(f).size, 0);

export function measureBundle(name: string, entryFile: string): BundleSize {
  const load = reachable(entryFile, false);
  const all = reachable(entryFile, true);
  return {
    name,
    entryFile,
    loadBytes: bytesOf(load),
    loadFiles: load.length,
    totalBytes: bytesOf(all),
    totalFiles: all.length,
  };
}

/** The bare handler is built with exactly the options of the functions' bundles. */
async function buildBare(entry: string, outdir: string): Promise<string> {
  rmSync(outdir, { recursive: true, force: true });
  await build(functionBuildOptions(entry, outdir) as BuildOptions);
  return join(outdir, 'index.mjs');
}

/** Builds every function and the bare handler into build/bench/ and measures what each loads. */
export async function measureSizes(): Promise<SizeReport> {
  rmSync(BENCH_BUILD_DIR, { recursive: true, force: true });
  const functions: BundleSize[] = [];
  for (const name of functionNames()) {
    const built = await buildFunction(name, join(BENCH_BUILD_DIR, 'functions'));
    functions.push(measureBundle(name, built.file));
  }
  const bareEntry = await buildBare(
    join('scripts', 'bench', 'bare-handler.ts'),
    join(BENCH_BUILD_DIR, 'bare'),
  );
  const bare = measureBundle(BARE_NAME, bareEntry);
  return { bare, functions };
}
