import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '#infra/local/dynamodb-local';
import { type FakeAsaas, startFakeAsaas } from '../support/fake-asaas/server';

const dataDir = mkdtempSync(join(tmpdir(), 'ps-start-'));
let child: ChildProcess | undefined;
let asaas: FakeAsaas | undefined;
afterAll(async () => {
  await asaas?.stop();
  // Even when the test failed half-way: no npm, node or java of this test outlives it.
  try {
    if (child?.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  for (const pid of javaPids()) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

function javaPids(): string[] {
  try {
    return execFileSync('pgrep', ['-f', dataDir], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

async function waitForReady(proc: ChildProcess, text = 'ready'): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ${text} line: ${out}`)), 90_000);
    proc.stdout?.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.includes(text));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    proc.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

it('npm start serves the API, writes dev credentials, and SIGTERM leaves no java process behind', async () => {
  const port = await freePort();
  asaas = await startFakeAsaas();
  // Live mode pointed at another Asaas endpoint by the environment: ASAAS_BASE_URL for both
  // environments, a per-environment variable winning for its own.
  const sandboxUrl = 'https://api-sandbox.example.com/v3';
  child = spawn('npm', ['start', '--silent'], {
    env: {
      ...process.env,
      PORT: String(port),
      LOCAL_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ASAAS_BASE_URL: asaas.baseUrl,
      ASAAS_SANDBOX_URL: sandboxUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const line = await waitForReady(child);
  expect(line).toContain(`http://127.0.0.1:${port}`);

  const health = await fetch(`http://127.0.0.1:${port}/api/health`);
  expect(health.status).toBe(200);
  const gateway = await fetch(`http://127.0.0.1:${port}/api/health/gateway`);
  expect(gateway.status).toBe(200);
  expect(asaas.requests.map((r) => r.path)).toContain('/v3/myAccount/commercialInfo');

  const credentials = JSON.parse(readFileSync(join(dataDir, 'dev-credentials.json'), 'utf8'));
  expect(credentials).toMatchObject({ baseUrl: `http://127.0.0.1:${port}`, sellerId: expect.any(Number) });
  expect(credentials.apiKey).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
  const keys = await fetch(`http://127.0.0.1:${port}/api/api-keys`, {
    headers: { authorization: `Bearer ${credentials.dashboardToken}` },
  });
  expect(keys.status).toBe(200);

  // dev-token signs with the keys of the same data folder; the running server accepts it.
  const token = execFileSync('npm', ['run', '--silent', 'dev-token', '--', '42'], {
    env: { ...process.env, LOCAL_DATA_DIR: dataDir },
    encoding: 'utf8',
  }).trim();
  const asOther = await fetch(`http://127.0.0.1:${port}/api/api-keys`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(asOther.status).toBe(200);
  expect(((await asOther.json()) as { data: unknown[] }).data).toEqual([]);

  expect(javaPids().length).toBeGreaterThan(0);
  // A terminal's Ctrl-C or a supervisor's stop reaches the whole process group.
  const exited = new Promise<number | null>((r) => child?.once('exit', (code) => r(code)));
  process.kill(-(child.pid as number), 'SIGTERM');
  await exited;
  // The JVM gets SIGTERM with the group and may need a moment to exit (5 s at most: the runtime's
  // stop kills it then), so its absence is awaited rather than checked after a fixed pause.
  await expect.poll(javaPids, { timeout: 10_000, interval: 100 }).toEqual([]);
  expect(existsSync(join(dataDir, 'dynamodb'))).toBe(true);
});

function npmStart(port: number): ChildProcess {
  return spawn('npm', ['start', '--silent'], {
    env: { ...process.env, PORT: String(port), LOCAL_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
}

async function stopChild(): Promise<void> {
  const exited = new Promise<number | null>((r) => child?.once('exit', (code) => r(code)));
  process.kill(-(child?.pid as number), 'SIGTERM');
  await exited;
  await expect.poll(javaPids, { timeout: 10_000, interval: 100 }).toEqual([]);
}

it('moves business time only: credentials stay valid a month on, and a restart goes on from the clock', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = npmStart(port);
  expect(await waitForReady(child, 'test clock:')).toContain('(real time;');
  const credentials = JSON.parse(readFileSync(join(dataDir, 'dev-credentials.json'), 'utf8'));

  const advanced = await fetch(`${base}/api/test-helpers/clock/advance`, {
    method: 'POST',
    body: JSON.stringify({ seconds: 31 * 86_400 }),
  });
  expect(advanced.status).toBe(200);
  const reached = Date.parse(((await advanced.json()) as { now: string }).now);

  const devToken = execFileSync('npm', ['run', '--silent', 'dev-token', '--', '42'], {
    env: { ...process.env, LOCAL_DATA_DIR: dataDir },
    encoding: 'utf8',
  }).trim();
  for (const token of [credentials.dashboardToken, devToken]) {
    const keys = await fetch(`${base}/api/api-keys`, { headers: { authorization: `Bearer ${token}` } });
    expect(keys.status).toBe(200);
  }
  const withKey = await fetch(`${base}/api/webhook-endpoints`, {
    headers: { authorization: `Bearer ${credentials.apiKey}` },
  });
  expect(withKey.status).toBe(200);
  await stopChild();

  child = npmStart(port);
  expect(await waitForReady(child, 'test clock:')).toMatch(/days ahead of real time, kept from the last run/);
  const clock = (await (await fetch(`${base}/api/test-helpers/clock`)).json()) as { now: string };
  expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(reached);
  await stopChild();
});
