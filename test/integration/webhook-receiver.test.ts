import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '#events/signing';
import { freePort } from '#infra/local/dynamodb-local';
import type { Runtime } from '#infra/local/runtime';
import { client, startTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let receiver: ChildProcess | undefined;
let printed = '';

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = client(runtime.baseUrl);
});
afterAll(async () => {
  if (receiver?.pid && receiver.exitCode === null) process.kill(-receiver.pid, 'SIGTERM');
  await runtime?.stop();
});

/** Resolves once the receiver has printed a line matching `pattern`. */
async function printedLine(pattern: RegExp): Promise<string> {
  const started = Date.now();
  for (;;) {
    const line = printed.split('\n').find((l) => pattern.test(l));
    if (line) return line;
    if (receiver?.exitCode !== null || Date.now() - started > 60_000)
      throw new Error(`the receiver printed no ${pattern}:\n${printed}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('npm run webhook-receiver (the README walk receiver)', () => {
  it('prints each delivery the service signed, once verified, and refuses a forged one with 400', async () => {
    const key = runtime.devCredentials?.apiKey as string;
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hook`;
    const endpoint = await api.post('/api/webhook-endpoints', { url, events: ['*'] }, { token: key });
    expect(endpoint.status).toBe(201);

    receiver = spawn('npm', ['run', '-s', 'webhook-receiver', '--', endpoint.body.secret, String(port)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    receiver.stdout?.on('data', (chunk) => {
      printed += chunk;
    });
    receiver.stderr?.on('data', (chunk) => {
      printed += chunk;
    });
    expect(await printedLine(/^listening on /)).toBe(`listening on ${url}`);

    const sent = await api.post('/api/test-helpers/events', { event: 'product.updated' }, { token: key });
    expect(sent.status).toBe(201);
    // The test clock a month on: the signature still carries real time, which the receiver checks.
    await api.post('/api/test-helpers/clock/advance', { seconds: 31 * 86_400 });
    expect(await printedLine(/^verified product\.updated /)).toBe(`verified product.updated ${sent.body.id}`);
    // A resend is the same event again: the receiver says so (process an event id once).
    const log = await api.get(`/api/webhook-endpoints/${endpoint.body.id}/deliveries`, { token: key });
    const resent = await api.post(
      `/api/webhook-deliveries/${log.body.data[0].id}/resend`,
      {},
      { token: key },
    );
    expect(resent.status).toBe(200);
    expect(await printedLine(/^verified again /)).toBe(`verified again product.updated ${sent.body.id}`);

    const body = JSON.stringify({ id: 'evt_forged', event: 'product.updated', data: {} });
    const now = Math.floor(Date.now() / 1000);
    const forged = await fetch(url, {
      method: 'POST',
      headers: { 'x-signature': signatureHeader(['whsec_not_the_secret'], now, body) },
      body,
    });
    expect(forged.status).toBe(400);
    expect(await printedLine(/^rejected: /)).toBe('rejected: no signature matches');
    expect(printed).not.toContain('evt_forged');
  });
});
