import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every group's handler loads its use cases on the first request and keeps the module: an
 * `import()` per request resolves its specifier again each time (through the loader's hooks under
 * tsx), which cost the local runtime 5% of its CPU under the bench's load test.
 */
const FUNCTIONS = resolve(import.meta.dirname, '../../functions');
const handlers = readdirSync(FUNCTIONS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => join(FUNCTIONS, d.name, 'handler.ts'))
  .filter((file) => {
    try {
      readFileSync(file);
      return true;
    } catch {
      return false;
    }
  });

describe('handler modules', () => {
  it('finds the handlers', () => {
    expect(handlers.length).toBeGreaterThan(10);
  });

  it.each(handlers.map((file) => [file.slice(FUNCTIONS.length + 1), file]))(
    '%s imports its modules once',
    (_name, file) => {
      const dynamic = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => /\bimport\(/.test(line));
      for (const line of dynamic) expect(line).toMatch(/\bonce\(\(\) => import\(/);
    },
  );
});
