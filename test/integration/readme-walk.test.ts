import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '#infra/local/dynamodb-local';
import type { Runtime } from '#infra/local/runtime';
import { type FakeAsaas, startFakeAsaas } from '../support/fake-asaas/server';
import { announcedStatuses, runWalk, SKIP_MARKER, walkBlocks } from '../support/readme-walk';
import { startTestRuntime } from '../support/runtime';

const root = resolve(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const dataDir = mkdtempSync(join(tmpdir(), 'ps-readme-walk-'));
let runtime: Runtime | undefined;
/** Live mode's Asaas (the machine may have no internet): health is `healthy` only while it answers. */
let asaas: FakeAsaas | undefined;
/** The walk's one runtime, its live provider the fake. */
async function walkRuntime(dataDir: string): Promise<Runtime> {
  asaas ??= await startFakeAsaas();
  runtime ??= await startTestRuntime({ dataDir, port: 0, asaasBaseUrl: asaas.baseUrl });
  return runtime;
}
const which = (tool: string) => execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
afterAll(async () => {
  await runtime?.stop();
  await asaas?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the README's walk", () => {
  it('is every shell block from "Try it" on, and leaves out only what needs an outside account', () => {
    const blocks = walkBlocks(readme);
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    expect(blocks[0].heading).toBe('Try it');
    const skipped = readme.split('\n').filter((l) => l.startsWith(SKIP_MARKER));
    expect(skipped).toEqual([expect.stringContaining('Asaas account')]);
    // Nothing to fill in by hand: a placeholder such as <id> would be a shell redirection.
    for (const { code } of blocks) expect(code).not.toMatch(/<[a-z][a-z ]*>|=…/);
    // The credentials and the mailbox are read where npm start wrote them, LOCAL_DATA_DIR or not.
    const walk = blocks.map((b) => b.code).join('\n');
    expect(walk).not.toMatch(/\.local\//);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's default value, not a template
    expect(walk).toContain('${LOCAL_DATA_DIR:-.local}');
  });

  it('never gives one CPF to two different people', () => {
    const people = new Map<string, Set<string>>();
    const walk = walkBlocks(readme)
      .map((b) => b.code)
      .join('\n');
    for (const match of walk.matchAll(/"name":"([^"]+)"[^}]*?"document":"([\d.-]+)"/g)) {
      const cpf = match[2].replace(/\D/g, '');
      people.set(cpf, (people.get(cpf) ?? new Set()).add(match[1]));
    }
    expect(people.size).toBeGreaterThanOrEqual(3);
    for (const [cpf, names] of people) expect([...names], cpf).toHaveLength(1);
  });

  it('brings a curl of its own to a machine that has none (only Node and Java)', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'ps-walk-bare-'));
    for (const tool of ['bash', 'sh', 'node']) symlinkSync(which(tool), join(bin, tool));
    runtime = await walkRuntime(dataDir);
    const run = await runWalk(
      [
        {
          heading: 'bare',
          code: [
            `B=${runtime.baseUrl}`,
            'curl -s $B/api/health -o health.json',
            "node -p \"JSON.parse(require('fs').readFileSync('health.json')).status\"",
            'curl -s -X POST $B/api/test-helpers/clock/advance -H "x-note: walk" -d \'{"seconds":1}\'',
            'curl -s $B/api/nowhere',
          ].join('\n'),
        },
      ],
      { cwd: bin, env: { PATH: bin } },
    );
    rmSync(bin, { recursive: true, force: true });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^healthy\n\{"now":"/);
    expect(run.answers.map((a) => [a.status, a.request])).toEqual([
      [200, `GET ${runtime.baseUrl}/api/health`],
      [200, `POST ${runtime.baseUrl}/api/test-helpers/clock/advance`],
      [404, `GET ${runtime.baseUrl}/api/nowhere`],
    ]);
  });

  it('runs top to bottom against one local runtime without an error', async () => {
    runtime = await walkRuntime(dataDir);
    const blocks = walkBlocks(readme);
    const hookPort = await freePort();
    const run = await runWalk(blocks, {
      cwd: root,
      env: { ...process.env, LOCAL_DATA_DIR: dataDir, HOOK_PORT: String(hookPort) },
    });
    // README_WALK_TRANSCRIPT=<file> keeps what the walk printed, to read the answers a person would see.
    if (process.env.README_WALK_TRANSCRIPT)
      writeFileSync(process.env.README_WALK_TRANSCRIPT, `${run.stdout}\n\n${run.stderr}`);
    const transcript = `stdout:\n${run.stdout.slice(-4000)}\nstderr:\n${run.stderr.slice(-4000)}`;
    expect(run.exitCode, transcript).toBe(0);
    expect(run.answers.length).toBeGreaterThan(100);
    // The walk polls its webhook receiver until it listens: those tries are not the service's answers.
    const receiver = `http://127.0.0.1:${hookPort}`;
    for (const answer of run.answers.filter((a) => !a.request.includes(receiver))) {
      const where = `${blocks[answer.block]?.heading}: ${answer.status} ${answer.request}`;
      // 000 is no answer at all; a 5xx is the service failing.
      expect(answer.status >= 100 && answer.status < 500, where).toBe(true);
      // A refusal is part of the walk only where the README says so next to the command.
      if (answer.status >= 400)
        expect(announcedStatuses(blocks[answer.block].code).has(answer.status), where).toBe(true);
    }
    // The receiver the README starts checked every delivery's signature, the clock moved or not.
    // (Its lines land between the curl answers, which end without a newline.)
    expect(run.stdout).toMatch(/verified product\.updated evt_/);
    expect(run.stdout).toMatch(/verified subscription\.renewed evt_/);
    expect(run.stdout).not.toMatch(/rejected: /);
  }, 300_000);
});
