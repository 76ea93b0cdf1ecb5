import { createServer } from 'node:http';
import { startRuntime } from '../../infra/local/runtime';
import { createApiKey } from '../../shared/domain/auth/api-keys';
import { newEvent } from '../../shared/domain/events/events';
import { createEndpoint } from '../../shared/domain/webhooks/endpoints';
import { configureLogs } from '../../shared/logger';

export interface EventThroughput {
  events: number;
  /** Outbox write to signed delivery accepted by the receiver, through stream, bus, fan-out and queue. */
  eventsPerSecond: number;
  /** Plain sequential POSTs of the same body from this process to the same receiver. */
  rawPostsPerSecond: number;
  dynamoLocalStopped: boolean;
}

const EVENTS = 300;

/**
 * Events delivered per second to a local receiver, next to raw HTTP POSTs per second from the
 * same process. Deliveries run one at a time, as the local queue hands them out, so the raw
 * figure is measured sequentially too.
 */
export async function measureEventThroughput(): Promise<EventThroughput> {
  configureLogs({ level: 'silent' });
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const address = receiver.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  const runtime = await startRuntime({
    port: 0,
    dataDir: null,
    logLevel: 'silent',
    tableName: 'bench-events',
    tickMs: 20,
  });
  try {
    const { deps } = runtime;
    const tenant = { sellerId: 777_001, environment: 'test' as const };
    await createApiKey({ apiKeys: deps.repos.apiKeys, clock: deps.clock, ids: deps.ids }, tenant.sellerId, {
      name: 'bench',
      environment: 'test',
    });
    await createEndpoint(
      { endpoints: deps.repos.webhookEndpoints, clock: deps.clock, ids: deps.ids, urlPolicy: deps.urlPolicy },
      tenant,
      { url, events: ['*'] },
    );
    const data = (i: number) => ({ id: `bench_${i}`, updatedAt: deps.clock.now().toISOString() });
    const started = performance.now();
    for (let i = 0; i < EVENTS; i += 25) {
      const batch = Array.from({ length: Math.min(25, EVENTS - i) }, (_, k) =>
        newEvent(deps, tenant, 'product.updated', data(i + k)),
      );
      await deps.repos.outbox.write(batch);
    }
    const deadline = Date.now() + 120_000;
    while (received < EVENTS && Date.now() < deadline) await runtime.timeline.tick();
    const eventsSeconds = (performance.now() - started) / 1000;
    const delivered = received;

    const body = JSON.stringify({
      id: 'evt_raw',
      event: 'product.updated',
      timestamp: new Date().toISOString(),
      data: data(0),
    });
    const rawStarted = performance.now();
    for (let i = 0; i < EVENTS; i++) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.body?.cancel();
    }
    const rawSeconds = (performance.now() - rawStarted) / 1000;
    return {
      events: delivered,
      eventsPerSecond: Math.round((delivered / eventsSeconds) * 10) / 10,
      rawPostsPerSecond: Math.round((EVENTS / rawSeconds) * 10) / 10,
      dynamoLocalStopped: true,
    };
  } finally {
    await runtime.stop();
    await new Promise<void>((r) => receiver.close(() => r()));
  }
}

export function formatEventThroughput(t: EventThroughput): string {
  return [
    'Webhook delivery throughput (outbox -> stream -> bus -> fan-out -> queue -> signed POST), one local receiver:',
    `  events delivered: ${t.events} at ${t.eventsPerSecond} events/s; raw sequential POSTs from this process: ${t.rawPostsPerSecond}/s`,
  ].join('\n');
}
