import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { EVENT_SOURCE } from '#shared/domain/events/events';
import type { Tenant } from '#shared/domain/tenant';
import { Receiver, waitFor } from '../support/receiver';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let receiver: Receiver;
let tenant: Tenant;

// A long heartbeat keeps its sweeps out of the simulated minutes these tests walk through.
useTestRuntime(
  (r, a) => {
    runtime = r;
    api = a;
    tenant = { sellerId: r.devCredentials?.sellerId as number, environment: 'test' };
  },
  { heartbeatIntervalSeconds: 6 * 3600 },
);

beforeEach(async () => {
  receiver = await new Receiver().start();
  return () => receiver.stop();
});
afterEach(() => vi.restoreAllMocks());

async function register() {
  const res = await api.post(
    '/api/webhook-endpoints',
    { url: receiver.url, events: ['*'] },
    { token: runtime.devCredentials?.apiKey as string },
  );
  expect(res.status).toBe(201);
}

/** Puts the events on the bus at once, as the outbox publisher does with a stream batch. */
const publish = (ids: string[]) =>
  runtime.bus.put(
    ids.map((id) => ({
      source: EVENT_SOURCE,
      detailType: 'product.updated',
      detail: {
        tenant,
        envelope: {
          id,
          event: 'product.updated',
          timestamp: runtime.clock.now().toISOString(),
          data: { id },
        },
      },
    })),
  );

describe('webhook fan-out behind its queue (local runtime)', () => {
  it("delivers several events of one seller through the fan-out queue, reading the seller's endpoints once", async () => {
    await register();
    const sent = vi.spyOn(runtime.fanoutQueue, 'send');
    const reads = vi.spyOn(runtime.deps.repos.webhookEndpoints, 'all');
    const ids = Array.from({ length: 6 }, (_, i) => `evt_fanoutqueue${i}_${Date.now()}`);
    await publish(ids);
    await waitFor(() => receiver.received.length === ids.length);
    expect(receiver.received.map((r) => r.headers['x-event-id']).sort()).toEqual([...ids].sort());
    // The bus rule put each event, whole, on the queue ...
    expect(sent).toHaveBeenCalledTimes(ids.length);
    const bodies = sent.mock.calls.map(([m]) => JSON.parse(m.body));
    expect(bodies.map((b) => b.detail.envelope.id).sort()).toEqual([...ids].sort());
    expect(bodies[0]).toMatchObject({ source: EVENT_SOURCE, 'detail-type': 'product.updated' });
    // ... and the fan-out read them as one batch: one endpoint read for the six events.
    expect(reads.mock.calls.filter(([t]) => t.sellerId === tenant.sellerId)).toHaveLength(1);
    expect(runtime.fanoutQueue.messages).toEqual([]);
    expect(runtime.fanoutDlq.messages).toEqual([]);
  });

  it('retries a failing fan-out from the queue and moves it to the fan-out DLQ after five receives', async () => {
    await register();
    vi.spyOn(runtime.deps.repos.webhookEndpoints, 'all').mockRejectedValue(
      new Error('simulated Query failure'),
    );
    const id = `evt_fanoutdlq_${Date.now()}`;
    await publish([id]);
    await waitFor(() => runtime.fanoutQueue.messages[0]?.receiveCount === 1);
    // Visible again one visibility timeout (six fan-out timeouts, 60 s) after each receive.
    for (let receives = 2; receives <= 5; receives++) {
      await runtime.timeline.advance(60);
      expect(runtime.fanoutQueue.messages.map((m) => m.receiveCount)).toEqual([receives]);
    }
    await runtime.timeline.advance(60);
    expect(runtime.fanoutQueue.messages).toEqual([]);
    expect(runtime.fanoutDlq.messages).toHaveLength(1);
    const [dead] = runtime.fanoutDlq.messages;
    expect(dead?.receiveCount).toBe(5);
    expect(JSON.parse(dead?.body as string).detail.envelope.id).toBe(id);
    expect(receiver.received).toEqual([]);
  });
});
