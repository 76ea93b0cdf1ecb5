import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A group's handler map (handlers.ts) imports its routes, schemas and use cases statically; the
 * function's entry (handler.ts) imports that map once, on the first request, which is the one lazy
 * import the cold-start figures keep (docs/decisions.md, "Cold start").
 */
const FUNCTIONS = resolve(import.meta.dirname, '../../functions');
const groups = readdirSync(FUNCTIONS, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(FUNCTIONS, d.name, 'handlers.ts')))
  .map((d) => d.name);
const dynamicImports = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /\bimport\(/.test(line));

describe('handler modules', () => {
  it('finds the HTTP groups', () => {
    expect(groups.length).toBeGreaterThan(10);
  });

  it.each(groups)('%s: the handler map imports everything statically', (group) => {
    expect(dynamicImports(join(FUNCTIONS, group, 'handlers.ts'))).toEqual([]);
    expect(readFileSync(join(FUNCTIONS, group, 'routes.ts'), 'utf8')).not.toMatch(/\bimport\(/);
  });

  it.each(groups)('%s: the entry loads the handler map once, through the pipeline', (group) => {
    expect(dynamicImports(join(FUNCTIONS, group, 'handler.ts'))).toEqual([
      "export const handler = createHttpHandler(() => import('./handlers'));",
    ]);
  });
});
