// Rewrites deep relative imports (two or more `../`) in the given folders to the package's
// `imports` aliases (#shared/*, #functions/*, #infra/*, #events/*, #test/*). Only module
// specifiers are touched (import/export from, import(), vi.mock, vi.importActual<…>(…)), and only
// when the alias resolves to the same .ts file; anything else stays relative.
// Usage: node scripts/alias-imports.mjs [folder...]   (default: test)
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// '#shared/*' -> { prefix: 'shared/', alias: '#shared/' }, for targets of the form './x/*.ts'.
const aliases = Object.entries(pkg.imports ?? {})
  .map(([name, target]) => ({ name, target }))
  .filter(({ name, target }) => name.endsWith('/*') && /^\.\/[^*]+\/\*\.ts$/.test(target))
  .map(({ name, target }) => ({ alias: name.slice(0, -1), prefix: target.slice(2, -4) }));

const SPECIFIER =
  /(\bfrom\s*|\bimport\s*\(\s*|\bvi\.mock\(\s*|\bvi\.importActual\(\s*|>\(\s*|^import\s+)(['"])((?:\.\.\/){2,}[^'"]*)\2/gm;

function aliasOf(file, specifier) {
  const target = resolve(dirname(file), specifier);
  const rel = relative(root, target).split(sep).join('/');
  for (const { alias, prefix } of aliases) {
    if (!rel.startsWith(prefix)) continue;
    const rest = rel.slice(prefix.length).replace(/\.ts$/, '');
    if (existsSync(join(root, prefix, `${rest}.ts`))) return `${alias}${rest}`;
    if (existsSync(join(root, prefix, rest, 'index.ts'))) return `${alias}${rest}/index`;
  }
  return null;
}

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(ts|tsx|mts)$/.test(name)) yield path;
  }
}

let changed = 0;
for (const folder of process.argv.slice(2).length ? process.argv.slice(2) : ['test']) {
  for (const file of files(resolve(root, folder))) {
    const text = readFileSync(file, 'utf8');
    const next = text.replace(SPECIFIER, (whole, lead, quote, specifier) => {
      const alias = aliasOf(file, specifier);
      return alias ? `${lead}${quote}${alias}${quote}` : whole;
    });
    if (next !== text) {
      writeFileSync(file, next);
      changed++;
    }
  }
}
console.log(`rewrote imports in ${changed} files`);
