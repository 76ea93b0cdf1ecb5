import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** A PATH holding only `node` and `java`: a fresh machine with nothing else installed. */
const bare = mkdtempSync(join(tmpdir(), 'ps-bare-path-'));
afterAll(() => rmSync(bare, { recursive: true, force: true }));

function which(command: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error(`${command} is not on this machine's PATH`);
  return found;
}

describe('the prerequisites of npm test', () => {
  it('are only Node and Java: no Chromium or poppler-utils on the PATH is fine', () => {
    symlinkSync(process.execPath, join(bare, 'node'));
    symlinkSync(which('java'), join(bare, 'java'));
    const run = spawnSync(join(bare, 'node'), ['scripts/check-prerequisites.mjs'], {
      env: { PATH: bare },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('names Java when it is missing', () => {
    const run = spawnSync(process.execPath, ['scripts/check-prerequisites.mjs'], {
      env: { PATH: join(bare, 'nothing-here') },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('DynamoDB Local needs Java 17 or newer');
  });
});
