import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * One ESM bundle per function (build/<name>/index.mjs), minified, for the Node.js 22 Lambda
 * runtime, with source maps. CDK deploys these folders as they are.
 * The function list is read from the directory layout: every functions/<name>/handler.ts.
 */

export const BUILD_DIR = 'build';

export function functionNames() {
  return readdirSync('functions', { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join('functions', d.name, 'handler.ts')))
    .map((d) => d.name)
    .sort();
}

// ESM bundles need `require` for the few CommonJS dependencies of the AWS SDK.
const banner = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

/** The esbuild options of every function bundle (the bench builds its bare handler with them too). */
export function functionBuildOptions(entry, outdir) {
  return {
    entryPoints: { index: entry },
    outdir,
    bundle: true,
    minify: true,
    sourcemap: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    // Adapters loaded with import() land in their own chunks, read only when first used.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    banner: { js: banner },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: false,
  };
}

export async function buildFunction(name, outRoot = BUILD_DIR) {
  const outdir = join(outRoot, name);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build(functionBuildOptions(join('functions', name, 'handler.ts'), outdir));
  writeFileSync(join(outdir, 'package.json'), '{"type":"module"}\n');
  const chunksDir = join(outdir, 'chunks');
  const chunkBytes = existsSync(chunksDir)
    ? readdirSync(chunksDir)
        .filter((f) => f.endsWith('.mjs'))
        .reduce((sum, f) => sum + statSync(join(chunksDir, f)).size, 0)
    : 0;
  const bytes = statSync(join(outdir, 'index.mjs')).size;
  return { name, bytes, totalBytes: bytes + chunkBytes, file: join(outdir, 'index.mjs') };
}

export async function buildAll(outRoot = BUILD_DIR) {
  return Promise.all(functionNames().map((name) => buildFunction(name, outRoot)));
}

/** Where the dashboard's build lands: index.html plus assets/ (S3 on AWS, the local runtime's /dashboard). */
export const DASHBOARD_DIR = join(BUILD_DIR, 'dashboard');

/**
 * The seller dashboard (dashboard/src, React): one minified ES module and one style sheet under
 * assets/ with content hashes in their names (cached for good), and index.html (never cached) that
 * names them. Nothing inline, so the pages' strict CSP holds. Returns the files written.
 */
export async function buildDashboard(outdir = DASHBOARD_DIR) {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: { app: 'dashboard/src/main.tsx' },
    outdir: join(outdir, 'assets'),
    entryNames: '[name]-[hash]',
    // Views loaded with import() land in chunks of their own, fetched when first opened: the
    // initial script stays within its budget as views are added.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    minify: true,
    sourcemap: false,
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    format: 'esm',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  const outputs = Object.entries(result.metafile.outputs);
  const script = basename(outputs.find(([, o]) => o.entryPoint === 'dashboard/src/main.tsx')[0]);
  const styles = basename(outputs.find(([f]) => f.endsWith('.css'))[0]);
  const template = readFileSync('dashboard/index.html', 'utf8');
  const html = template
    .replace('{{script}}', `/dashboard/assets/${script}`)
    .replace('{{styles}}', `/dashboard/assets/${styles}`);
  writeFileSync(join(outdir, 'index.html'), html);
  return { dir: outdir, script: join(outdir, 'assets', script), styles: join(outdir, 'assets', styles) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dashboard = await buildDashboard();
  console.log(
    `dashboard                 ${dashboard.dir} (${(statSync(dashboard.script).size / 1024).toFixed(1)} KB of script)`,
  );
  const results = await buildAll();
  for (const r of results) {
    console.log(
      `${r.name.padEnd(24)} entry ${(r.bytes / 1024).toFixed(1)} KB, with lazy chunks ${(r.totalBytes / 1024).toFixed(1)} KB`,
    );
  }
}
