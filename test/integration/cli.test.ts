import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { WebhookEvent } from '@payment-service/node';
import { webhookMiddleware } from '@payment-service/node/express';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_CATALOG } from '#events/catalog';
import { verifySignature } from '#events/signing';
import type { Runtime } from '#infra/local/runtime';
import { sellerFixtures } from '../support/fixtures';
import { Receiver } from '../support/receiver';
import { type client, nextRateWindow, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 98_000);

useTestRuntime(
  (r, a) => {
    runtime = r;
    api = a;
  },
  { freshRateWindow: false },
);

const BIN = resolve(import.meta.dirname, '../../packages/cli/bin/payment-service.js');
const configHome = mkdtempSync(join(tmpdir(), 'cli-config-'));
const env = { ...process.env, XDG_CONFIG_HOME: configHome };
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  rmSync(configHome, { recursive: true, force: true });
});

/** One CLI command to its end: its exit code and what it printed. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** A long-running CLI command (listen, logs tail) whose output the test reads as it comes. */
function started(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const out = { text: '' };
  child.stdout?.on('data', (c) => {
    out.text += c;
  });
  child.stderr?.on('data', (c) => {
    out.text += c;
  });
  return { child, out };
}

/** Polls `check` (ticking the runtime's timeline) until it holds; bounded, no fixed sleep. */
async function until<T>(what: string, check: () => T | undefined | false, tries = 600): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = check();
    if (value) return value;
    await runtime.timeline.tick();
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never: ${what}`);
}

let seller: Awaited<ReturnType<typeof fixtures.seller>>;
beforeAll(async () => {
  seller = await fixtures.seller();
});

describe('payment-service CLI', () => {
  it('login refuses a key the API refuses, and saves nothing', async () => {
    const refused = await cli([
      'login',
      '--api-key',
      'sk_test_notarealkey0000000000',
      '--api-url',
      runtime.baseUrl,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the key sk_test_…0000 \(401\): nothing was saved/);
    expect(() => statSync(join(configHome, 'payment-service', 'config.json'))).toThrow();
  });

  it('login keeps a good key in a file only its owner reads, never printing it whole', async () => {
    const ok = await cli(['login', '--api-key', seller.key, '--api-url', runtime.baseUrl]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`sk_test_…${seller.key.slice(-4)}`);
    expect(ok.stdout).not.toContain(seller.key);
    expect(statSync(join(configHome, 'payment-service', 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('trigger --list lists the whole catalog, and an unknown event is refused with the valid ones', async () => {
    const list = await cli(['trigger', '--list']);
    expect(list.code).toBe(0);
    for (const e of EVENT_CATALOG) expect(list.stdout).toContain(e.name);
    // Every event is made by the service: the time-driven ones on a test clock, none sent as a copy.
    expect(list.stdout).not.toContain('test-helpers/events');
    for (const name of [
      'payment_method.expiring_soon',
      'payment_method.expired',
      'scheduled_charge.cycle_failed',
      'installment_plan.installment_overdue',
      'installment_plan.completed',
    ])
      expect(list.stdout).toMatch(new RegExp(`${name.replace('.', '\\.')} +API calls, then a test clock`));
    const unknown = await cli(['trigger', 'product.exploded']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown event "product.exploded". Valid events:');
    expect(unknown.stderr).toContain('checkout.session.completed');
  });

  it('trigger makes every catalog event, and listen forwards each one signed as the service signs', async () => {
    const receiver = await new Receiver().start();
    const listen = started(['listen', '--forward-to', receiver.url]);
    const secret = await until(
      'listen is ready',
      () => /signing secret is (whsec_\S+)/.exec(listen.out.text)?.[1],
    );

    const failed: string[] = [];
    for (const { name } of EVENT_CATALOG) {
      // Each trigger's requests in a window of their own (100 a minute per key).
      await nextRateWindow(runtime, api);
      const run = await cli(['trigger', name]);
      if (run.code !== 0 || !run.stdout.includes(`Triggered ${name}`)) failed.push(`${name}: ${run.stderr}`);
    }
    expect(failed).toEqual([]);
    // The clocks the recipes made are gone (a seller keeps at most 100).
    expect((await api.get('/api/test-helpers/test-clocks', { token: seller.key })).body.data).toEqual([]);
    const names = EVENT_CATALOG.map((e) => e.name);
    const got = () => new Set(receiver.received.map((r) => r.json?.event));
    await until('every event forwarded', () => names.every((n) => got().has(n)));

    for (const r of receiver.received) {
      expect(() =>
        verifySignature({ header: r.headers['x-signature'] as string, rawBody: r.body, secrets: secret }),
      ).not.toThrow();
      expect(r.headers['x-event-id']).toBe(r.json.id);
    }
    // One line per forward, with the local answer's status.
    expect(listen.out.text).toMatch(/--> product\.created \[evt_\w+\]\s+<-- \[200\] POST /);

    // events resend: the same event again, to the target listen forwarded to.
    const first = receiver.received[0].json;
    const before = receiver.received.filter((r) => r.json?.id === first.id).length;
    await nextRateWindow(runtime, api);
    const resent = await cli(['events', 'resend', first.id]);
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.stdout).toContain(`--> ${first.event} [${first.id}]  <-- [200] POST ${receiver.url}`);
    expect(receiver.received.filter((r) => r.json?.id === first.id)).toHaveLength(before + 1);
    listen.child.kill('SIGTERM');
    await receiver.stop();
    // 48 CLI processes, one after the other: bounded by what they do, not by a clock.
  }, 400_000);

  it("an Express handler written with the SDK verifies what listen forwards, with listen's secret", async () => {
    await nextRateWindow(runtime, api);
    const listen = started(['listen', '--forward-to', 'http://127.0.0.1:1/placeholder']);
    const secret = await until(
      'listen is ready',
      () => /signing secret is (whsec_\S+)/.exec(listen.out.text)?.[1],
    );
    listen.child.kill('SIGTERM');

    const verified: WebhookEvent[] = [];
    const app = express();
    app.post('/hook', webhookMiddleware({ secret }), (req, res) => {
      verified.push(req.webhookEvent as WebhookEvent);
      res.sendStatus(200);
    });
    const server = createServer(app);
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      const forwarding = started(['listen', '--forward-to', url]);
      await until('listen is ready', () => forwarding.out.text.includes(secret));
      const made = await api.post(
        '/api/products',
        { name: 'Curso de violão', image: 'https://example.com/v.png', value: 49.9 },
        { token: seller.key },
      );
      expect(made.status).toBe(201);
      const event = await until('the SDK verified the forwarded event', () =>
        verified.find(
          (e) => e.event === 'product.created' && (e.data as { uuid?: string }).uuid === made.body.uuid,
        ),
      );
      expect(event.id).toMatch(/^evt_/);
      expect(forwarding.out.text).toMatch(/--> product\.created \[evt_\w+\]\s+<-- \[200\] POST /);
      forwarding.child.kill('SIGTERM');
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });

  it('logs tail shows a request just made, with its status and latency', async () => {
    await nextRateWindow(runtime, api);
    const tail = started(['logs', 'tail']);
    const made = await api.get('/api/products/987654', { token: seller.key });
    expect(made.status).toBe(404);
    const line = await until('the request is tailed', () =>
      tail.out.text.split('\n').find((l) => /GET\s+\/api\/products\/\{id\}\s+404\s+\d+ms/.test(l)),
    );
    expect(line).toMatch(/^\d{4}-\d\d-\d\dT.*Z {2}GET {4}\/api\/products\/\{id\} {2}404 {2}\d+ms$/);
    tail.child.kill('SIGTERM');
  });
});
