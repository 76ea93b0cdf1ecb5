import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer rules live in biome.json (noRestrictedImports overrides for shared/domain/** and
 * functions/**). These probes are real files in those folders, linted by the real config, so a
 * rule that is loosened, renamed or no longer matched by its folder fails here.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const PROBE = `layer-rule-probe-${process.pid}`;
const RULE = 'lint/style/noRestrictedImports';

const probes = {
  domainClean: [
    `shared/domain/${PROBE}-clean.ts`,
    "import type { Clock } from '#shared/domain/ports';\nimport { ConflictError } from '#shared/errors';\n\nexport const probe = (clock: Clock) => new ConflictError(clock.now().toISOString(), 'probe');\n",
  ],
  domainAdapterAlias: [
    `shared/domain/${PROBE}-adapter.ts`,
    "import { keys } from '#shared/adapters/dynamodb/keys';\n\nexport const probe = keys;\n",
  ],
  domainAdapterRelative: [
    `shared/domain/${PROBE}-relative.ts`,
    "import { systemClock } from '../adapters/system/clock';\n\nexport const probe = systemClock;\n",
  ],
  domainAwsSdk: [
    `shared/domain/${PROBE}-sdk.ts`,
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\n\nexport const probe = DynamoDBClient;\n",
  ],
  domainLambdaTypes: [
    `shared/domain/${PROBE}-lambda.ts`,
    "import type { Context } from 'aws-lambda';\n\nexport type Probe = Context;\n",
  ],
  domainFs: [
    `shared/domain/${PROBE}-fs.ts`,
    "import { readFileSync } from 'node:fs';\n\nexport const probe = readFileSync;\n",
  ],
  functionClean: [
    `functions/${PROBE}/clean.ts`,
    "import { looksLikeUuid } from '#shared/ids';\n\nexport const probe = looksLikeUuid;\n",
  ],
  functionAdapter: [
    `functions/${PROBE}/adapter.ts`,
    "import { keys } from '#shared/adapters/dynamodb/keys';\n\nexport const probe = keys;\n",
  ],
  functionOtherFolderAlias: [
    `functions/${PROBE}/alias.ts`,
    "import { healthRoutes } from '#functions/health/routes';\n\nexport const probe = healthRoutes;\n",
  ],
  functionOtherFolderRelative: [
    `functions/${PROBE}/relative.ts`,
    "import { healthRoutes } from '../health/routes';\n\nexport const probe = healthRoutes;\n",
  ],
} as const;

async function lint(file: string): Promise<{ exitCode: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('npx', ['biome', 'lint', file], { cwd: ROOT });
    return { exitCode: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { exitCode: e.code ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

const results = new Map<keyof typeof probes, { exitCode: number; output: string }>();

beforeAll(async () => {
  for (const [file, text] of Object.values(probes)) {
    mkdirSync(dirname(join(ROOT, file)), { recursive: true });
    writeFileSync(join(ROOT, file), text);
  }
  // Each probe alone, so one file's diagnostics can never make another's verdict.
  await Promise.all(
    (Object.keys(probes) as (keyof typeof probes)[]).map(async (name) => {
      results.set(name, await lint(probes[name][0]));
    }),
  );
}, 60_000);

afterAll(() => {
  for (const [file] of Object.values(probes)) rmSync(join(ROOT, file), { force: true });
  rmSync(join(ROOT, 'functions', PROBE), { recursive: true, force: true });
});

describe('layer rules (biome.json noRestrictedImports)', () => {
  it.each(['domainClean', 'functionClean'] as const)(
    'passes %s: ports, the shared kernel and events are fine',
    (name) => {
      expect(results.get(name)).toMatchObject({ exitCode: 0 });
    },
  );

  it.each([
    ['domainAdapterAlias', 'an adapter through #shared/adapters'],
    ['domainAdapterRelative', 'an adapter through a relative path'],
    ['domainAwsSdk', 'an AWS SDK client'],
    ['domainLambdaTypes', 'aws-lambda'],
    ['domainFs', 'node:fs'],
    ['functionAdapter', 'an adapter'],
    ['functionOtherFolderAlias', "another function's folder through #functions"],
    ['functionOtherFolderRelative', "another function's folder through ../"],
  ] as const)('fails %s (imports %s)', (name, what) => {
    const result = results.get(name);
    expect(result?.exitCode, what).not.toBe(0);
    expect(result?.output, what).toContain(RULE);
  });
});
