import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifySignature } from '#events/signing';
import type { Runtime } from '#infra/local/runtime';
import { eventually, Receiver, waitFor } from '../support/receiver';
import { client, logLines, startTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let key: string;
let receiver: Receiver;

beforeAll(async () => {
  // A long heartbeat interval keeps the 50 simulated hours of the retry test quick.
  runtime = await startTestRuntime({ heartbeatIntervalSeconds: 6 * 3600 });
  api = client(runtime.baseUrl);
  key = runtime.devCredentials?.apiKey as string;
});
afterAll(() => runtime?.stop());
beforeEach(async () => {
  receiver = await new Receiver().start();
  return () => receiver.stop();
});

async function register(url = receiver.url, events: string[] = ['*'], token = key) {
  const res = await api.post('/api/webhook-endpoints', { url, events }, { token });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

const emit = (event = 'product.updated', token = key) =>
  api.post('/api/test-helpers/events', { event }, { token });

describe('webhook endpoints', () => {
  it('returns the secret on create only', async () => {
    const created = await register();
    expect(created.secret).toMatch(/^whsec_/);
    const read = await api.get(`/api/webhook-endpoints/${created.id}`, { token: key });
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    const listed = await api.get('/api/webhook-endpoints', { token: key });
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
  });

  it('refuses an http URL, a private address and the metadata address', async () => {
    for (const url of [
      'http://example.com/hook',
      'https://10.0.0.5/hook',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
    ]) {
      const res = await api.post('/api/webhook-endpoints', { url, events: ['*'] }, { token: key });
      expect(res.status, url).toBe(400);
    }
  });

  it('refuses IPv6 forms of loopback, private and metadata addresses (IPv4-mapped and IPv4-compatible, any notation)', async () => {
    for (const url of [
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:7f00:1]/hook',
      'https://[0:0:0:0:0:ffff:7f00:1]/hook',
      'https://[::ffff:169.254.169.254]/latest',
      'https://[::ffff:10.0.0.5]/hook',
      'https://[::127.0.0.1]/hook',
      'https://[::7f00:1]/hook',
      'https://[::a9fe:a9fe]/latest',
      'https://[2002:7f00:1::1]/hook',
    ]) {
      const res = await api.post('/api/webhook-endpoints', { url, events: ['*'] }, { token: key });
      expect(res.status, url).toBe(400);
      expect(res.body.message, url).toEqual([
        'url must not point to a private, loopback, link-local or metadata address',
      ]);
    }
    const listed = await api.get('/api/webhook-endpoints', { token: key });
    expect(JSON.stringify(listed.body)).not.toMatch(/ffff|7f00|a9fe|2002:/);
  });

  it('lists unknown event names in the 400', async () => {
    const res = await api.post(
      '/api/webhook-endpoints',
      { url: receiver.url, events: ['product.created', 'nope.one', 'nope.two'] },
      { token: key },
    );
    expect(res.status).toBe(400);
    expect(res.body.message.join(' ')).toContain('nope.one, nope.two');
  });

  it('accepts the deprecated transaction.failed when named, alone or beside *, and nothing else beside *', async () => {
    for (const events of [['transaction.failed'], ['*', 'transaction.failed']]) {
      const res = await api.post('/api/webhook-endpoints', { url: receiver.url, events }, { token: key });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.events).toEqual(events);
    }
    const mixed = await api.post(
      '/api/webhook-endpoints',
      { url: receiver.url, events: ['*', 'product.created'] },
      { token: key },
    );
    expect(mixed.status).toBe(400);
    expect(mixed.body.message[0]).toMatch(/^events must be either \["\*"\]/);
  });
});

describe('delivery', () => {
  it('delivers a signed event whose signature verifies with the endpoint secret', async () => {
    const { secret } = await register();
    const sent = await emit('product.updated');
    expect(sent.status).toBe(201);
    await waitFor(() => receiver.received.length === 1);
    const got = receiver.received[0];
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-event-id']).toBe(sent.body.id);
    expect(got.headers['x-event-type']).toBe('product.updated');
    expect(got.headers['user-agent']).toMatch(/payment-service/);
    expect(got.json).toEqual(sent.body);
    expect(() =>
      verifySignature({
        header: String(got.headers['x-signature']),
        rawBody: got.body,
        secrets: secret,
      }),
    ).not.toThrow();
  });

  it('retries after 1m, 5m, 30m, 2h, 8h and 16h, then marks the delivery failed', async () => {
    receiver.status = 500;
    const { id, secret } = await register();
    await emit();
    await waitFor(() => receiver.received.length === 1);
    const expected = [0, 60, 360, 2_160, 9_360, 38_160, 95_760];
    const logOf = async () =>
      (await api.get(`/api/webhook-endpoints/${id}/deliveries`, { token: key })).body.data[0];
    // The receiver sees the first attempt before the delivery function records it (and schedules
    // the next): wait for the record, or the first due time read would be the first attempt's. The
    // first attempt writes the record, so until then the list is empty.
    await eventually(async () => (await logOf())?.attemptCount === 1);
    const createdAt = Date.parse((await logOf()).createdAt);
    for (let k = 1; k < expected.length; k++) {
      // The schedule is exact: each retry is due its step after the previous one was due.
      const due = Date.parse((await logOf()).nextAttemptAt);
      expect(due - createdAt, `attempt ${k + 1} due`).toBe(expected[k] * 1000);
      const now = Date.parse((await api.get('/api/test-helpers/clock')).body.now);
      // Before it is due nothing arrives; once it is, exactly one more attempt does. The margins are
      // generous because the runtime's clock also moves at wall-clock speed while an advance runs (a
      // loaded CI machine spends seconds on one).
      await api.post('/api/test-helpers/clock/advance', { seconds: (due - now) / 1000 - 30 });
      expect(receiver.received.length, `before attempt ${k + 1}`).toBe(k);
      await api.post('/api/test-helpers/clock/advance', { seconds: 60 });
      expect(receiver.received.length, `after attempt ${k + 1}`).toBe(k + 1);
    }
    // Signed on real time: a receiver checking against its own clock accepts every attempt, though
    // the test clock ran a day and more ahead.
    for (const [i, delivery] of receiver.received.entries()) {
      const header = String(delivery.headers['x-signature']);
      expect(
        () => verifySignature({ header, rawBody: delivery.body, secrets: secret }),
        `attempt ${i + 1}`,
      ).not.toThrow();
    }
    await api.post('/api/test-helpers/clock/advance', { seconds: 86_400 });
    expect(receiver.received).toHaveLength(7);
    const log = await api.get(`/api/webhook-endpoints/${id}/deliveries`, { token: key });
    expect(log.body.data[0]).toMatchObject({
      status: 'failed',
      attemptCount: 7,
      lastStatusCode: 500,
      nextAttemptAt: null,
    });
    expect(runtime.metrics.WebhookDeliveriesFailed).toBeGreaterThanOrEqual(1);
    // Fifteen advances over two simulated days, each running the deliveries and sweeps it passes:
    // about 5 s on a quiet machine, longer beside the other test files on a loaded CI runner.
  }, 180_000);

  it("shows the start of a failing endpoint's answer in the deliveries list, and never logs it", async () => {
    receiver.status = 503;
    receiver.answer = `Loja em manutenção\u0007 ${'z'.repeat(600)}`;
    const { id } = await register();
    await emit();
    const logOf = async () =>
      (await api.get(`/api/webhook-endpoints/${id}/deliveries`, { token: key })).body.data[0];
    await eventually(async () => (await logOf())?.attemptCount === 1);
    const delivery = await logOf();
    expect(delivery).toMatchObject({ status: 'pending', lastStatusCode: 503, lastError: null });
    // The first 500 bytes: the prefix is 22 of them (ç and ã take two, the bell one and is left out).
    expect(delivery.lastResponseExcerpt).toBe(`Loja em manutenção ${'z'.repeat(500 - 22)}`);
    expect(logLines.some((line) => line.includes('Loja em manuten'))).toBe(false);
  });

  it('counts an answer after 6 seconds as a failed attempt', async () => {
    receiver.delayMs = 6_000;
    const { id } = await register();
    await emit();
    await waitFor(() => receiver.received.length === 1);
    await waitFor(() => false, 0).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 6_000));
    const log = await api.get(`/api/webhook-endpoints/${id}/deliveries`, { token: key });
    expect(log.body.data[0]).toMatchObject({ status: 'pending', attemptCount: 1, lastStatusCode: null });
    expect(log.body.data[0].lastError).toMatch(/5000 ms/);
    expect(log.body.data[0].nextAttemptAt).not.toBeNull();
  }, 20_000);

  it('still delivers when publishing fails after the state change was saved', async () => {
    const { id } = await register();
    const put = runtime.bus.put.bind(runtime.bus);
    let failures = 0;
    runtime.bus.put = async (events) => {
      if (failures++ === 0) throw new Error('simulated crash between save and publish');
      return put(events);
    };
    try {
      const sent = await emit();
      await waitFor(() => receiver.received.length === 1);
      expect(receiver.received[0].headers['x-event-id']).toBe(sent.body.id);
      expect(failures).toBeGreaterThan(1);
    } finally {
      runtime.bus.put = put;
    }
    // The attempt is recorded after the receiver answered it.
    await eventually(
      async () =>
        (await api.get(`/api/webhook-endpoints/${id}/deliveries`, { token: key })).body.data[0]?.status ===
        'succeeded',
    );
  });

  it('never sends an event to an endpoint of another seller or of the other environment', async () => {
    const other = await new Receiver().start();
    const live = await new Receiver().start();
    try {
      const otherToken = await runtime.issuer.sign(9_999, { now: runtime.clock.now() });
      await register(other.url, ['*'], otherToken);
      await api.post(
        '/api/webhook-endpoints',
        { url: other.url, events: ['*'] },
        { token: otherToken, headers: { 'x-environment': 'test' } },
      );
      const ownerToken = await runtime.issuer.sign(runtime.devCredentials?.sellerId as number, {
        now: runtime.clock.now(),
      });
      await register(live.url, ['*'], ownerToken);
      await register();
      await emit();
      await waitFor(() => receiver.received.length === 1);
      await api.post('/api/test-helpers/clock/advance', { seconds: 5 });
      expect(other.received).toHaveLength(0);
      expect(live.received).toHaveLength(0);
    } finally {
      await other.stop();
      await live.stop();
    }
  });

  it('resends with the same event id and signs with both secrets during a rotation', async () => {
    const { id, secret } = await register();
    const sent = await emit();
    await waitFor(() => receiver.received.length === 1);
    const rotated = await api.post(`/api/webhook-endpoints/${id}/rotate-secret`, {}, { token: key });
    expect(rotated.status).toBe(200);
    const log = await api.get(`/api/webhook-endpoints/${id}/deliveries`, { token: key });
    const resend = await api.post(
      `/api/webhook-deliveries/${log.body.data[0].id}/resend`,
      {},
      { token: key },
    );
    expect(resend.status).toBe(200);
    expect(resend.body.attemptCount).toBe(2);
    expect(receiver.received).toHaveLength(2);
    const again = receiver.received[1];
    expect(again.headers['x-event-id']).toBe(sent.body.id);
    for (const s of [secret, rotated.body.secret]) {
      expect(() =>
        verifySignature({
          header: String(again.headers['x-signature']),
          rawBody: again.body,
          secrets: s,
        }),
      ).not.toThrow();
    }
  });
});
